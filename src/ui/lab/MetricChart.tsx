/**
 * One metric chart (recharts): every visible run overlaid in its colour, smoothed (EMA) with the raw curve
 * drawn faintly, settings markers as labelled vertical lines, a hover card with each run's value at that x.
 * The plotted numbers are also written into a visually-hidden table (data-* attributes at full precision) so
 * tests and screen readers get exactly what is drawn.
 */
import { memo, type ReactNode, startTransition, useEffect, useMemo, useRef, useState } from "react";
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { Marker, MetricPoint } from "../../lab/protocol";
import { type KlEstimator, useLab, type XAxis as XAxisKind } from "../lab_store";
import { useApp } from "../store";
import { Hint } from "./Hint";
import { useInView } from "./in_view";
import { MetricCard } from "./MetricCard";
import { KL_ESTIMATORS, KL_UNIT } from "./metric_info";
import { sig, tick, tickFormatter } from "./numbers";
import {
  chartRows,
  decimate,
  type KeyedSeries,
  markerX,
  metricSeries,
  nearest,
  niceDomain,
  type PlotPoint,
} from "./series";

/** One line to draw: a metric of a run. */
export interface ChartLine {
  runId: string;
  runLabel: string;
  colour: string;
  metric: string;
  /** Shown in the hover card when a chart has several lines per run ("gold"). */
  name?: string;
  dashed?: boolean;
  history: readonly MetricPoint[];
}

/** A run's settings markers, drawn once per run. */
export interface ChartMarkers {
  runId: string;
  colour: string;
  markers: readonly Marker[];
  history: readonly MetricPoint[];
}

/** Most points drawn per line; longer histories are evenly thinned (first and last kept). */
const MAX_POINTS = 600;

export function xAxisLabel(axis: XAxisKind, kl: KlEstimator): string {
  switch (axis) {
    case "step":
      return "step";
    case "samples":
      return "completions sampled";
    case "tokens":
      return "completion tokens";
    case "kl":
      return `KL (${KL_ESTIMATORS.find((k) => k.key === kl)?.name}), ${KL_UNIT}`;
    case "sqrt_kl":
      return `√KL (${KL_ESTIMATORS.find((k) => k.key === kl)?.name}), √${KL_UNIT}`;
  }
}

interface Props {
  id: string;
  title: string;
  unit?: string;
  /** One line for a student, shown on hover and focus of the title (the glossary). */
  doc: string;
  /** The metric's TRL name, shown in the title's card. */
  metric?: string;
  lines: readonly ChartLine[];
  markers: readonly ChartMarkers[];
  /** Plot height: px, or any CSS length (the main charts grow with the window, for projectors). */
  height: number | string;
  /** Controls shown in the chart's header (e.g. the KL estimator). */
  extra?: ReactNode;
  compact?: boolean;
}

interface DrawnSeries extends KeyedSeries {
  line: ChartLine;
  points: PlotPoint[];
  total: number;
}

/** Delay between the charts' redraws (ms): each chart's recharts work lands in its own frame, not one long task. */
const STAGGER_MS = 40;
let mounted = 0;

/**
 * The chart, redrawn only while on screen: scrolled away it keeps its last picture (and data table) and costs
 * nothing; it catches up as it comes back into view. Charts redraw a few frames apart (recharts renders each
 * chart twice per change, the second time in an animation frame), so no single task redraws them all.
 */
export function MetricChart(props: Props) {
  const box = useRef<HTMLDivElement>(null);
  const inView = useInView(box);
  const [slot] = useState(() => mounted++ % 4);
  const [shown, setShown] = useState(props);
  // The newest props; a pending redraw picks them up when it fires (a timer is never restarted, so a chart
  // whose parent re-renders often still redraws every slot × STAGGER_MS at worst).
  const latest = useRef(props);
  latest.current = props;
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!inView || pending.current || shown === props) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      startTransition(() => setShown(latest.current));
    }, slot * STAGGER_MS);
  }, [props, shown, inView, slot]);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  return (
    <div ref={box} className="chart-box">
      <ChartBody {...shown} />
    </div>
  );
}

