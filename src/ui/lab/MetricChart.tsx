/**
 * One metric chart (recharts): every visible run overlaid in its colour, smoothed (EMA) with the raw curve
 * drawn faintly, settings markers as labelled vertical lines, a hover card with each run's value at that x.
 * The plotted numbers are also written into a visually-hidden table (data-* attributes at full precision) so
 * tests and screen readers get exactly what is drawn.
 */

import { memo, useCallback, useMemo, useRef, useState } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type XAxis as AxisChoice, type KlEstimator, useLab } from "../lab_store";
import { ChartShell, ChartTip, PlottedData } from "./ChartParts";
import { type ImageKind, saveChartImage } from "./chart_image/save_chart";
import { useChartPin } from "./chart_pin";
import { type ChartProps, type DrawnSeries, xAxisLabel } from "./chart_types";
import { EmptyNote } from "./EmptyNote";
import { EndShapes } from "./EndShapes";
import { Hint } from "./Hint";
import { HoverDots } from "./HoverDots";
import { useInView } from "./in_view";
import { lineDash } from "./line_dash";
import { lineEnds } from "./line_ends";
import { MarkerLayer } from "./MarkerLayer";
import { MetricCard } from "./MetricCard";
import { MARKER_ROW_PX, placeMarkers } from "./marker_place";
import { sig, tick, tickAxisWidth, tickFormatter } from "./numbers";
import { PinnedTip } from "./PinnedTip";
import { PlotProbe } from "./PlotProbe";
import { createPlotBox } from "./pin_anchor";
import { SaveImageButton } from "./SaveImageButton";
import { niceTicksWithin, smoothsX, xExtent, yAxisOf } from "./series";
import { drawnPoints, extendSeries, type SeriesMemo } from "./series_memo";
import { useQueuedDraw } from "./use_queued_draw";

/**
 * Most points drawn per line; longer histories are evenly thinned (first and last kept, and the line's least and
 * greatest value: series_memo.ts drawnIndices). A chart is 300–700 px
 * wide, so 200 points is about one per 2–3 px; recharts' cost (SVG paths, the path-length query it makes on
 * every render) grows with the points, and it runs on the main thread.
 */
const MAX_POINTS = 200;

/** right: room for half the last x tick's label ("80,000" on the samples axis was cut to "80,00" at 12 px). */
const MARGIN = { top: 8, right: 22, bottom: 14, left: 0 };
const MARGIN_COMPACT = { ...MARGIN, bottom: 10 };
const X_DOMAIN = ["dataMin", "dataMax"] as const;

/** The x domain: the data's, widened to the markers' x (a marker past the last point, e.g. at step 0). */
function markerDomain(placed: readonly { x?: number }[]) {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const m of placed)
    if (m.x !== undefined && Number.isFinite(m.x)) {
      lo = Math.min(lo, m.x);
      hi = Math.max(hi, m.x);
    }
  if (lo > hi) return X_DOMAIN;
  return [(min: number) => Math.min(min, lo), (max: number) => Math.max(max, hi)] as const;
}
const TICK = { fontSize: 12, fill: "var(--muted)" };
const TICK_COMPACT = { ...TICK, fontSize: 11 };
/** A y-axis label's text (centred on the axis) and the room it takes beside the ticks (px). */
const Y_LABEL = { ...TICK, textAnchor: "middle" as const };
const Y_LABEL_PX = 16;

/** A few px between the plot's edges and the y domain's ends, so a line at 0 (a clip ratio, a reward still at 0) is not hidden under the x axis. */
const Y_PADDING = { top: 4, bottom: 5 };

const CURSOR = { stroke: "var(--muted)", strokeDasharray: "2 2" };
/** Plot width lost to the y axis and the margins. */
/** The plot's inset besides the y axis (its width follows its tick labels: numbers.ts tickAxisWidth). */
const PLOT_INSET_PX = MARGIN.left + MARGIN.right;

export type { ChartLine, ChartMarkers, DrawnSeries } from "./chart_types";

