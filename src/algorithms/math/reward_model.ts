/**
 * Reward-model training: the Bradley–Terry pairwise loss with optional reward centring, its gradient w.r.t.
 * the two rewards, and accuracy (../shared/docs/algorithms.md, "Reward model").
 *
 * Sources: Bradley & Terry 1952; Ouyang et al. 2022, "Training language models to follow instructions with
 * human feedback", eq. 1; Eisenstein et al. 2023, "Helping or Herding? Reward Model Ensembles Mitigate but do
 * not Eliminate Reward Hacking" (centring). Names follow TRL's RewardTrainer (`center_rewards_coefficient`).
 *
 * Shapes: B preference pairs; every array is [B]. Rewards are the reward head's scalar outputs (unitless
 * logits).
 */
import { checkFinite, checkLength, checkNumber, logSigmoid, sigmoid, type Vec } from "./numerics";

/** Loss, gradients and metrics. */
export interface BradleyTerryLoss {
  /** mean_b[−log σ(r_w − r_l)] + η·mean_b[(r_w + r_l)²]. */
  loss: number;
  /** dloss/dr_w [B] (includes the 1/B of the mean). */
  dChosen: Float64Array;
  /** dloss/dr_l [B]. */
  dRejected: Float64Array;
  metrics: {
    /** Share of pairs with r_w > r_l (ties count as wrong), in [0, 1]. */
    accuracy: number;
    /** mean_b (r_w − r_l). */
    margin: number;
  };
}

/**
 * Bradley–Terry loss: P(y_w ≻ y_l) = σ(r_w − r_l), loss −log σ(r_w − r_l) = softplus(r_l − r_w) averaged over
 * pairs, plus the optional centring term η·(r_w + r_l)² (TRL adds η·mean((r_w + r_l)²)), which pins the
 * reward's free offset near 0. Gradients: dloss/dr_w = (−σ(r_l − r_w) + 2η(r_w + r_l))/B,
 * dloss/dr_l = (σ(r_l − r_w) + 2η(r_w + r_l))/B.
 * @param rChosen r(x, y_w) [B], finite. @param rRejected r(x, y_l) [B], finite.
 * @param centerRewardsCoefficient η ≥ 0, default 0 (off).
 * @throws RangeError on B = 0, different lengths, non-finite rewards, or η < 0.
 */
export function bradleyTerryLossAndGrad(
  rChosen: Vec,
  rRejected: Vec,
  centerRewardsCoefficient = 0,
): BradleyTerryLoss {
  const B = rChosen.length;
  if (B === 0) throw new RangeError("bradleyTerryLossAndGrad: no pairs");
  checkLength("rRejected", rRejected, B);
  checkFinite("rChosen", rChosen);
  checkFinite("rRejected", rRejected);
  checkNumber("centerRewardsCoefficient", centerRewardsCoefficient, 0);
  const eta = centerRewardsCoefficient;
  const dChosen = new Float64Array(B);
  const dRejected = new Float64Array(B);
  let loss = 0;
  let correct = 0;
  let margin = 0;
  for (let b = 0; b < B; b++) {
    const d = rChosen[b] - rRejected[b];
    const s = rChosen[b] + rRejected[b];
    loss += -logSigmoid(d) + eta * s * s;
    const p = sigmoid(-d);
    dChosen[b] = (-p + 2 * eta * s) / B;
    dRejected[b] = (p + 2 * eta * s) / B;
    if (d > 0) correct++;
    margin += d;
  }
  return { loss: loss / B, dChosen, dRejected, metrics: { accuracy: correct / B, margin: margin / B } };
}
