/**
 * The pair view of a DPO step: for each preference pair the sequence log-probs the loss used (policy and
 * reference), the implicit rewards, margin, σ(margin) and the pair's loss — all from math/dpo.ts
 * dpoLossAndGrad on those log-probs (the CPU twin of the dpo_loss kernel), so the numbers are the loss's own.
 */
import { type DpoOptions, dpoLossAndGrad, type PreferenceLogps } from "../../algorithms/math/dpo";
import { sigmoid } from "../../algorithms/math/numerics";
import type { PreferencePair } from "../../algorithms/pairs";
import { completionString, type TokenText } from "./text";
import { type InspectPair, PAIR_ROWS, type PairsInspect } from "./types";

export interface PairInspectInput {
  step: number;
  algo: string;
  pairs: readonly PreferencePair[];
  logps: PreferenceLogps;
  /** The loss options the step used. */
  options: Required<DpoOptions>;
  /** Pair b's label was flipped by the simulated annotator (absent: none known). */
  flipped?: readonly boolean[];
}

/**
 * The first `limit` pairs with their numbers.
 * @throws RangeError as dpoLossAndGrad (missing or malformed log-probs, an infinite loss), or when the pairs
 *   and log-probs differ in count.
 */
export function pairInspect(x: PairInspectInput, text: TokenText, limit = PAIR_ROWS): PairsInspect {
  const B = x.pairs.length;
  if (x.logps.chosenLogps.length !== B)
    throw new RangeError(`${B} pairs but ${x.logps.chosenLogps.length} chosen log-probs`);
  const d = dpoLossAndGrad(x.logps, x.options);
  const { logps } = x;
  const len = (l: PreferenceLogps["chosenLengths"], b: number, y: readonly number[]) => (l ? l[b] : y.length);
  const pairs: InspectPair[] = [];
  for (let b = 0; b < Math.min(limit, B); b++) {
    const p = x.pairs[b];
    const margin = d.rewardsChosen[b] - d.rewardsRejected[b];
    pairs.push({
      prompt: text.prompt(p.prompt),
      chosen: {
        text: completionString(p.chosen, text),
        length: len(logps.chosenLengths, b, p.chosen),
        logp: logps.chosenLogps[b],
        logpRef: logps.refChosenLogps ? logps.refChosenLogps[b] : null,
        reward: d.rewardsChosen[b],
      },
      rejected: {
        text: completionString(p.rejected, text),
        length: len(logps.rejectedLengths, b, p.rejected),
        logp: logps.rejectedLogps[b],
        logpRef: logps.refRejectedLogps ? logps.refRejectedLogps[b] : null,
        reward: d.rewardsRejected[b],
      },
      margin,
      prob: sigmoid(margin),
      loss: d.losses[b],
      flipped: x.flipped?.[b] ?? false,
    });
  }
  return { kind: "pairs", step: x.step, algo: x.algo, ...x.options, pairs, totalPairs: B };
}
