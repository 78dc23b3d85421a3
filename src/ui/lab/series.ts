/**
 * Chart data from run histories, with no React: the x value of a point (step, samples, tokens, KL or √KL), the
 * TensorBoard-style EMA smoothing, decimation for long runs, the rows recharts plots (one row per x value,
 * one column per run series) and where a settings marker falls on the chosen x axis.
 */
import type { Marker, MetricPoint } from "../../lab/protocol";
import type { KlEstimator, XAxis } from "../lab_store";
import { firstAtOrAfter } from "./history_memo";

/**
 * One plotted point: its step, x, the raw metric and the smoothed one, and `sx`, the x of the smoothed line —
 * x itself, except on the KL axes with smoothing on ({@link smoothsX}).
 */
export interface PlotPoint {
  step: number;
  x: number;
  raw: number;
  smooth: number;
  sx: number;
}

/**
 * Whether the smoothed line's x is smoothed too: on the KL and √KL axes with smoothing on. A batch's KL estimate
 * is noisy (k1's can be < 0) and goes up and down between steps, so a line through the raw x values runs back
 * and forth; the smoothed line follows the EMA of the KL, with the EMA of the metric (Gao et al. 2022 plot
 * against the policy's KL, not a batch's estimate). On the step, samples and tokens axes x is exact.
 */
export function smoothsX(axis: XAxis, smoothing: number): boolean {
  return (axis === "kl" || axis === "sqrt_kl") && smoothing > 0;
}

/** A KL value on the KL axes: itself, or its square root on √KL (a negative k1 estimate counts as 0 there). */
export function klX(axis: XAxis, kl: number): number {
  return axis === "sqrt_kl" ? Math.sqrt(Math.max(0, kl)) : kl;
}

/** The x value of a point, or undefined when the point lacks it (e.g. no KL metric). */
export function xOf(p: MetricPoint, axis: XAxis, kl: KlEstimator): number | undefined {
  switch (axis) {
    case "step":
      return p.step;
    case "samples":
      return p.samples;
    case "tokens":
      return p.tokens;
    case "kl":
    case "sqrt_kl": {
      // √KL as Gao et al. (2022) plot it.
      const v = p.metrics[kl];
      return v === undefined ? undefined : klX(axis, v);
    }
  }
}

/**
 * Exponential moving average with TensorBoard's debiasing, fed one value at a time: s_t = w·s_{t−1} + (1 − w)·y_t,
 * divided by 1 − w^n so the first points are not pulled toward 0. `weight` is clamped to [0, 0.999]; at 0 a value
 * comes back as it is. Non-finite values come back unsmoothed and do not enter the average.
 */
export class Ema {
  private readonly w: number;
  private sum = 0;
  private n = 0;

  constructor(weight: number) {
    this.w = Math.min(Math.max(weight, 0), 0.999);
  }

  /** Folds y in; returns the smoothed value at y. */
  push(y: number): number {
    if (!Number.isFinite(y)) return y;
    this.sum = this.sum * this.w + (1 - this.w) * y;
    this.n++;
    return this.w === 0 ? y : this.sum / (1 - this.w ** this.n);
  }
}

/** {@link Ema} over a whole array (weight 0 returns the input's values). */
export function emaSmooth(ys: readonly number[], weight: number): number[] {
  const ema = new Ema(weight);
  return ys.map((y) => ema.push(y));
}

/**
 * The points of one metric of one run on the chosen axis, smoothed; points without the metric or x are skipped,
 * and so are the steps before `from` (a fork's copy of its source's history). The smoothing runs over the whole
 * history, so a line drawn from `from` starts at the smoothed value its source has there.
 */
export function metricSeries(
  history: readonly MetricPoint[],
  metric: string,
  axis: XAxis,
  kl: KlEstimator,
  smoothing: number,
  from = 0,
): PlotPoint[] {
  const xs = smoothsX(axis, smoothing) ? new Ema(smoothing) : undefined;
  const ys = new Ema(smoothing);
  const out: PlotPoint[] = [];
  for (const p of history) {
    const x = xOf(p, axis, kl);
    if (x === undefined || !Number.isFinite(x)) continue;
    // The KL's EMA runs over every point with a KL, with or without this metric: a step's x is the same on
    // every chart of the run.
    const sx = xs ? klX(axis, xs.push(p.metrics[kl] ?? 0)) : x;
    const raw = p.metrics[metric];
    if (raw === undefined) continue;
    out.push({ step: p.step, x, raw, smooth: ys.push(raw), sx });
  }
  return from > 0 ? out.filter((p) => p.step >= from) : out;
}

