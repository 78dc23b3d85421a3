/**
 * The KL chart's note on k1 below zero. k1 = Σ_t log π/π_ref over a completion's sampled tokens is an unbiased
 * estimate of KL(π ‖ π_ref) (Schulman 2020, "Approximating KL divergence"), but one batch's mean can come out
 * negative, which a student reads as a bug; the chart says how often it happened and why.
 */
import type { MetricPoint } from "../../lab/protocol";
import type { ChartLine } from "./chart_types";
import { firstAtOrAfter, foldHistory } from "./history_memo";

/** The metric k1 is logged under (TRL's objective/kl). */
export const K1_KEY = "objective/kl";

export interface BelowZero {
  /** Drawn points (batches: each run's steps from its `from` on) whose value is below 0. */
  negative: number;
  /** Drawn points with a finite value. */
  total: number;
}

/** How many of the lines' drawn points of `metric` are below 0 (a fork's points before its `from` are its source's). */
export function belowZero(lines: readonly ChartLine[], metric: string): BelowZero {
  let memo = counted.get(metric);
  if (!memo) counted.set(metric, (memo = new WeakMap()));
  const count = (b: BelowZero, p: MetricPoint): BelowZero => {
    const v = p.metrics[metric];
    if (v === undefined || !Number.isFinite(v)) return b;
    return { negative: b.negative + (v < 0 ? 1 : 0), total: b.total + 1 };
  };
  let negative = 0;
  let total = 0;
  for (const { history, from = 0 } of lines) {
    // The points after `from`: the counts over the whole history less those up to `from` (steps increase).
    let start = firstAtOrAfter(history, from);
    while (start < history.length && history[start].step <= from) start++;
    const all = foldHistory(history, memo, NONE, count);
    const before = foldHistory(history, memo, NONE, count, start);
    negative += all.negative - before.negative;
    total += all.total - before.total;
  }
  return { negative, total };
}

const NONE: BelowZero = { negative: 0, total: 0 };
/** Each point's counts up to it, per metric (history_memo.ts): a redraw counts only the new points. */
const counted = new Map<string, WeakMap<MetricPoint, BelowZero>>();

/** The note's text (short: it sits beside the estimator menu), or null when no drawn k1 value is below 0. */
export function k1Note({ negative, total }: BelowZero): string | null {
  if (negative === 0) return null;
  return `${negative}/${total} batch${total > 1 ? "es" : ""} < 0`;
}

/** The note's tooltip: why a KL estimate can be negative, and where to look instead. */
export const K1_NOTE_DOC =
  "Batches whose k1 came out below 0: sampling noise, not a bug. k1 sums log π/π_ref over each completion's sampled tokens (then averages over the batch): right on average (unbiased), but one batch can come out below 0 although a KL never is. k3 (≥ 0 per token) and the exact KL (the whole vocabulary at each position) cannot. Counted over every run on the chart, each step of each run one batch. The lesson “KL estimators k1, k2, k3” shows this.";

/**
 * The KL chart's note when the x-axis is this KL ("kl") or its root ("sqrt_kl"): the chart then plots the KL
 * against itself (the x value is read from the same estimator), a diagonal or a parabola. Null on other axes.
 */
export function klAxisNote(xAxis: string): string | null {
  return xAxis === "kl" || xAxis === "sqrt_kl" ? "x is this KL" : null;
}

/** The KL chart's note under the exact KL when best-of-n runs are shown (`algos`: theirs), else null. */
export function bonKlNote(kl: string, algos: readonly string[]): string | null {
  return kl === "objective/kl_exact" && algos.includes("bon")
    ? "best-of-n: no exact KL (estimate shown on the k-estimator charts)"
    : null;
}

/** The axis note's tooltip. */
export const KL_AXIS_DOC =
  "The x-axis is this chart's own KL (the same estimator), so each line lies on a diagonal (a parabola against √KL) and shows no more than where it reached. Switch the x-axis to step, samples or tokens to watch the KL grow over training; the reward chart is the one to read against KL.";
