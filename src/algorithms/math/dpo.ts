/**
 * The DPO family of preference losses on per-sequence log-probs, with their gradients w.r.t. the policy's
 * sequence log-probs and TRL's metrics (../shared/docs/algorithms.md, "DPO family").
 *
 * Sources: Rafailov et al. 2023, "Direct Preference Optimization", eq. 7 (`sigmoid`); Mitchell 2023, "A note
 * on DPO with noisy preferences" (cDPO, `label_smoothing`); Liu et al. 2023, "Statistical Rejection Sampling
 * Improves Preference Optimization" (RSO: `hinge` in this form, max(0, 1 − βh) on the reference log-ratio h,
 * which is TRL's `hinge`; the spec credits it to SLiC, Zhao et al. 2023, "SLiC-HF", whose calibration hinge
 * compares the policy's own log-probs without a reference; the explain panel's Hinge note says the same);
 * Azar et al. 2023, "A General Theoretical Paradigm to Understand Learning from Human
 * Preferences" (`ipo`); Meng et al. 2024, "SimPO" (`simpo`). Field and metric names follow TRL's DPOTrainer
 * (and CPOTrainer's `simpo_gamma`).
 *
 * Shapes: B preference pairs; every array is [B]. logπ(y|x) is the sum of the completion's token log-probs
 * (at τ) over its counted tokens (masked.ts rowSums). The GPU spreads a gradient g w.r.t. a sequence log-prob
 * over the completion's tokens as g on each token, since ∂Σ_t logπ_t/∂logπ_t = 1; for `ipo` and `simpo` the
 * 1/|y| of the per-token average is already inside g.
 */
import { checkLength, checkNumber, logSigmoid, sigmoid, type Vec } from "./numerics";

/** Which loss: DPO (`sigmoid`), RSO's / TRL's hinge (`hinge`), IPO (`ipo`), or reference-free SimPO (`simpo`). */
export type DpoLossType = "sigmoid" | "hinge" | "ipo" | "simpo";

/** Spec defaults: β = 0.1 (SimPO: β = 2), label smoothing 0, SimPO margin γ = 0.5. */
export const DPO_DEFAULTS = {
  lossType: "sigmoid" as DpoLossType,
  beta: 0.1,
  simpoBeta: 2,
  labelSmoothing: 0,
  simpoGamma: 0.5,
};

/** Per-pair sequence log-probs (nats, ≤ 0, −∞ allowed where the text says) and lengths. */
export interface PreferenceLogps {
  /** logπ_θ(y_w|x) [B]. */
  chosenLogps: Vec;
  /** logπ_θ(y_l|x) [B]. */
  rejectedLogps: Vec;
  /** logπ_ref(y_w|x) [B]; required except for `simpo`. */
  refChosenLogps?: Vec | null;
  /** logπ_ref(y_l|x) [B]; required except for `simpo`. */
  refRejectedLogps?: Vec | null;
  /** |y_w| [B], counted tokens ≥ 1; required for `ipo` and `simpo`. */
  chosenLengths?: Vec | null;
  /** |y_l| [B]; required for `ipo` and `simpo`. */
  rejectedLengths?: Vec | null;
}

/** Options (TRL names in brackets). */
export interface DpoOptions {
  /** [`loss_type`], default `sigmoid`. */
  lossType?: DpoLossType;
  /** β > 0 [`beta`]; default 0.1, or 2 for `simpo`. */
  beta?: number;
  /** ε_ls ∈ [0, 0.5) [`label_smoothing`], cDPO; `sigmoid` only; default 0. */
  labelSmoothing?: number;
  /** γ ≥ 0 [`simpo_gamma`], SimPO's target margin; default 0.5. */
  simpoGamma?: number;
}