/**
 * The chart, redrawn only while on screen or while the lab is paused: scrolled away during training it keeps
 * its last picture (and data table) and costs nothing; it catches up as it comes back into view or the lab
 * pauses. Redraws go through the page's redraw queue (redraw_queue.ts): one chart at a time, the main charts
 * before the small diagnostics, so no single task redraws several charts.
 */
export function MetricChart(outer: ChartProps) {
  // The view's x axis, KL estimator and smoothing reach the drawing through the queue too: changing them redraws
  // one chart a task, not every chart in the one task of the click (or of each step of a dragged slider). Small
  // charts draw raw values, so smoothing does not concern them (0: their lines are not recomputed for it).
  const xAxis = useLab((s) => s.view.xAxis);
  const kl = useLab((s) => s.view.klEstimator);
  const smoothing = useLab((s) => (outer.compact ? 0 : s.view.smoothing));
  const props: DrawProps = useMemo(() => ({ ...outer, xAxis, kl, smoothing }), [outer, xAxis, kl, smoothing]);
  const box = useRef<HTMLDivElement>(null);
  const inView = useInView(box);
  const shown = useQueuedDraw(props, inView);
  return (
    <div ref={box} className="chart-box">
      {/* Not drawn yet (out of view): the empty text goes by the runs it will draw, not those at mount. */}
      {shown ? <ChartBody {...shown} hasLines={props.lines.length > 0} /> : <ChartShell {...props} />}
    </div>
  );
}

