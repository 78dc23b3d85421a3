/**
 * The KL chart's note on k1 below zero. k1 = Σ_t log π/π_ref over a completion's sampled tokens is an unbiased
 * estimate of KL(π ‖ π_ref) (Schulman 2020, "Approximating KL divergence"), but one batch's mean can come out
 * negative, which a student reads as a bug; the chart says how often it happened and why.
 */
import type { ChartLine } from "./chart_types";

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
  let negative = 0;
  let total = 0;
  for (const line of lines)
    for (const p of line.history) {
      if (p.step <= (line.from ?? 0)) continue;
      const v = p.metrics[metric];
      if (v === undefined || !Number.isFinite(v)) continue;
      total++;
      if (v < 0) negative++;
    }
  return { negative, total };
}

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

/** The axis note's tooltip. */
export const KL_AXIS_DOC =
  "The x-axis is this chart's own KL (the same estimator), so each line lies on a diagonal (a parabola against √KL) and shows no more than where it reached. Switch the x-axis to step, samples or tokens to watch the KL grow over training; the reward chart is the one to read against KL.";
