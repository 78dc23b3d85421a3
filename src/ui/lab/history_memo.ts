/**
 * Reading a run's metric history without walking all of it on every redraw. A history only grows between
 * rewinds, and its points are immutable objects shared by every later copy of it (apply_updates.ts appends; a
 * rewind keeps a prefix; a fork starts with its source's points). So a fact about the points up to one point
 * object is the same in every history that holds that object: it is computed once and remembered per point.
 * With 12 runs of 1,400 steps, scanning each history per chart and redraw cost the page ~10 % of its main thread.
 */
import type { MetricPoint } from "../../lab/protocol";
import { GOLD, REWARD } from "./metric_info";

/**
 * The index of the first point whose step is ≥ `step`, or `history.length` if none: a binary search (steps
 * increase along a history).
 */
export function firstAtOrAfter(history: readonly MetricPoint[], step: number): number {
  let lo = 0;
  let hi = history.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (history[mid].step < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A fold over a history's points, remembered per point in `memo`: `add(state, point)` returns the state after the
 * point (the same object when nothing changed; never mutate a state). Walks back from the last point to the last
 * one already folded, then forward: O(new points) as a history grows. Folds the first `end` points (default all);
 * returns `empty` for none.
 */
export function foldHistory<S>(
  history: readonly MetricPoint[],
  memo: WeakMap<MetricPoint, S>,
  empty: S,
  add: (state: S, p: MetricPoint) => S,
  end = history.length,
): S {
  let i = end;
  while (i > 0 && !memo.has(history[i - 1])) i--;
  let state = i > 0 ? (memo.get(history[i - 1]) as S) : empty;
  for (; i < end; i++) {
    state = add(state, history[i]);
    memo.set(history[i], state);
  }
  return state;
}

const NONE: ReadonlySet<string> = new Set();
const reported = new WeakMap<MetricPoint, ReadonlySet<string>>();

/** The metric names any point of `history` reports (a run's diagnostics charts: MoreMetrics.tsx). */
export function reportedMetrics(history: readonly MetricPoint[]): ReadonlySet<string> {
  return foldHistory(history, reported, NONE, (keys, p) => {
    const names = Object.keys(p.metrics);
    return names.every((k) => keys.has(k)) ? keys : new Set([...keys, ...names]);
  });
}

const differs = new WeakMap<MetricPoint, boolean>();

/** Whether a run's reward ever differed from its gold score at a point of `history` (visible_runs.ts goldDiffers). */
export function rewardEverNotGold(history: readonly MetricPoint[]): boolean {
  return foldHistory(history, differs, false, (d, p) => d || p.metrics[REWARD.key] !== p.metrics[GOLD.key]);
}
