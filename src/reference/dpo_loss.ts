/**
 * CPU twin of src/shaders/dpo_loss.wgsl: a thin adapter that runs src/algorithms/math/dpo.ts dpoLossAndGrad
 * (the source of truth for the whole DPO family) one pair at a time, to give the per-pair rows the kernel
 * writes; a pair the math rejects (RangeError: NaN or +∞ log-prob, a length < 1, an infinite or undefined
 * loss) is the kernel's `invalid` pair.
 *
 * Layout (TRL's concatenated batch): per-sequence arrays [2B], chosen completions at 0..B−1 and rejected at
 * B..2B−1, so that a [2B, T] token batch reduces to them with sequenceLogprob. terms [DPO_TERMS.length, B].
 * Source: ../shared/docs/algorithms.md, "DPO family".
 */
import { type DpoLossType, type DpoOptions, dpoLossAndGrad } from "../algorithms/math/dpo";

/**
 * The per-pair rows the kernel writes (and reduceRows sums), in order:
 * - `loss`: the pair's loss (its sum / B is the batch loss);
 * - `rewards_chosen`, `rewards_rejected`: β·(log-ratio of the chosen / rejected completion; per-token
 *   averages for ipo, β·logπ_θ/|y| for simpo);
 * - `accuracy`: [chosen reward > rejected reward];
 * - `logps_chosen`, `logps_rejected`: the policy log-probs the loss used (sums; per-token averages for ipo
 *   and simpo);
 * - `invalid`: 1 for a pair the math rejects; every other row and both gradients are then 0.
 * The order is written twice, here and as the T_* constants of dpo_loss.wgsl; the tests check both.
 */
export const DPO_TERMS = [
  "loss",
  "rewards_chosen",
  "rewards_rejected",
  "accuracy",
  "logps_chosen",
  "logps_rejected",
  "invalid",
] as const;

/** The loss types in the order of dpo_loss.wgsl's LOSS override constant. */
export const DPO_LOSS_TYPES: readonly DpoLossType[] = ["sigmoid", "hinge", "ipo", "simpo"];

/** Per-sequence inputs [2B] (chosen then rejected). */
export interface DpoLossRefInputs {
  /** logπ_θ(y|x), sums over counted tokens. */
  logps: ArrayLike<number>;
  /** logπ_ref(y|x); null for simpo. */
  refLogps: ArrayLike<number> | null;
  /** |y| (counted tokens); null unless ipo or simpo. */
  lengths: ArrayLike<number> | null;
}

/**
 * grad [2B] = dL/dlogπ_θ(y) with L the mean over the B pairs (so each pair's gradient carries 1/B), and terms
 * [DPO_TERMS.length, B] (float64). Options as dpoLossAndGrad (its defaults and checks; an invalid option
 * throws, as there).
 */
export function dpoLossRef(
  x: DpoLossRefInputs,
  opts: DpoOptions,
): { grad: Float64Array; terms: Float64Array } {
  const B = x.logps.length / 2;
  const grad = new Float64Array(2 * B);
  const terms = new Float64Array(DPO_TERMS.length * B);
  const row = (name: (typeof DPO_TERMS)[number]) => DPO_TERMS.indexOf(name) * B;
  for (let i = 0; i < B; i++) {
    const pair = (a: ArrayLike<number> | null, k: number) => (a ? [a[k]] : null);
    let r: ReturnType<typeof dpoLossAndGrad>;
    try {
      r = dpoLossAndGrad(
        {
          chosenLogps: [x.logps[i]],
          rejectedLogps: [x.logps[B + i]],
          refChosenLogps: pair(x.refLogps, i),
          refRejectedLogps: pair(x.refLogps, B + i),
          chosenLengths: pair(x.lengths, i),
          rejectedLengths: pair(x.lengths, B + i),
        },
        opts,
      );
    } catch (e) {
      if (
        !(e instanceof RangeError) ||
        !/^pair 0:|must be a (log-probability|positive integer)/.test(e.message)
      )
        throw e; // an option error, not a bad pair
      terms[row("invalid") + i] = 1;
      continue;
    }
    grad[i] = r.dChosenLogps[0] / B;
    grad[B + i] = r.dRejectedLogps[0] / B;
    const m = r.metrics;
    terms[row("loss") + i] = r.loss;
    terms[row("rewards_chosen") + i] = m["rewards/chosen"];
    terms[row("rewards_rejected") + i] = m["rewards/rejected"];
    terms[row("accuracy") + i] = m["rewards/accuracies"];
    terms[row("logps_chosen") + i] = m["logps/chosen"];
    terms[row("logps_rejected") + i] = m["logps/rejected"];
  }
  return { grad, terms };
}