/** Loss, gradients and metrics. */
export interface DpoLoss {
  /** Mean over pairs. */
  loss: number;
  /** Per-pair losses [B]. */
  losses: Float64Array;
  /** dloss/d chosenLogps [B] (includes the 1/B of the mean). */
  dChosenLogps: Float64Array;
  /** dloss/d rejectedLogps [B]. */
  dRejectedLogps: Float64Array;
  /**
   * Per-pair implicit rewards [B] whose means are rewards/chosen and rewards/rejected (see metrics):
   * β(logπ_θ(y) − logπ_ref(y)), per-token averaged for `ipo`, β·logπ_θ(y)/|y| for `simpo`.
   */
  rewardsChosen: Float64Array;
  rewardsRejected: Float64Array;
  /**
   * TRL's metrics, means over pairs: rewards/chosen = β(logπ_θ(y_w) − logπ_ref(y_w)) (per-token averages for
   * `ipo`; β·logπ_θ(y_w)/|y_w| for `simpo`), rewards/rejected likewise, rewards/margins = chosen − rejected,
   * rewards/accuracies = share of pairs with chosen > rejected (ties count as wrong), logps/chosen and
   * logps/rejected = the policy log-probs the loss used (sums, or per-token averages for `ipo` and `simpo`).
   * A −∞ rejected log-prob makes rewards/rejected −∞ (and margins +∞): the truth, not NaN.
   */
  metrics: {
    "rewards/chosen": number;
    "rewards/rejected": number;
    "rewards/margins": number;
    "rewards/accuracies": number;
    "logps/chosen": number;
    "logps/rejected": number;
  };
}

/**
 * DPO-family loss (spec "DPO family") over B pairs, with
 * h = [logπ_θ(y_w) − logπ_ref(y_w)] − [logπ_θ(y_l) − logπ_ref(y_l)] (TRL's DPOTrainer calls h `logits`):
 * - `sigmoid`: −(1 − ε_ls) log σ(βh) − ε_ls log σ(−βh) (ε_ls = 0 is DPO, > 0 cDPO);
 * - `hinge`: max(0, 1 − βh);
 * - `ipo`: (h − 1/(2β))² with each log-prob difference divided by its completion's length (as TRL);
 * - `simpo`: −log σ(β·logπ_θ(y_w)/|y_w| − β·logπ_θ(y_l)/|y_l| − γ), no reference.
 * log σ is computed as −softplus(−z). −∞ log-probs: a −∞ rejected log-prob gives a finite loss wherever the
 * true loss is finite (`sigmoid` without smoothing, `hinge`: 0, zero gradient); anything that makes the loss
 * infinite or undefined (a −∞ chosen log-prob, −∞ − (−∞)) throws a RangeError naming the pair. At the hinge's
 * kink (βh = 1) the gradient taken is 0.
 * @throws RangeError on missing inputs for the loss type, wrong lengths, NaN or +∞ log-probs, lengths < 1,
 *   β ≤ 0, ε_ls outside [0, 0.5) or with a loss other than `sigmoid`, γ < 0, or an infinite/undefined loss.
 */