/**
 * Where a marker goes on the chosen axis: the x of the first point at or after the marker's step. Before that
 * step is trained, the step itself on the step axis, the last x otherwise (the change is pending).
 */
export function markerX(
  history: readonly MetricPoint[],
  marker: Marker,
  axis: XAxis,
  kl: KlEstimator,
): number | undefined {
  const at = history[firstAtOrAfter(history, marker.step)];
  if (at) return xOf(at, axis, kl);
  if (axis === "step") return marker.step;
  const last = history.at(-1);
  return last ? xOf(last, axis, kl) : undefined;
}

/**
 * {@link markerX} for each of a run's markers, on the smoothed line: where {@link smoothsX}, the smoothed KL at the
 * marker's point (as metricSeries' `sx`; one pass over the history for all of them), so a marker sits where the
 * drawn line is at its step.
 */
export function markerXs(
  history: readonly MetricPoint[],
  markers: readonly Marker[],
  axis: XAxis,
  kl: KlEstimator,
  smoothing = 0,
): (number | undefined)[] {
  if (!smoothsX(axis, smoothing)) return markers.map((m) => markerX(history, m, axis, kl));
  // A marker past the last point (pending) takes the last point's x.
  const at = markers.map((m) => Math.min(firstAtOrAfter(history, m.step), history.length - 1));
  const wanted = new Set(at);
  let end = -1;
  for (const i of at) end = Math.max(end, i);
  const ema = new Ema(smoothing);
  const found = new Map<number, number>();
  for (let i = 0; i <= end; i++) {
    const x = xOf(history[i], axis, kl);
    // A point without a KL has no x (as unsmoothed: markerX), and leaves the EMA as it was.
    if (x === undefined || !Number.isFinite(x)) continue;
    const sx = klX(axis, ema.push(history[i].metrics[kl] ?? 0));
    if (wanted.has(i)) found.set(i, sx);
  }
  return at.map((i) => found.get(i));
}

/** Where a point is drawn on x: its smoothed line's x (`sx`) when the smoothed line is the one drawn, else x. */
export function drawnX(p: PlotPoint, smoothed: boolean): number {
  return smoothed ? p.sx : p.x;
}

/**
 * The point of a series nearest to x as drawn ({@link drawnX}; for the hover card), or undefined for an empty
 * series. On a KL axis a line can pass an x more than once: the earliest such point wins.
 */
export function nearest(points: readonly PlotPoint[], x: number, smoothed = false): PlotPoint | undefined {
  let best: PlotPoint | undefined;
  let gap = Number.POSITIVE_INFINITY;
  for (const p of points) {
    const d = Math.abs(drawnX(p, smoothed) - x);
    if (d < gap) {
      best = p;
      gap = d;
    }
  }
  return best;
}

/** The least and greatest x drawn of a chart's lines (the faint raw lines' too), or undefined without points. */
export function xExtent(
  series: readonly { points: readonly PlotPoint[] }[],
  smoothed: boolean,
): readonly [number, number] | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of series)
    for (const p of s.points)
      for (const x of [p.x, drawnX(p, smoothed)]) {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
  return lo <= hi ? [lo, hi] : undefined;
}

/**
 * Whether a line spans `x` (its points' x from least to greatest, the faint raw line's and the smoothed one's):
 * a hover card names only the lines that do, so a run that stopped at 80 samples is not listed at 160 with its
 * last value, as if it had one there.
 */
export function spans(points: readonly PlotPoint[], x: number, smoothed = false): boolean {
  const range = xExtent([{ points }], smoothed);
  return range !== undefined && x >= range[0] && x <= range[1];
}

/** A "nice" step for about `count` intervals over `span`: 1, 2, 2.5 or 5 × 10^k (no 2.5 when `integer`, ≥ 1). */
function niceStep(span: number, count: number, integer = false): number {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const steps = integer ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  for (const m of steps) if (m * mag >= raw) return integer ? Math.max(1, m * mag) : m * mag;
  return 10 * mag;
}

/**
 * Round tick values inside [lo, hi] (about `count` intervals), e.g. steps 1…48 → 10, 20, 30, 40; `integer` for
 * axes that count (steps, samples, tokens). At least two ticks whenever a finer round step allows it (steps
 * 1…32 at 3 → 10, 20, 30, not 20 alone). An empty or one-point range gives its one value, and so does a range
 * narrower than 1e-12 of its values (x values equal but for rounding).
 */
