/**
 * Where a chart draws its settings markers: each marker's x on the chosen axis, its label text (the change and
 * whose it was), and a label row so labels that would touch stack instead (series.ts markerRows). Pure
 * (marker_place.test.ts).
 */
import type { KlEstimator, XAxis } from "../lab_store";
import type { ChartMarkers } from "./MetricChart";
import { markerRows, markerX } from "./series";

/** Share of the x span past which a marker's label goes to the left of its line. */
const RIGHT_EDGE = 0.7;
/** Width of a marker label's character at font size 11 (a generous average, so labels rather stack than touch). */
export const MARKER_CHAR_PX = 6.5;

/**
 * The markers of `markers` as drawn on a plot `plotPx` wide (0: not measured yet, a default gap) whose rows
 * have x values `rows`: x (undefined when off the axis), colour, label text, label row (−1: not labelled, a
 * repeat of one already labelled, or no row had room: the hover card names it) and side.
 */
export function placeMarkers(
  markers: readonly ChartMarkers[],
  rows: readonly { x: number }[],
  xAxis: XAxis,
  kl: KlEstimator,
  plotPx: number,
) {
  const all = markers.flatMap((m) =>
    m.markers.map((mk, i) => ({
      ...mk,
      colour: m.colour,
      runLabel: m.runLabel,
      x: markerX(m.history, mk, xAxis, kl),
      key: `${m.runId}-${i}`,
    })),
  );
  // Whose change it was: the run's name, or how many runs made the same change at the same x.
  const owners = new Map<string, number>();
  for (const m of all) owners.set(`${m.x}\u0000${m.label}`, (owners.get(`${m.x}\u0000${m.label}`) ?? 0) + 1);
  const text = (m: (typeof all)[number]) => {
    const n = owners.get(`${m.x}\u0000${m.label}`) ?? 1;
    return `${m.label} · ${n > 1 ? `${n} runs` : m.runLabel}`;
  };
  const xs = [...rows.map((r) => r.x), ...all.flatMap((m) => (m.x === undefined ? [] : [m.x]))];
  const lo = xs.length ? Math.min(...xs) : 0;
  const span = xs.length ? Math.max(...xs) - lo : 0;
  // Labels run rightwards from their line, except near the right edge, where they would be cut off.
  const right = (x: number | undefined) => x !== undefined && span > 0 && (x - lo) / span > RIGHT_EDGE;
  // Stack labels that would touch: each needs its own width (as a share of the plot) free on its side.
  const width = (m: (typeof all)[number]) =>
    plotPx > 0 ? Math.min(1, (text(m).length * MARKER_CHAR_PX + 8) / plotPx) : undefined;
  const labelRows = markerRows(
    all.map((m) => ({ x: m.x, label: m.label, toLeft: right(m.x), width: width(m) })),
    span,
  );
  return all.map((m, i) => ({ ...m, row: labelRows[i], toLeft: right(m.x), text: text(m) }));
}