/** A chart's props with the view settings it is drawn with (MetricChart passes them through the queue). */
type DrawProps = ChartProps & { xAxis: AxisChoice; kl: KlEstimator; smoothing: number };

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
  yFloor,
  yLabel,
  hasLines,
  xAxis,
  kl,
  smoothing,
}: DrawProps & { hasLines: boolean }) {
  // Small charts draw raw values; the others the smoothed line over the faint raw one, when smoothing is on.
  const showRaw = smoothing > 0 && !compact;
  // Each line's points as last computed: a redraw computes only the points added since (series_memo.ts extendSeries).
  const memos = useRef(new Map<string, SeriesMemo>());
  const series: DrawnSeries[] = useMemo(() => {
    // Where the smoothed line's x is smoothed too (the KL axes), it is drawn through each point's sx.
    const atSx = showRaw && smoothsX(xAxis, smoothing);
    const next = new Map<string, SeriesMemo>();
    const drawn = lines.map((line) => {
      const id = `${line.runId}|${line.metric}`;
      const { memo, start } = extendSeries(
        memos.current.get(id),
        line.history,
        line.metric,
        xAxis,
        kl,
        smoothing,
        line.from,
      );
      next.set(id, memo);
      const points = drawnPoints(memo.points, start, MAX_POINTS);
      const main = atSx ? points.map((p) => ({ x: p.sx, smooth: p.smooth, raw: p.raw })) : points;
      return { id, line, points, drawn: main, total: memo.points.length - start };
    });
    memos.current = next;
    return drawn;
  }, [lines, xAxis, kl, smoothing, showRaw]);
  const extent = useMemo(() => xExtent(series, showRaw), [series, showRaw]);
  // Round x ticks (recharts' own, over [dataMin, dataMax], land on values like 158 or 0.197).
  const xTicks = useMemo(
    () =>
      extent
        ? niceTicksWithin(extent[0], extent[1], compact ? 3 : 5, xAxis !== "kl" && xAxis !== "sqrt_kl")
        : [],
    [extent, xAxis, compact],
  );
  const y = useMemo(() => yAxisOf(series, yFloor), [series, yFloor]);
  const offScale = y.offScale;
  // Props recharts compares by identity are kept stable between redraws (a new object would make it redo work).
  const yTick = useMemo(() => tickFormatter(y.ticks), [y.ticks]);
  const yWidth = useMemo(() => tickAxisWidth(y.ticks, yTick), [y.ticks, yTick]);
  // The plot's width in px, for marker label stacking (0 until the container has been measured).
  const [boxPx, setBoxPx] = useState(0);
  const [boxHeight, setBoxHeight] = useState(0);
  const onResize = useCallback((width: number, height: number) => {
    setBoxPx(width);
    setBoxHeight(height);
  }, []);
  const yAxisPx = yLabel ? yWidth + Y_LABEL_PX : yWidth;
  const plotPx = Math.max(0, boxPx - PLOT_INSET_PX - yAxisPx);
  // Label rows use at most the top half of the plot (a tall reward chart holds more than the small ones).
  // Many changes (more than 3 a row) get 3 rows, the top fifth of a tall plot: the curves stay readable, and
  // the hover card names every change at the x it is over.
  const markerCount = markers.reduce((n, m) => n + m.markers.length, 0);
  const roomRows = Math.max(2, Math.min(10, Math.floor((boxHeight * 0.5) / MARKER_ROW_PX)));
  const labelRows =
    boxHeight > 0 ? (markerCount > 3 * roomRows ? Math.min(3, roomRows) : roomRows) : undefined;
  const placed = useMemo(
    () => placeMarkers(markers, extent, xAxis, kl, plotPx, labelRows, showRaw ? smoothing : 0),
    [markers, extent, xAxis, kl, plotPx, labelRows, showRaw, smoothing],
  );
  // The x axis spans the markers too (placeMarkers' label sides assume it), as recharts' extendDomain did.
  const xDomain = useMemo(() => markerDomain(placed), [placed]);
  // Small charts name their axis too (short: no k1 note), so a chart read alone says what its x is; so do
  // the KL and entropy charts where half a row is too narrow for the note (~57 characters at 13 px).
  const roomForNote = boxPx === 0 || plotPx >= 440;
  const xLabel = useMemo(
    () =>
      compact
        ? { value: xAxisLabel(xAxis, kl), position: "insideBottom" as const, offset: -4, ...TICK_COMPACT }
        : {
            value: xAxisLabel(xAxis, kl, roomForNote),
            position: "insideBottom" as const,
            offset: -6,
            ...TICK,
          },
    [compact, xAxis, kl, roomForNote],
  );
  const empty = extent === undefined;
  const image = useMemo(
    () => ({ id, title, unit, xLabel: xAxisLabel(xAxis, kl), lines, compact }),
    [id, title, unit, xAxis, kl, lines, compact],
  );
  const saveImage = useCallback(
    (f: Element, kind: ImageKind) => void saveChartImage(f, image, kind),
    [image],
  );
  // A y label (the reward chart's) is written across the axis, left of its ticks.
  const yAxisLabel = useMemo(
    () =>
      yLabel ? { value: yLabel, angle: -90, position: "insideLeft" as const, style: Y_LABEL } : undefined,
    [yLabel],
  );
  const ends = useMemo(() => lineEnds(series, showRaw), [series, showRaw]);
  // A click pins the hover card (chart_pin.ts): the hover card then shows nothing, the pinned one stays put.
  const figure = useRef<HTMLElement>(null);
  const [box] = useState(createPlotBox); // the drawn x scale (PlotProbe): the card follows its x, clicks read it
  const drawnXs = useMemo(
    () => series.flatMap((s) => [...s.points.map((p) => p.x), ...s.drawn.map((p) => p.x)]),
    [series],
  );
  const [pin, onPlotClick, unpin] = useChartPin(`${xAxis}:${kl}`, figure, box, drawnXs);
  const tip = useCallback(
    ({ active, label }: { active?: boolean; label?: string | number }) =>
      active && label !== undefined && !pin ? (
        <ChartTip
          x={Number(label)}
          series={series}
          xLabel={xAxisLabel(xAxis, kl)}
          unit={unit}
          drawn={showRaw ? "smooth" : "raw"}
          markers={placed}
        />
      ) : null,
    [series, xAxis, kl, unit, showRaw, placed, pin],
  );
  return (
    // tabIndex -1 (no Tab stop): a click on the plot focuses the figure, so Escape there unpins this chart.
    <figure
      ref={figure}
      tabIndex={-1}
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
        {offScale > 0 && (
          <span className="chart-offscale muted" data-testid={`offscale-${id}`}>
            {offScale} below {sig(yFloor ?? 0)} off the chart
          </span>
        )}
        {extra}
        {!empty && <SaveImageButton info={image} save={saveImage} />}
      </figcaption>
      <div className="chart-plot" style={{ height }}>
        {empty && <EmptyNote hasLines={hasLines} reward={id === "reward"} />}
        <ResponsiveContainer width="100%" height="100%" onResize={onResize}>
          {/* No accessibility layer: it made every chart a Tab stop (role "application", named by its tick text);
              the table of plotted values below is each chart's text alternative, the hover card the mouse's. */}
          {/* Each line brings its own points, joined in step order (on a KL axis x can fall between steps). */}
          <LineChart
            margin={compact ? MARGIN_COMPACT : MARGIN}
            accessibilityLayer={false}
            onClick={onPlotClick}
          >
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis
              dataKey="x"
              type="number"
              allowDecimals={xAxis === "kl" || xAxis === "sqrt_kl"}
              domain={xDomain}
              ticks={xTicks}
              // Draw every tick we chose: otherwise recharts measures each label in the DOM to thin them out.
              interval={0}
              // Our ticks are given: skip recharts' own "nice" ticks (decimal.js arithmetic on every redraw).
              niceTicks="none"
              tickFormatter={tick}
              stroke="var(--muted)"
              tick={TICK}
              label={xLabel}
            />
            <YAxis
              type="number"
              domain={y.domain}
              ticks={y.ticks}
              interval={0}
              niceTicks="none"
              allowDataOverflow
              padding={Y_PADDING}
              tickFormatter={yTick}
              width={yAxisPx}
              stroke="var(--muted)"
              tick={TICK}
              label={yAxisLabel}
            />
            {/* No tooltip over an empty plot: its cursor would stay where the last point was hovered. */}
            {!empty && <Tooltip isAnimationActive={false} cursor={pin ? false : CURSOR} content={tip} />}
            {showRaw &&
              series.map((s) => (
                <Line
                  key={`${s.id}:raw`}
                  data={s.points}
                  dataKey="raw"
                  className="raw-line"
                  stroke={s.line.colour}
                  strokeOpacity={0.22}
                  strokeWidth={1}
                  strokeDasharray={lineDash(s.line)}
                  strokeLinecap={s.line.dotted ? "round" : undefined}
                  dot={false}
                  activeDot={false}
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            {series.map((s) => (
              <Line
                key={`${s.id}:smooth`}
                name={`${s.line.runLabel}${s.line.name ? ` ${s.line.name}` : ""}`}
                data={s.drawn}
                dataKey={showRaw ? "smooth" : "raw"}
                stroke={s.line.colour}
                strokeWidth={compact ? 1.5 : 2}
                strokeDasharray={lineDash(s.line)}
                strokeLinecap={s.line.dotted ? "round" : undefined}
                dot={s.points.length === 1 && !s.line.shape}
                // The hover card's points get the dots (HoverDots): recharts' would mark only exact x matches.
                activeDot={false}
                connectNulls
                isAnimationActive={false}
              />
            ))}
            <EndShapes ends={ends} compact={compact === true} />
            {!empty && <HoverDots series={series} smoothed={showRaw} pinnedX={pin?.x} />}
            <MarkerLayer placed={placed} labels={!compact} />
            <PlotProbe box={box} />
          </LineChart>
        </ResponsiveContainer>
        {pin && !empty && (
          <PinnedTip
            pin={pin}
            width={boxPx}
            box={box}
            onClose={unpin}
            series={series}
            xLabel={xAxisLabel(xAxis, kl)}
            unit={unit}
            drawn={showRaw ? "smooth" : "raw"}
            markers={placed}
          />
        )}
      </div>
      <PlottedData id={id} title={title} series={series} markers={placed} />
    </figure>
  );
});