export function niceTicksWithin(lo: number, hi: number, count = 5, integer = false): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  // A range only rounding wide (best-of-n runs at one KL budget: the same estimate up to its last bits) is one
  // value: a step below lo's precision never moved `v` on (v += step), and the loop filled memory, crashing the page.
  if (!(hi - lo > 1e-12 * Math.max(1, Math.abs(lo), Math.abs(hi)))) return [lo];
  // A round step can leave one tick inside (steps 1…32 at 3 intervals: step 20 → only 20): ask for finer ticks
  // until two fit, so an axis always shows its scale (at most a few tries: a step of 1 on an integer axis always fits).
  let ticks: number[] = [];
  for (let n = count; n <= 4 * count && ticks.length < 2; n++) {
    const step = niceStep(hi - lo, n, integer);
    ticks = [];
    const first = Math.ceil(lo / step - 1e-9);
    for (let k = first; k * step <= hi + step * 1e-9; k++) ticks.push(Number((k * step).toPrecision(12)));
  }
  return ticks;
}

/**
 * A y domain with round ticks covering every finite value (about `count` intervals). A flat series (all
 * values equal) gets a band of ±10 % around its value so the axis still reads (all zeros: [0, 1], as a fraction or
 * a KL at the start cannot go negative); no values gives [0, 1].
 */
export function niceDomain(
  values: readonly number[],
  count = 4,
): { domain: [number, number]; ticks: number[] } {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values)
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (lo > hi) [lo, hi] = [0, 1];
  if (hi - lo <= 1e-12 * Math.max(1, Math.abs(hi))) {
    if (hi === 0) {
      // All zero (no clipping yet, a KL at the start): most such metrics cannot go negative.
      hi = 1;
    } else {
      const pad = Math.abs(hi) * 0.1;
      lo -= pad;
      hi += pad;
    }
  }
  const step = niceStep(hi - lo, count);
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step * 1e-9; i++)
    ticks.push(Number((start + i * step).toPrecision(12)));
  return { domain: [ticks[0], ticks.at(-1) ?? end], ticks };
}

/**
 * The y-axis of lines' points (raw and smoothed): {@link niceDomain} of them, with values below `floor` (if
 * given) counted as `offScale` (raw points only) and left out of the range, so early outliers do not flatten
 * the rest (explained variance at −400 over values near 0).
 */
export function yAxisOf(
  series: readonly { points: readonly Pick<PlotPoint, "raw" | "smooth">[] }[],
  floor?: number,
): { domain: [number, number]; ticks: number[]; offScale: number } {
  const values = series.flatMap((s) => s.points.flatMap((p) => [p.raw, p.smooth]));
  const shown = floor === undefined ? values : values.map((v) => Math.max(v, floor));
  const offScale =
    floor === undefined ? 0 : series.reduce((n, s) => n + s.points.filter((p) => p.raw < floor).length, 0);
  return { ...niceDomain(shown), offScale };
}

/**
 * Label rows for settings markers so their labels do not overlap. Each label covers `width` × the x span
 * (default `minGap`) from its line: rightwards, or leftwards when `toLeft` (labels near the right edge). Markers,
 * in x order, go to the first row where their label overlaps no label already there. A marker with the same x
 * and label as one already placed (one change applied to several runs) gets −1: its line is drawn, its label is
 * not repeated. A label that fits in none of the `maxRows` rows gets −1 too (its line stays; the chart's hover
 * card names it): overlapping text would be unreadable. Returns one row per marker, in input order; markers
 * without an x get −1.
 */
export function markerRows(
  markers: readonly { x: number | undefined; label: string; toLeft?: boolean; width?: number }[],
  span: number,
  minGap = 0.15,
  maxRows = 4,
): number[] {
  const out = markers.map(() => -1);
  const order = markers
    .map((m, i) => ({ ...m, i }))
    .filter((m): m is typeof m & { x: number } => m.x !== undefined && Number.isFinite(m.x))
    .sort((a, b) => a.x - b.x || a.i - b.i);
  const taken: [number, number][][] = Array.from({ length: maxRows }, () => []);
  const seen = new Set<string>();
  const extent = Math.max(0, span);
  for (const m of order) {
    const id = `${m.x}\u0000${m.label}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const w = extent * (m.width ?? minGap);
    const [lo, hi] = m.toLeft ? [m.x - w, m.x] : [m.x, m.x + w];
    const row = taken.findIndex((spans) => spans.every(([a, b]) => hi <= a || lo >= b));
    if (row === -1) continue;
    taken[row].push([lo, hi]);
    out[m.i] = row;
  }
  return out;
}