export function dpoLossAndGrad(inputs: PreferenceLogps, options: DpoOptions = {}): DpoLoss {
  const lossType = options.lossType ?? DPO_DEFAULTS.lossType;
  const beta = options.beta ?? (lossType === "simpo" ? DPO_DEFAULTS.simpoBeta : DPO_DEFAULTS.beta);
  const ls = options.labelSmoothing ?? DPO_DEFAULTS.labelSmoothing;
  const gamma = options.simpoGamma ?? DPO_DEFAULTS.simpoGamma;
  checkNumber("beta", beta, 0, true);
  checkNumber("simpoGamma", gamma, 0);
  if (!(ls >= 0 && ls < 0.5)) throw new RangeError(`labelSmoothing must be in [0, 0.5), got ${ls}`);
  if (ls > 0 && lossType !== "sigmoid")
    throw new RangeError(`labelSmoothing applies to loss_type sigmoid only, got ${lossType}`);

  const B = inputs.chosenLogps.length;
  if (B === 0) throw new RangeError("dpoLossAndGrad: no pairs");
  const pw = inputs.chosenLogps;
  const pl = inputs.rejectedLogps;
  checkLogps("rejectedLogps", pl, B);
  checkLogps("chosenLogps", pw, B);
  const useRef = lossType !== "simpo";
  const zeros = new Float64Array(B);
  const rw = useRef ? need("refChosenLogps", inputs.refChosenLogps, lossType) : zeros;
  const rl = useRef ? need("refRejectedLogps", inputs.refRejectedLogps, lossType) : zeros;
  checkLogps("refChosenLogps", rw, B);
  checkLogps("refRejectedLogps", rl, B);
  const perToken = lossType === "ipo" || lossType === "simpo";
  const ones = new Float64Array(B).fill(1);
  const lw = perToken ? need("chosenLengths", inputs.chosenLengths, lossType) : ones;
  const ll = perToken ? need("rejectedLengths", inputs.rejectedLengths, lossType) : ones;
  checkLengths("chosenLengths", lw, B);
  checkLengths("rejectedLengths", ll, B);

  const losses = new Float64Array(B);
  const dChosenLogps = new Float64Array(B);
  const dRejectedLogps = new Float64Array(B);
  const rewardsChosen = new Float64Array(B);
  const rewardsRejected = new Float64Array(B);
  const m = { rc: 0, rr: 0, acc: 0, lc: 0, lr: 0 };
  for (let b = 0; b < B; b++) {
    // cw, cl: the (per-token averaged) log-ratios, or averaged log-probs for simpo.
    const cw = (pw[b] - rw[b]) / lw[b];
    const cl = (pl[b] - rl[b]) / ll[b];
    const h = cw - cl;
    if (Number.isNaN(h))
      throw new RangeError(`pair ${b}: log-ratio difference is undefined (−∞ − (−∞)); check its log-probs`);
    let loss: number;
    let dh: number; // dloss_b/dh
    switch (lossType) {
      case "sigmoid":
        loss = -(1 - ls) * logSigmoid(beta * h) - (ls > 0 ? ls * logSigmoid(-beta * h) : 0);
        dh = beta * (-(1 - ls) * sigmoid(-beta * h) + ls * sigmoid(beta * h));
        break;
      case "hinge":
        loss = Math.max(0, 1 - beta * h);
        dh = beta * h < 1 ? -beta : 0;
        break;
      case "ipo":
        loss = (h - 1 / (2 * beta)) ** 2;
        dh = 2 * (h - 1 / (2 * beta));
        break;
      case "simpo":
        loss = -logSigmoid(beta * h - gamma);
        dh = -beta * sigmoid(gamma - beta * h);
        break;
      default:
        throw new RangeError(`unknown loss_type ${String(lossType)}`);
    }
    if (!Number.isFinite(loss) || !Number.isFinite(dh))
      throw new RangeError(
        `pair ${b}: ${lossType} loss is infinite (chosen ${pw[b]}, rejected ${pl[b]}, ref ${rw[b]}, ${rl[b]}): ` +
          "the policy or the reference gives a completion probability 0",
      );
    losses[b] = loss;
    dChosenLogps[b] = dh / lw[b] / B;
    dRejectedLogps[b] = -dh / ll[b] / B;
    rewardsChosen[b] = beta * cw;
    rewardsRejected[b] = beta * cl;
    m.rc += beta * cw;
    m.rr += beta * cl;
    m.acc += cw > cl ? 1 : 0;
    m.lc += pw[b] / lw[b];
    m.lr += pl[b] / ll[b];
  }
  let loss = 0;
  for (const l of losses) loss += l;
  return {
    loss: loss / B,
    losses,
    dChosenLogps,
    dRejectedLogps,
    rewardsChosen,
    rewardsRejected,
    metrics: {
      "rewards/chosen": m.rc / B,
      "rewards/rejected": m.rr / B,
      "rewards/margins": (m.rc - m.rr) / B,
      "rewards/accuracies": m.acc / B,
      "logps/chosen": m.lc / B,
      "logps/rejected": m.lr / B,
    },
  };
}

function need(name: string, x: Vec | null | undefined, lossType: DpoLossType): Vec {
  if (!x) throw new RangeError(`loss_type ${lossType} needs ${name}`);
  return x;
}

/** Log-probs: length B, no NaN, no +∞ (−∞ allowed; dpoLossAndGrad decides what it means). */
function checkLogps(name: string, x: Vec, B: number): void {
  checkLength(name, x, B);
  for (let b = 0; b < B; b++)
    if (Number.isNaN(x[b]) || x[b] === Number.POSITIVE_INFINITY)
      throw new RangeError(`${name}[${b}] must be a log-probability (finite or −∞), got ${x[b]}`);
}

function checkLengths(name: string, x: Vec, B: number): void {
  checkLength(name, x, B);
  for (let b = 0; b < B; b++)
    if (!Number.isInteger(x[b]) || x[b] < 1)
      throw new RangeError(`${name}[${b}] must be a positive integer token count, got ${x[b]}`);
}
