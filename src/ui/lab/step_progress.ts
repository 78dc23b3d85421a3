/**
 * A run card's line on the step in flight (RunUpdate.progress): which stage of the step it is in and how far,
 * for a step slow enough to be worth watching (a software GPU can take minutes over one).
 */
import type { StepProgress } from "../../lab/protocol";

/**
 * "sampling 16/48 tokens", "scoring", "greedy baseline 8/48 tokens", "update 2/4" (the update running now,
 * 1-based), or "updating" for a step with a single update.
 */
export function progressText(p: StepProgress): string {
  if (p.stage === "sampling") return `sampling ${p.done}/${p.total} tokens`;
  if (p.stage === "scoring") return "scoring";
  if (p.stage === "baseline") return `greedy baseline ${p.done}/${p.total} tokens`;
  return p.total > 1 ? `update ${Math.min(p.done + 1, p.total)}/${p.total}` : "updating";
}

/** How far through its stage, in [0, 1]; null where there is nothing to count (scoring, a single update). */
export function progressFraction(p: StepProgress): number | null {
  if (p.total <= 0 || (p.stage === "update" && p.total === 1)) return null;
  return Math.min(1, Math.max(0, p.done / p.total));
}

/** How long a step has run: "4 s", "59 s", "1 min 05 s", "12 min 00 s" (whole seconds, rounded down). */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** A duration to come: elapsedText under an hour, "2 h 05 min" from an hour on. */
export function durationText(ms: number): string {
  if (ms < 3_600_000) return elapsedText(ms);
  const min = Math.round(ms / 60_000);
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
}

/** What a step of this kind does, for the line's tooltip. */
export const STAGE_HINT: Record<StepProgress["stage"], string> = {
  sampling:
    "Sampling the completions, token by token (the count is the tokens the GPU has finished); offline DPO samples too, for its reward and KL charts",
  scoring:
    "Scoring the completions (reward and gold scorers) and measuring them under the policy and the reference",
  baseline:
    "ReMax's baseline: the policy's greedy (argmax) answer to each prompt, token by token, then its score",
  update:
    "Training on the batch: the optimiser steps of this step (μ iterations, or PPO's epochs × minibatches)",
};
