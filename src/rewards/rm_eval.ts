/**
 * Reward-model data and evaluation: preference records (src/tasks/preferences.ts) as token pairs, and the two
 * accuracies a reward model is judged by (Ouyang et al. 2022 report the first; AlpacaFarm-style simulated
 * labels make the second possible):
 * - label accuracy: share of pairs where score(chosen) > score(rejected), the annotator's (noisy) label;
 * - gold accuracy: share of non-tied pairs where the RM orders the two completions as the gold scorer does
 *   (the un-flipped preference). With a label-flip rate f, a perfect gold ranker has label accuracy ≈ 1 − f.
 */
import type { PreferenceRecord } from "../tasks/preferences";
import type { Tokenizer } from "../tokenizer/tokenizer";
import type { TokenPair } from "./rm_trainer";
import { rmSequenceFromText } from "./sources";

/** A labelled pair as token sequences `<bos> prompt completion [<eos>]`, with its gold order. */
export interface EncodedPair extends TokenPair {
  /** +1: the gold scorer prefers `chosen`; −1: it prefers `rejected` (a flipped label); 0: a gold tie. */
  gold: 1 | -1 | 0;
}

/**
 * Encode records; `split` keeps only that split. `sampledLength` is the limit the completions were sampled with
 * (the task's generation.maxNewTokens): a completion that filled it was cut and gets no EOS, as the lab scores
 * such a sample; null appends EOS to every completion (how the shipped arithmetic RM was trained).
 */
export function encodePreferencePairs(
  records: readonly PreferenceRecord[],
  tok: Tokenizer,
  sampledLength: number | null,
  split?: "train" | "eval",
): EncodedPair[] {
  return records
    .filter((r) => !split || r.split === split)
    .map((r) => ({
      chosen: rmSequenceFromText(tok, r.prompt, r.chosen, sampledLength),
      rejected: rmSequenceFromText(tok, r.prompt, r.rejected, sampledLength),
      gold: Math.sign(r.score_chosen - r.score_rejected) as 1 | -1 | 0,
    }));
}

export interface PairAccuracy {
  /** Pairs scored. */
  pairs: number;
  /** Share with score(chosen) > score(rejected) (ties wrong), in [0, 1]. */
  labelAccuracy: number;
  /** Non-tied pairs (gold ≠ 0) the gold accuracy is over. */
  goldPairs: number;
  /** Share of non-tied pairs ordered as the gold scorer orders them (equal scores wrong); NaN when none. */
  goldAccuracy: number;
  /** mean score(chosen) − score(rejected). */
  margin: number;
}

/**
 * Accuracies of a scorer on pairs: `score` gets all chosen then all rejected sequences in one call.
 * @throws RangeError on no pairs or a score array of the wrong length.
 */
export async function pairAccuracy(
  pairs: readonly EncodedPair[],
  score: (seqs: readonly (readonly number[])[]) => Promise<ArrayLike<number>>,
): Promise<PairAccuracy> {
  const n = pairs.length;
  if (!n) throw new RangeError("pairAccuracy: no pairs");
  const s = await score([...pairs.map((p) => p.chosen), ...pairs.map((p) => p.rejected)]);
  if (s.length !== 2 * n) throw new RangeError(`pairAccuracy: got ${s.length} scores for ${2 * n} sequences`);
  let label = 0;
  let gold = 0;
  let goldPairs = 0;
  let margin = 0;
  pairs.forEach((p, i) => {
    const d = s[i] - s[n + i];
    if (d > 0) label++;
    margin += d;
    if (p.gold !== 0) {
      goldPairs++;
      if (d * p.gold > 0) gold++;
    }
  });
  return {
    pairs: n,
    labelAccuracy: label / n,
    goldPairs,
    goldAccuracy: goldPairs ? gold / goldPairs : Number.NaN,
    margin: margin / n,
  };
}
