/**
 * The parts of a metric chart that are not recharts: the hover card and the visually-hidden table of what is
 * drawn (tests and screen readers read it).
 */

import type { ChartProps, DrawnSeries } from "./chart_types";
import { exact as full, sig } from "./numbers";
import { RunSwatch } from "./RunSwatch";
import { drawnX, nearest, spans } from "./series";

/** The most lines a hover card lists (the last row then says how many more). */
export const TIP_ROWS = 14;

/**
 * The hover card: per line, the nearest point's value as drawn — smoothed with the raw value beside it, or raw
 * alone where the chart draws raw values (small charts, no smoothing) — in run order.
 */
export function ChartTip({
  x,
  series,
  xLabel,
  unit,
  drawn,
  markers = [],
  exact = false,
}: {
  x: number;
  series: DrawnSeries[];
  xLabel: string;
  unit?: string;
  drawn: "smooth" | "raw";
  /** The chart's settings markers: those since the previous drawn x are named (small charts and crowded labels show none). */
  markers?: readonly { x: number | undefined; text: string }[];
  /** Pinned (PinnedTip): every number at full precision, as the CSV writes it (else 3 significant digits). */
  exact?: boolean;
}) {
  const num = (v: number, digits: number) => (exact ? full(v) : sig(v, digits));
  // The changes since the previous drawn x: a long run's lines are thinned to 200 points, so a change's own x
  // is often not one the card can land on.
  // (Only with markers: the card redraws on every mouse move.)
  const smoothed = drawn === "smooth";
  let before = Number.NEGATIVE_INFINITY;
  if (markers.length)
    for (const s of series)
      for (const p of s.points) {
        const at = drawnX(p, smoothed);
        if (at < x && at > before) before = at;
      }
  const names = [
    ...new Set(markers.filter((m) => m.x !== undefined && m.x > before && m.x <= x).map((m) => m.text)),
  ];
  // The lines with a point here; at most TIP_ROWS of them, so that 12 runs' reward and gold (24 lines) do not
  // run off a 800 px screen.
  const rows = series.flatMap((s) => {
    const p = nearest(s.points, x, smoothed);
    return p && spans(s.points, x, smoothed) ? [{ s, p }] : [];
  });
  const shown = rows.slice(0, rows.length > TIP_ROWS ? TIP_ROWS - 1 : TIP_ROWS);
  const hidden = rows.length - shown.length;
  return (
    <div className="chart-tip">
      <p className="chart-tip-x">
        {xLabel} {num(x, 4)}
      </p>
      {names.map((t) => (
        <p key={t} className="chart-tip-marker" data-testid="chart-tip-marker">
          changed: {t}
        </p>
      ))}
      <table>
        <tbody>
          {shown.map(({ s, p }) => {
            return (
              <tr key={s.id}>
                <td>
                  {s.line.shape && (
                    <RunSwatch
                      look={{ colour: s.line.colour, dotted: s.line.dotted === true, shape: s.line.shape }}
                    />
                  )}
                  <span
                    className={`tip-swatch${s.line.dashed ? " dashed" : ""}${s.line.dotted ? " dotted" : ""}`}
                    style={{ borderColor: s.line.colour }}
                  />
                  {s.line.runLabel}
                  {s.line.name ? ` ${s.line.name}` : ""}
                </td>
                <td
                  className="num"
                  data-testid="chart-tip-value"
                  data-run={s.line.runId}
                  data-metric={s.line.metric}
                >
                  {num(drawn === "raw" ? p.raw : p.smooth, 3)}
                  {unit ? ` ${unit}` : ""}
                </td>
                <td className="num muted tip-raw">
                  {drawn === "smooth" && p.smooth !== p.raw ? `raw ${num(p.raw, 3)}` : ""}
                </td>
                {/* The step of this line's point, unless the header already says it (x is the step, and the same). */}
                <td className="num muted">{xLabel === "step" && p.step === x ? "" : `step ${p.step}`}</td>
              </tr>
            );
          })}
          {hidden > 0 && (
            <tr>
              <td colSpan={4} className="muted" data-testid="chart-tip-more">
                and {hidden} more lines (hide runs with the legend to read them)
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** What is drawn, as data: one row per line (all plotted points) and one per marker. */
export function PlottedData(props: {
  id: string;
  /** The chart's title, as the page shows it. */
  title: string;
  series: DrawnSeries[];
  markers: {
    runId: string;
    runLabel: string;
    step: number;
    label: string;
    x: number | undefined;
    key: string;
  }[];
}) {
  return (
    <div className="visually-hidden">
      <table data-testid={`chart-data-${props.id}`}>
        <caption>Plotted values: {props.title}</caption>
        <thead>
          <tr>
            {["Line", "Points", "First", "Last", "Smoothed, last", "Lowest", "Highest"].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.series.map((s) => {
            const first = s.points[0];
            const last = s.points.at(-1);
            // Whether the curve rose or fell, and how far, without reading every point.
            const low = s.points.reduce((m, p) => (p.raw < m.raw ? p : m), first ?? { raw: 0, step: 0 });
            const high = s.points.reduce((m, p) => (p.raw > m.raw ? p : m), first ?? { raw: 0, step: 0 });
            const at = (p: { raw: number; step: number } | undefined) =>
              p ? `${sig(p.raw, 4)} at step ${p.step}` : "none";
            return (
              <tr
                key={s.id}
                data-series=""
                data-run={s.line.runId}
                data-metric={s.line.metric}
                data-count={s.total}
                data-steps={JSON.stringify(s.points.map((p) => p.step))}
                data-x={JSON.stringify(s.points.map((p) => p.x))}
                data-sx={s.drawn === s.points ? undefined : JSON.stringify(s.drawn.map((p) => p.x))}
                data-raw={JSON.stringify(s.points.map((p) => p.raw))}
                data-last-raw={last?.raw}
                data-last-smooth={last?.smooth}
              >
                <th scope="row">
                  {s.line.runLabel}
                  {s.line.name ? ` ${s.line.name}` : ""} ({s.line.metric})
                </th>
                <td>{s.total} points</td>
                <td>{at(first)}</td>
                <td>{at(last)}</td>
                <td>{last ? sig(last.smooth, 4) : "none"}</td>
                <td>{first ? at(low) : "none"}</td>
                <td>{first ? at(high) : "none"}</td>
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
              <th scope="row">setting changed</th>
              <td colSpan={5}>
                {m.label} · {m.runLabel}
              </td>
              <td>step {m.step}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A chart before its first drawing: its frame, title, header controls (`extra`) and plot height, without recharts;
 * it carries the chart's test id, so a chart waiting off screen can be scrolled to.
 */
export function ChartShell({ id, title, unit, height, compact, extra }: ChartProps) {
  return (
    <figure
      className={`chart${compact ? " chart-compact" : ""}`}
      data-testid={`chart-${id}`}
      aria-busy="true"
    >
      <figcaption className="chart-head">
        <span className="chart-title">
          {title}
          {unit && <span className="chart-unit"> · {unit}</span>}
        </span>
        {extra}
      </figcaption>
      <div className="chart-plot" style={{ height }} />
    </figure>
  );
}
