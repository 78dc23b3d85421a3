/**
 * CPU twin of src/shaders/bt_loss.wgsl: gathers each sequence's score at its last-token row, runs
 * src/algorithms/math/reward_model.ts bradleyTerryLossAndGrad (the source of truth) one pair at a time, and
 * scatters the gradient back. Layout (TRL's concatenated batch): index [2B], chosen rows at 0..B−1, rejected at
 * B..2B−1; rewards and drewards [n] (the reward head at every position of a [2B, T] batch, n = 2B·T).
 * Source: ../shared/docs/algorithms.md, "Reward model".
 */
import { bradleyTerryLossAndGrad } from "../algorithms/math/reward_model";

/**
 * The per-pair rows the kernel writes (and reduceRows sums), in order:
 * - `loss`: −log σ(r_w − r_l) + η(r_w + r_l)² (its sum / B is the batch loss);
 * - `accuracy`: [r_w > r_l] (ties wrong);
 * - `margin`: r_w − r_l;
 * - `rewards_chosen`, `rewards_rejected`: r_w, r_l;
 * - `invalid`: 1 for an index outside [0, n) or a non-finite score; every other row and both gradients are 0.
 * The order is written twice, here and as the T_* constants of bt_loss.wgsl; the tests check both.
 */
export const BT_TERMS = [
  "loss",
  "accuracy",
  "margin",
  "rewards_chosen",
  "rewards_rejected",
  "invalid",
] as const;

/**
 * drewards [n] (zero except at the 2B gathered rows) = dL/dreward with L the mean loss over the B pairs, and
 * terms [BT_TERMS.length, B] (float64).
 * @param eta the centring coefficient η ≥ 0 (default 0).
 * @throws RangeError if index has an odd length or η < 0 (as bradleyTerryLossAndGrad).
 */
export function btLossRef(
  rewards: ArrayLike<number>,
  index: ArrayLike<number>,
  eta = 0,
): { drewards: Float64Array; terms: Float64Array } {
  if (index.length % 2 !== 0) throw new RangeError(`btLossRef: index has odd length ${index.length}`);
  const B = index.length / 2;
  const n = rewards.length;
  const drewards = new Float64Array(n);
  const terms = new Float64Array(BT_TERMS.length * B);
  const row = (name: (typeof BT_TERMS)[number]) => BT_TERMS.indexOf(name) * B;
  for (let i = 0; i < B; i++) {
    const iw = index[i];
    const il = index[B + i];
    const inRange = (k: number) => Number.isInteger(k) && k >= 0 && k < n;
    if (!inRange(iw) || !inRange(il) || !Number.isFinite(rewards[iw]) || !Number.isFinite(rewards[il])) {
      terms[row("invalid") + i] = 1;
      continue;
    }
    const r = bradleyTerryLossAndGrad([rewards[iw]], [rewards[il]], eta);
    drewards[iw] = r.dChosen[0] / B;
    drewards[il] = r.dRejected[0] / B;
    terms[row("loss") + i] = r.loss;
    terms[row("accuracy") + i] = r.metrics.accuracy;
    terms[row("margin") + i] = r.metrics.margin;
    terms[row("rewards_chosen") + i] = rewards[iw];
    terms[row("rewards_rejected") + i] = rewards[il];
  }
  return { drewards, terms };
}
