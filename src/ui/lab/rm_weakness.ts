/**
 * Whether the Pipeline's reward model (stage 2) learned anything, in words for the RL stage: null when it
 * did. Two signs that it did not: its Bradley–Terry loss ended at ln 2 (the loss of equal scores, so its
 * scores hardly tell a pair apart), or its held-out agreement with the gold order is within what a coin gets
 * on that many pairs (≤ ½ + 1.96·½/√n, a one-sided 97.5 % bound).
 */
import type { PipelineStageResult } from "../../lab/pipeline/fields";

/** The last step's loss counts as "at ln 2" within this (nats). */
export const FLAT_LOSS = 0.005;

// A no-break space: "53 %" never splits across lines.
const pct = (x: number) => `${Math.round(100 * x)}\u00a0%`;

export function rmWeakness(result: PipelineStageResult | null | undefined): string | null {
  const after = result?.evalAfter;
  if (!result || !after) return null;
  const coin = 0.5 + (1.96 * 0.5) / Math.sqrt(Math.max(1, after.pairs));
  const gold = after.goldAccuracy;
  const agree = Number.isFinite(gold)
    ? `agrees with the gold order on ${pct(gold)} of ${after.pairs} held-out pairs`
    : "";
  if (Number.isFinite(gold) && gold <= coin)
    return `Its reward model ${agree}, within what guessing gets on that many (a coin flip scores up to ${pct(coin)} there, 97.5\u00a0% of the time).`;
  if (result.lastLoss >= Math.LN2 - FLAT_LOSS)
    return (
      `Its reward model's Bradley–Terry loss ended at ${result.lastLoss.toFixed(3)} nats, the ln 2 ≈ 0.693 of equal ` +
      `scores: it hardly tells a pair apart${agree ? ` (it ${agree})` : ""}.`
    );
  return null;
}
