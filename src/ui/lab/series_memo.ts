/**
 * A chart line's points, remembered between redraws in typed columns, and the few of them a chart draws.
 * A line keeps every point of its run (a redraw computes only the points appended since), but as four Float64
 * columns — 32 bytes a point, where an object per point cost ~100 — and a chart draws at most a few hundred
 * of them: {@link drawnPoints} makes objects for those alone. With 12 runs of 6,000 steps and a dozen lines each,
 * point objects held ~90 MB of the page's heap.
 */
import type { MetricPoint } from "../../lab/protocol";
import type { KlEstimator, XAxis } from "../lab_store";
import { Ema, klX, type PlotPoint, smoothsX, xOf } from "./series";

/**
 * A line's points from its run's first step: step, x, raw value and smoothed value, `length` of them, and the
 * smoothed line's x (`sx`) where it differs from x (series.ts smoothsX; null elsewhere: x serves).
 */
export class PointColumns {
  step = new Float64Array(64);
  x = new Float64Array(64);
  raw = new Float64Array(64);
  smooth = new Float64Array(64);
  sx: Float64Array | null;
  length = 0;
  /** The indices of the least and greatest raw value so far (-1 while empty): kept as points come, so a redraw
   * does not scan the line again for them (drawnPoints). */
  lo = -1;
  hi = -1;

  constructor(withSx = false) {
    this.sx = withSx ? new Float64Array(64) : null;
  }

  push(step: number, x: number, raw: number, smooth: number, sx = x): void {
    if (this.length === this.step.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.step = grow(this.step);
      this.x = grow(this.x);
      this.raw = grow(this.raw);
      this.smooth = grow(this.smooth);
      if (this.sx) this.sx = grow(this.sx);
    }
    const i = this.length++;
    if (this.lo < 0 || raw < this.raw[this.lo]) this.lo = i;
    if (this.hi < 0 || raw > this.raw[this.hi]) this.hi = i;
    this.step[i] = step;
    this.x[i] = x;
    this.raw[i] = raw;
    this.smooth[i] = smooth;
    if (this.sx) this.sx[i] = sx;
  }

  /** The point at index i as an object (0 ≤ i < length). */
  at(i: number): PlotPoint {
    const x = this.x[i];
    return { step: this.step[i], x, raw: this.raw[i], smooth: this.smooth[i], sx: this.sx ? this.sx[i] : x };
  }

  /** The index of the first point at or after `step` (steps increase along a line). */
  firstAtOrAfter(step: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.step[mid] < step) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** What {@link extendSeries} remembers of one line between redraws (owned by one chart; mutated in place). */
export interface SeriesMemo {
  /** metric, axis, KL estimator and smoothing the points were computed with. */
  params: string;
  /** History points folded in, and the last of them (a later history holding it at n − 1 extends this one). */
  n: number;
  last: MetricPoint | undefined;
  /** Every kept point from step 0, smoothed. */
  points: PointColumns;
  /** The metric's EMA, and the KL's where the smoothed line's x is smoothed too (series.ts smoothsX). */
  ema: Ema;
  emaX: Ema | undefined;
}

/**
 * series.ts metricSeries, remembered: given the memo of the last call for the same line, only the points appended
 * since are computed (a history only grows between rewinds; a rewound, replaced or re-parameterised one is
 * computed afresh). Returns the memo to pass next time and `start`, the index of the first of its points at or
 * after step `from` (a fork's line starts there). The memo's points from `start` equal metricSeries on the same
 * arguments.
 */
export function extendSeries(
  memo: SeriesMemo | undefined,
  history: readonly MetricPoint[],
  metric: string,
  axis: XAxis,
  kl: KlEstimator,
  smoothing: number,
  from = 0,
): { memo: SeriesMemo; start: number } {
  const params = `${metric}\u0000${axis}\u0000${kl}\u0000${smoothing}`;
  const fits =
    memo !== undefined &&
    memo.params === params &&
    memo.n <= history.length &&
    (memo.n === 0 || history[memo.n - 1] === memo.last);
  const withSx = smoothsX(axis, smoothing);
  const m: SeriesMemo = fits
    ? memo
    : {
        params,
        n: 0,
        last: undefined,
        points: new PointColumns(withSx),
        ema: new Ema(smoothing),
        emaX: withSx ? new Ema(smoothing) : undefined,
      };
  for (let i = m.n; i < history.length; i++) {
    const p = history[i];
    const x = xOf(p, axis, kl);
    if (x === undefined || !Number.isFinite(x)) continue;
    // As metricSeries: the KL's EMA runs over every point with a KL, with or without the metric.
    const sx = m.emaX ? klX(axis, m.emaX.push(p.metrics[kl] ?? 0)) : x;
    const raw = p.metrics[metric];
    if (raw === undefined) continue;
    m.points.push(p.step, x, raw, m.ema.push(raw), sx);
  }
  m.n = history.length;
  m.last = history.at(-1);
  return { memo: m, start: from > 0 ? m.points.firstAtOrAfter(from) : 0 };
}

/** Every point of `points` from index `start`, as objects (tests and small lines). */
export function pointsFrom(points: PointColumns, start = 0): PlotPoint[] {
  const out: PlotPoint[] = [];
  for (let i = start; i < points.length; i++) out.push(points.at(i));
  return out;
}

/**
 * The indices in [start, end) a chart draws: all of them when there are at most `max`, otherwise `max` of them
 * evenly strided, the first and the last kept (what the eye reads), and, given the line's `values`, the indices
 * of its least and greatest value in the range (a lone spike between two strided steps would vanish from the
 * line, the y-range, the hover card and the plotted-values table's lowest and highest). Runs trained in step
 * share their strided steps, so the hover card's snapping points (recharts' tooltip ticks: every line's x
 * values) stay about `max` on the step axes: at most two more a line.
 */
export function drawnIndices(
  start: number,
  end: number,
  max: number,
  values?: ArrayLike<number>,
  /** The indices of the least and greatest of `values` in [start, end), when the caller knows them (no scan). */
  known?: readonly [number, number],
): number[] {
  const n = end - start;
  if (n <= 0) return [];
  if (n <= max) return Array.from({ length: n }, (_, i) => start + i);
  if (max < 2) return [start];
  const stride = (n - 1) / (max - 1);
  const strided = Array.from({ length: max }, (_, i) => start + Math.round(i * stride));
  if (!values) return strided;
  let [lo, hi] = known ?? [start, start];
  if (!known)
    for (let i = start + 1; i < end; i++) {
      if (values[i] < values[lo]) lo = i;
      if (values[i] > values[hi]) hi = i;
    }
  return [...new Set([...strided, lo, hi])].sort((a, b) => a - b);
}

/**
 * The points a chart draws of a line from index `start` (see {@link drawnIndices}: strided, with the raw
 * values' least and greatest), as objects.
 */
export function drawnPoints(points: PointColumns, start: number, max: number): PlotPoint[] {
  // The line's own extremes serve when they lie in the drawn stretch (always from its first point; a fork's line
  // from its fork point scans when one lies before it).
  const known = points.lo >= start && points.hi >= start ? ([points.lo, points.hi] as const) : undefined;
  return drawnIndices(start, points.length, max, points.raw, known).map((i) => points.at(i));
}