const ChartBody = memo(function ChartBody({
  id,
  title,
  unit,
  doc,
  metric,
  lines,
  markers,
  height,
  extra,
  compact,
}: Props) {
  const xAxis = useLab((s) => s.view.xAxis);
  const kl = useLab((s) => s.view.klEstimator);
  const smoothing = useLab((s) => s.view.smoothing);
  const ready = useLab((s) => s.phase === "ready");
  const playing = useLab((s) => s.playing);
  const software = useApp((s) => s.adapter?.isSoftware ?? false);
  const series: DrawnSeries[] = useMemo(
    () =>
      lines.map((line) => {
        const all = metricSeries(line.history, line.metric, xAxis, kl, smoothing);
        return {
          key: `${line.runId}|${line.metric}`,
          line,
          points: decimate(all, MAX_POINTS),
          total: all.length,
        };
      }),
    [lines, xAxis, kl, smoothing],
  );
  const rows = useMemo(() => chartRows(series), [series]);
  const y = useMemo(
    () => niceDomain(series.flatMap((s) => s.points.flatMap((p) => [p.raw, p.smooth]))),
    [series],
  );
  const placed = markers.flatMap((m) =>
    m.markers.map((mk, i) => ({
      ...mk,
      colour: m.colour,
      x: markerX(m.history, mk, xAxis, kl),
      key: `${m.runId}-${i}`,
    })),
  );
  const empty = rows.length === 0;
  const showRaw = smoothing > 0 && !compact;
  return (
    <figure
      className={`chart${compact ? " chart-compact" : ""}`}
      data-testid={`chart-${id}`}
      data-x-axis={xAxis}
    >
      <figcaption className="chart-head">
        <Hint
          className="chart-title"
          testId={`chart-title-${id}`}
          card={<MetricCard title={title} metric={metric} doc={doc} />}
        >
          {title}
          {unit && <span className="chart-unit"> · {unit}</span>}
        </Hint>
        {extra}
      </figcaption>
      <div className="chart-plot" style={{ height }}>
        {empty && (
          <p className="chart-empty">
            {!ready
              ? "Waiting for the lab to start…"
              : lines.length
                ? playing
                  ? `Training the first step…${software ? " (a software GPU: a step can take a minute or more)" : ""}`
                  : "No points yet — press Play"
                : "No visible runs"}
          </p>
        )}
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 12, bottom: compact ? 0 : 14, left: 0 }}>
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis
              dataKey="x"
              type="number"
              allowDecimals={xAxis === "kl" || xAxis === "sqrt_kl"}
              domain={["dataMin", "dataMax"]}
              tickFormatter={tick}
              stroke="var(--muted)"
              tick={{ fontSize: 12, fill: "var(--muted)" }}
              label={
                compact
                  ? undefined
                  : {
                      value: xAxisLabel(xAxis, kl),
                      position: "insideBottom",
                      offset: -6,
                      fontSize: 12,
                      fill: "var(--muted)",
                    }
              }
            />
            <YAxis
              type="number"
              domain={y.domain}
              ticks={y.ticks}
              allowDataOverflow
              tickFormatter={tickFormatter(y.ticks)}
              width={52}
              stroke="var(--muted)"
              tick={{ fontSize: 12, fill: "var(--muted)" }}
            />
            <Tooltip
              isAnimationActive={false}
              cursor={{ stroke: "var(--muted)", strokeDasharray: "2 2" }}
              content={({ active, label }) =>
                active && label !== undefined ? (
                  <ChartTip x={Number(label)} series={series} xLabel={xAxisLabel(xAxis, kl)} unit={unit} />
                ) : null
              }
            />
            {showRaw &&
              series.map((s) => (
                <Line
                  key={`${s.key}:raw`}
                  dataKey={(r: Record<string, number>) => r[`${s.key}:raw`]}
                  stroke={s.line.colour}
                  strokeOpacity={0.22}
                  strokeWidth={1}
                  strokeDasharray={s.line.dashed ? "5 4" : undefined}
                  dot={false}
                  activeDot={false}
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            {series.map((s) => (
              <Line
                key={`${s.key}:smooth`}
                name={`${s.line.runLabel}${s.line.name ? ` ${s.line.name}` : ""}`}
                dataKey={(r: Record<string, number>) => r[`${s.key}:${showRaw ? "smooth" : "raw"}`]}
                stroke={s.line.colour}
                strokeWidth={compact ? 1.5 : 2}
                strokeDasharray={s.line.dashed ? "5 4" : undefined}
                dot={s.points.length === 1}
                activeDot={{ r: 3 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
            {placed.map((m) =>
              m.x === undefined ? null : (
                <ReferenceLine
                  key={m.key}
                  x={m.x}
                  stroke={m.colour}
                  strokeDasharray="4 3"
                  ifOverflow="extendDomain"
                  className="marker-line"
                  label={
                    compact
                      ? undefined
                      : { value: m.label, position: "insideTopLeft", fontSize: 11, fill: "var(--text)" }
                  }
                />
              ),
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <PlottedData id={id} series={series} markers={placed} />
    </figure>
  );
});

/** The hover card: per line, the nearest point's smoothed (and raw) value, in run order. */
function ChartTip({
  x,
  series,
  xLabel,
  unit,
}: {
  x: number;
  series: DrawnSeries[];
  xLabel: string;
  unit?: string;
}) {
  return (
    <div className="chart-tip">
      <p className="chart-tip-x">
        {xLabel} {sig(x, 4)}
      </p>
      <table>
        <tbody>
          {series.map((s) => {
            const p = nearest(s.points, x);
            if (!p) return null;
            return (
              <tr key={s.key}>
                <td>
                  <span
                    className={`tip-swatch${s.line.dashed ? " dashed" : ""}`}
                    style={{ borderColor: s.line.colour }}
                  />
                  {s.line.runLabel}
                  {s.line.name ? ` ${s.line.name}` : ""}
                </td>
                <td className="num">
                  {sig(p.smooth, 3)}
                  {unit ? ` ${unit}` : ""}
                </td>
                <td className="num muted">{p.smooth !== p.raw ? `raw ${sig(p.raw, 3)}` : ""}</td>
                <td className="num muted">step {p.step}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** What is drawn, as data: one row per line (all plotted points) and one per marker. */
function PlottedData(props: {
  id: string;
  series: DrawnSeries[];
  markers: { runId: string; step: number; label: string; x: number | undefined; key: string }[];
}) {
  return (
    <div className="visually-hidden">
      <table data-testid={`chart-data-${props.id}`}>
        <caption>Plotted values of the {props.id} chart</caption>
        <tbody>
          {props.series.map((s) => {
            const last = s.points.at(-1);
            return (
              <tr
                key={s.key}
                data-series=""
                data-run={s.line.runId}
                data-metric={s.line.metric}
                data-count={s.total}
                data-steps={JSON.stringify(s.points.map((p) => p.step))}
                data-x={JSON.stringify(s.points.map((p) => p.x))}
                data-raw={JSON.stringify(s.points.map((p) => p.raw))}
                data-last-raw={last?.raw}
                data-last-smooth={last?.smooth}
              >
                <th>
                  {s.line.runLabel} {s.line.metric}
                </th>
                <td>{s.total} points</td>
                <td>{last ? `last ${last.raw} at step ${last.step}` : "none"}</td>
              </tr>
            );
          })}
          {props.markers.map((m) => (
            <tr
              key={m.key}
              data-marker=""
              data-run={m.runId}
              data-step={m.step}
              data-x={m.x}
              data-label={m.label}
            >
              <th>marker</th>
              <td>{m.label}</td>
              <td>step {m.step}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
