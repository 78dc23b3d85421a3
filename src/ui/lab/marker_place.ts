/**
 * Where a chart draws its settings markers: each marker's x on the chosen axis, its label text (the change and
 * whose it was), and a label row so labels that would touch stack instead (series.ts markerRows). Pure
 * (marker_place.test.ts).
 */
import type { Marker, MetricPoint } from "../../lab/protocol";
import type { KlEstimator, XAxis } from "../lab_store";
import type { ChartMarkers } from "./MetricChart";
import { markerRows, markerXs } from "./series";

/** Share of the x span past which a marker's label goes to the left of its line (before the plot is measured). */
const RIGHT_EDGE = 0.7;
/** A marker label's font size (px): readable on a projector. */
export const MARKER_FONT_PX = 12;
/** Vertical distance between stacked marker labels (px). */
export const MARKER_ROW_PX = MARKER_FONT_PX + 3;
/** Width of a marker label's character at {@link MARKER_FONT_PX} (a generous average: labels rather stack than touch). */
export const MARKER_CHAR_PX = 7;
/** A marker line's dash and gap (px); lines at the same x take turns, so each run's colour shows. */
const DASH = 4;
const GAP = 3;

/** The x of each marker of a run as last computed, with what it was computed from (see {@link placedXs}). */
const placed = new WeakMap<
  readonly Marker[],
  { history: readonly MetricPoint[]; params: string; xs: (number | undefined)[] }
>();

/**
 * series.ts markerXs, remembered per markers array: a chart redraws several times a second, and on the KL axes
 * with smoothing each call walks the run's history up to its last marker (3.5–6.9 ms a redraw at 12 runs × 6,000
 * steps). The markers array and the history it is placed with keep their identity while a run merely steps
 * (visible_runs.ts markersOf), so this recomputes only when a marker or the placing history changes.
 */
function placedXs(
  history: readonly MetricPoint[],
  markers: readonly Marker[],
  xAxis: XAxis,
  kl: KlEstimator,
  smoothing: number,
): (number | undefined)[] {
  const params = `${xAxis}\u0000${kl}\u0000${smoothing}`;
  const last = placed.get(markers);
  if (last && last.history === history && last.params === params) return last.xs;
  const xs = markerXs(history, markers, xAxis, kl, smoothing);
  placed.set(markers, { history, params, xs });
  return xs;
}

/**
 * The markers of `markers` as drawn on a plot `plotPx` wide (0: not measured yet, a default gap) whose lines span
 * `extent` on x ([least, greatest]; undefined: no line): x (undefined when off the axis), colour, label text, label row (−1: not labelled, a
 * repeat of one already labelled, no row had room, or the label fits on neither side of its line: the hover
 * card names it), side (a label runs rightwards unless only the left has room for it), and the line's dash
 * pattern (`dash`, `dashOffset`: several lines at one x interleave their dashes).
 */
export function placeMarkers(
  markers: readonly ChartMarkers[],
  extent: readonly [number, number] | undefined,
  xAxis: XAxis,
  kl: KlEstimator,
  plotPx: number,
  /** Label rows the plot has room for (default series.ts markerRows': 4). */
  maxRows?: number,
  /** The chart's smoothing: on the KL axes a marker goes where the smoothed line is (series.ts markerXs). */
  smoothing = 0,
) {
  const all = markers.flatMap((m) => {
    const xs = placedXs(m.history, m.markers, xAxis, kl, smoothing);
    return m.markers.map((mk, i) => ({
      ...mk,
      colour: m.colour,
      runLabel: m.runLabel,
      x: xs[i],
      key: `${m.runId}-${i}`,
    }));
  });
  // Whose change it was: the run's name, or how many runs made the same change at the same x.
  const owners = new Map<string, number>();
  for (const m of all) owners.set(`${m.x}\u0000${m.label}`, (owners.get(`${m.x}\u0000${m.label}`) ?? 0) + 1);
  const text = (m: (typeof all)[number]) => {
    const n = owners.get(`${m.x}\u0000${m.label}`) ?? 1;
    return `${m.label} · ${n > 1 ? `${n} runs` : m.runLabel}`;
  };
  // A loop, not Math.min(...xs): an imported run may bring 100 000s of points or markers (too many arguments).
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const x of [...(extent ?? []), ...all.map((m) => m.x)])
    if (x !== undefined) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
  if (lo > hi) lo = hi = 0;
  const span = hi - lo;
  const px = (m: (typeof all)[number]) => text(m).length * MARKER_CHAR_PX + 8;
  // Labels run rightwards from their line unless they would be cut off at the right edge and the left has more
  // room; one that fits on neither side is not drawn (a cut label reads wrong: "· PPC" for "· PPO").
  const side = (m: (typeof all)[number]): { toLeft: boolean; fits: boolean } => {
    if (m.x === undefined) return { toLeft: false, fits: false };
    const share = span > 0 ? (m.x - lo) / span : 0;
    if (plotPx <= 0) return { toLeft: share > RIGHT_EDGE, fits: true };
    const left = share * plotPx;
    const right = plotPx - left;
    const toLeft = right < px(m) && left > right;
    return { toLeft, fits: px(m) <= (toLeft ? left : right) };
  };
  const sides = all.map(side);
  // Stack labels that would touch: each needs its own width (as a share of the plot) free on its side.
  const labelRows = markerRows(
    all.map((m, i) => ({
      x: sides[i].fits ? m.x : undefined,
      label: m.label,
      toLeft: sides[i].toLeft,
      width: plotPx > 0 ? Math.min(1, px(m) / plotPx) : undefined,
    })),
    span,
    undefined,
    maxRows,
  );
  // Lines at one x: the i-th of n colours there draws every n-th dash (a run's second change at the same x is
  // drawn over its first, in the same dashes: MarkerLayer draws one line per colour and pixel).
  const colours = new Map<number, string[]>();
  const nth = all.map((m) => {
    if (m.x === undefined) return 0;
    const at = colours.get(m.x) ?? [];
    colours.set(m.x, at);
    if (!at.includes(m.colour)) at.push(m.colour);
    return at.indexOf(m.colour);
  });
  return all.map((m, i) => {
    const n = m.x === undefined ? 1 : (colours.get(m.x)?.length ?? 1);
    return {
      ...m,
      row: labelRows[i],
      toLeft: sides[i].toLeft,
      text: text(m),
      dash: `${DASH} ${(DASH + GAP) * n - DASH}`,
      dashOffset: nth[i] ? -(DASH + GAP) * nth[i] : 0,
    };
  });
}
