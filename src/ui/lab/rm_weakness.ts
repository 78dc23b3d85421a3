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

/**
 * What to do about a weak reward model (after {@link rmWeakness}'s sentence): `result` its stage's result,
 * `sftModel` the stage-1 model's description ("nano (2 layers, …)", describeConfig). A stage stopped early is
 * told to finish; a nano one that training longer seldom rescues is pointed at the shipped recipe; a tiny one
 * (the recipe's size) is told what the recipe reached.
 */
export function rmAdvice(
  result: PipelineStageResult | null | undefined,
  sftModel: string | undefined,
): string {
  const planned = result?.planned ?? result?.steps ?? 0;
  if (result && planned > result.steps)
    return `It was stopped at step ${result.steps} of ${planned}: train it to the end before judging it.`;
  if (sftModel?.startsWith("tiny"))
    return (
      "A reward model needs a stage 1 that has learnt the task and about a thousand steps or more: “Shipped " +
      "models' recipe” above (300 SFT steps of 64 sums, then 1,500 reward-model steps of 32 pairs) reached two " +
      "pairs in three on arithmetic; the shipped sentiment proxy reached only 58\u00a0%."
    );
  return (
    "Training longer at nano size seldom helps: a reward model needs a stage 1 that has learnt the task " +
    "(arithmetic pairs differ in a digit of the sum: it must have learnt to add). “Shipped models' recipe” " +
    "above trains both as the shipped ones were (1,200–1,500 reward-model steps of a tiny model): about a " +
    "minute on a GPU, hours on a CPU."
  );
}
