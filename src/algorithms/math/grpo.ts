/**
 * GRPO: group-relative advantages and the token-level clipped objective with a k3 KL penalty, under the three
 * aggregations the spec names (../shared/docs/algorithms.md, "GRPO and its variants").
 *
 * Training calls grpoAdvantages and aggregationWeights from here (grpo.ts, rloo.ts, safe_rlhf.ts); the loss
 * itself, grpoLossAndGrad and aggregateTokenLoss, is the float64 reference for tests and the kernels' CPU
 * twins: training runs update.ts → kernels/policy_loss.ts → shaders/policy_loss.wgsl, whose summed results the
 * tests check against grpoLossAndGrad (src/reference/policy_loss.ts is the per-token twin, built on ppo.ts and
 * kl.ts). A GRPO step, file by file: docs/how-a-step-runs.md; the symbols: docs/notation.md.
 *
 * Sources: Shao et al. 2024, "DeepSeekMath", eq. 3 (objective) and §4.1.2 (outcome supervision advantage);
 * Yu et al. 2025, "DAPO" (clip-higher, token-level policy-gradient loss); Liu et al. 2025, "Understanding
 * R1-Zero-Like Training" (Dr. GRPO: no std scaling, constant normaliser). Setting names follow TRL's
 * GRPOConfig (`scale_rewards`, `loss_type`, `epsilon_high`, `max_completion_length`). Metric names: `reward`,
 * `reward_std`, `frac_reward_zero_std`, `kl` and `clip_ratio/low_mean`, `/high_mean`, `/region_mean` are
 * GRPOTrainer's; `policy/clipfrac_avg` (below), and `loss/policy_avg`, `val/ratio`, `policy/approxkl_avg`
 * that a GRPO run also logs (pg_run.ts, from the kernel), are PPOTrainer's names, kept so GRPO and PPO share
 * charts (TRL's GRPOTrainer logs none of them; it logs its loss as `loss`). GRPO's `kl` is the per-token mean
 * of k3 over the update's tokens (nats/token), not `objective/kl`, which every run logs from the rollout: k1
 * summed over each completion, averaged over completions (nats/completion).
 *
 * Shapes: G completions per prompt, B = (number of prompts)·G sequences laid out group by group
 * (sequences gG..gG+G−1 are prompt g's): here B counts sequences, while the configs' batchPrompts (PgConfig's
 * "B") counts prompts. T token slots per row (the training step passes the completion width S); per-token
 * arrays [B, T] flattened row-major with a 0/1 mask (masked.ts); per-sequence arrays [B].
 */
import { klFromLogRatio, klGradLogp } from "./kl";
import { checkFiniteMasked, checkTokenShape, maskCount, rowCounts, type TokenShape } from "./masked";
import { checkFinite, checkNumber, mean, std, type Vec } from "./numerics";
import { clipBinds, clippedObjective, clippedObjectiveGrad, clipRange } from "./ppo";

/**
 * How advantages are scaled: std within the group (default), std over the batch, or not at all (Dr. GRPO).
 */
export type ScaleRewards = "group" | "batch" | "none";

/** How per-token losses are aggregated into the batch loss (the source of GRPO's length bias). */
export type GrpoLossType = "grpo" | "dapo" | "dr_grpo";

/** Added to the std before dividing (TRL's 1e-4), so near-constant groups do not blow up. */
export const GRPO_STD_EPS = 1e-4;

/**
 * Spec defaults: scale_rewards `group`, ε = 0.2, ε_high = ε, β = 0.04 (DeepSeekMath; 0 turns the reference
 * model off). loss_type `grpo` (the spec names no default; DeepSeekMath's own aggregation is the one that
 * carries the algorithm's name — TRL's current default is `dapo`).
 */
export const GRPO_DEFAULTS = {
  scaleRewards: "group" as ScaleRewards,
  epsilon: 0.2,
  beta: 0.04,
  lossType: "grpo" as GrpoLossType,
} as const;

/** Advantages and the reward metrics TRL logs with them. */
export interface GroupAdvantages {
  /** A_i [B], one per completion, shared by all its tokens. */
  advantages: Float64Array;
  metrics: {
    /** Mean score over the batch. */
    reward: number;
    /**
     * TRL's `reward_std`: mean of the groups' sample stds (`group`, `none`), or the batch's sample std
     * (`batch`).
     */
    reward_std: number;
    /**
     * Share of groups whose scores are all equal (they carry zero advantage and no policy-gradient signal).
     */
    frac_reward_zero_std: number;
  };
}

/**
 * Group-relative advantages (spec "GRPO", advantage): A_i = (R_i − mean(R_group)) / (std + 1e-4), with std
 * the sample std (divisor n − 1, as TRL / torch.std) of the group (`group`) or of the whole batch (`batch`);
 * `none` skips the division (Dr. GRPO). The mean is always the group's. A group whose scores are all exactly
 * equal gets exactly 0 advantages (not rounding noise from its mean).
 * frac_reward_zero_std counts groups with all-equal scores in every mode (TRL in `batch` mode tests the batch
 * std instead; the spec ties the metric to equal-score groups).
 * @param scores R [B], finite. @param groupSize G ≥ 2, dividing B. @param scaleRewards default `group`.
 * @throws RangeError on G < 2, B not a multiple of G, or a non-finite score.
 */
export function grpoAdvantages(
  scores: Vec,
  groupSize: number,
  scaleRewards: ScaleRewards = GRPO_DEFAULTS.scaleRewards,
): GroupAdvantages {
  const B = scores.length;
  const G = groupSize;
  if (!Number.isInteger(G) || G < 2)
    throw new RangeError(`GRPO needs a group of at least 2 completions per prompt, got group size ${G}`);
  if (B === 0 || B % G !== 0)
    throw new RangeError(`batch of ${B} scores is not a whole number of groups of ${G}`);
  checkFinite("scores", scores);
  const groups = B / G;
  const batchStd = std(scores, true);
  const advantages = new Float64Array(B);
  let groupStdSum = 0;
  let zeroStd = 0;
  for (let g = 0; g < groups; g++) {
    const from = g * G;
    let lo = scores[from];
    let hi = scores[from];
    let sum = 0;
    for (let i = from; i < from + G; i++) {
      lo = Math.min(lo, scores[i]);
      hi = Math.max(hi, scores[i]);
      sum += scores[i];
    }
    const groupStd = std(scores, true, from, G);
    groupStdSum += groupStd;
    if (lo === hi) {
      zeroStd++;
      continue; // advantages stay exactly 0
    }
    const m = sum / G;
    const denom =
      scaleRewards === "none" ? 1 : (scaleRewards === "group" ? groupStd : batchStd) + GRPO_STD_EPS;
    for (let i = from; i < from + G; i++) advantages[i] = (scores[i] - m) / denom;
  }
  return {
    advantages,
    metrics: {
      reward: mean(scores),
      reward_std: scaleRewards === "batch" ? batchStd : groupStdSum / groups,
      frac_reward_zero_std: zeroStd / groups,
    },
  };
}

/** Batch loss and the weight of each token's loss in it: loss = Σ_{b,t} w_bt·ℓ_bt (ℓ: per-token loss). */
export interface Aggregation {
  loss: number;
  /** w [B, T] (so dloss/dℓ_bt = w_bt); masked slots 0. */
  weights: Float64Array;
}

/**
 * Aggregate a per-token loss ℓ [B, T] into the batch loss (spec "GRPO", aggregation; TRL `loss_type`):
 * - `grpo`: mean over each completion's tokens, then mean over the B completions (w = 1/(B·|y_b|)); a
 *   completion with no counted token adds 0 but still counts in B, as TRL's clamp(min = 1).
 * - `dapo`: Σ over all counted tokens / their number (w = 1/n).
 * - `dr_grpo`: Σ over all counted tokens / (N·L_max) (w = 1/(N·L_max)), N the completions in the batch
 *   (here N = B = prompts × G) and L_max the maximum completion length (TRL `max_completion_length`; the lab's
 *   max new tokens). The spec writes it G·max_completion_length: its "G" is read as the number of completions
 *   in the batch being aggregated, as TRL (`per_token_loss.size(0)`) and the test vector do. L_max is the
 *   configured limit, not the padded width T, so padding changes nothing. The same N·L_max is in the loss
 *   type's field (grpo.ts), the entropy bonus's (fields.ts) and the explain panel.
 * @param maxCompletionLength L_max, required for `dr_grpo`; every completion must have ≤ L_max counted tokens.
 * @throws RangeError on bad shapes, a non-finite counted loss, no counted token (`dapo`), a missing or too
 * small L.
 */
export function aggregateTokenLoss(
  perTokenLoss: Vec,
  shape: TokenShape,
  lossType: GrpoLossType,
  maxCompletionLength?: number,
): Aggregation {
  checkTokenShape(shape, { perTokenLoss });
  checkFiniteMasked("perTokenLoss", perTokenLoss, shape);
  const weights = aggregationWeights(shape, lossType, maxCompletionLength);
  let loss = 0;
  for (let i = 0; i < weights.length; i++) if (shape.mask[i] === 1) loss += weights[i] * perTokenLoss[i];
  return { loss, weights };
}

/** The weights w [B, T] of aggregateTokenLoss (which documents them and what they throw). */
export function aggregationWeights(
  shape: TokenShape,
  lossType: GrpoLossType,
  maxCompletionLength?: number,
): Float64Array {
  const { B, T, mask } = shape;
  const lengths = rowCounts(shape);
  const weights = new Float64Array(B * T);
  const fill = (b: number, w: number) => {
    for (let t = 0; t < T; t++) if (mask[b * T + t] === 1) weights[b * T + t] = w;
  };
  switch (lossType) {
    case "grpo":
      for (let b = 0; b < B; b++) fill(b, 1 / (B * Math.max(1, lengths[b])));
      break;
    case "dapo": {
      const n = maskCount(mask);
      if (n === 0) throw new RangeError("dapo aggregation over a batch with no counted token");
      for (let b = 0; b < B; b++) fill(b, 1 / n);
      break;
    }
    case "dr_grpo": {
      const L = maxCompletionLength;
      if (L === undefined || !Number.isInteger(L) || L < 1)
        throw new RangeError(`dr_grpo needs max_completion_length, a positive integer; got ${L}`);
      for (let b = 0; b < B; b++) {
        if (lengths[b] > L)
          throw new RangeError(
            `completion ${b} has ${lengths[b]} tokens, more than max_completion_length ${L}`,
          );
        fill(b, 1 / (B * L));
      }
      break;
    }
    default:
      throw new RangeError(`unknown loss_type ${String(lossType)}`);
  }
  return weights;
}

/** Options of the GRPO loss. */
export interface GrpoOptions {
  /** ε ≥ 0, default 0.2. */
  epsilon?: number;
  /** ε_high ≥ 0, default ε (DAPO's clip-higher: 0.28). */
  epsilonHigh?: number;
  /** β ≥ 0 on the k3 KL term, default 0.04; 0 switches the reference model off (logpRef may then be null). */
  beta?: number;
  /** Aggregation, default `grpo`. */
  lossType?: GrpoLossType;
  /** L_max for `dr_grpo` (TRL `max_completion_length`). */
  maxCompletionLength?: number;
}

/** GRPO loss, its per-token gradient and TRL's metrics. */
export interface GrpoLoss {
  loss: number;
  /** Per-token loss ℓ_t = −(min(ρA, clip(ρ, 1 − ε, 1 + ε_high)A) − β k3_t) [B, T]; masked slots 0. */
  perTokenLoss: Float64Array;
  /** dloss/d logπ_θ(y_t) [B, T]; masked slots 0. */
  dlogp: Float64Array;
  metrics: {
    /**
     * GRPOTrainer's `kl`: mean_t k3_t over the counted tokens (nats/token), null without a reference model.
     * Not `objective/kl` (k1 summed per completion, from the rollout).
     */
    kl: number | null;
    /** mean_t [ρ < 1 − ε and A < 0] (the lower clip binds). */
    "clip_ratio/low_mean": number;
    /** mean_t [ρ > 1 + ε_high and A > 0] (the upper clip binds). */
    "clip_ratio/high_mean": number;
    /** low or high. */
    "clip_ratio/region_mean": number;
    /**
     * The spec's clipfrac, mean_t [ρ < 1 − ε or ρ > 1 + ε_high], whatever the sign of A; a PPOTrainer name
     * (whose own count is only the binding clips, clip_ratio/region_mean here).
     */
    "policy/clipfrac_avg": number;
  };
}

/**
 * GRPO loss (spec "GRPO"; DeepSeekMath eq. 3 with DAPO's ε_high): per counted token the loss
 * ℓ_t = −(min(ρ_t A_b, clip(ρ_t, 1 − ε, 1 + ε_high) A_b) − β k3_t), ρ_t = exp(logπ_θ − logπ_old),
 * k3_t = (u_t − 1) − log u_t with u_t = π_ref(y_t)/π_θ(y_t) (kl.ts and the spec's KL section call log u_t ℓ_t;
 * here ℓ is the loss); aggregated by `lossType` (aggregateTokenLoss), |y_b| being completion b's length.
 * Gradient: dℓ_t/dlogπ_θ = −(ρA where the clip does not bind, else 0) + β(1 − u_t), times the token's weight.
 * A completion with A = 0 (an equal-score group) gets no policy-gradient term: with β = 0 its gradient is
 * exactly 0; with β > 0 only the KL term pulls it towards the reference.
 * @param logp logπ_θ(y_t) [B, T]. @param logpOld logπ_old [B, T], or null when the batch is used once
 *   (μ = 1: π_old is π_θ detached, ρ ≡ 1). @param logpRef logπ_ref [B, T], or null when β = 0.
 * @param advantages A [B] (grpoAdvantages). All inputs finite on counted tokens.
 * @throws RangeError on bad shapes or options, β > 0 without logpRef, non-finite counted inputs, or as
 *   aggregateTokenLoss.
 */
export function grpoLossAndGrad(
  logp: Vec,
  logpOld: Vec | null,
  logpRef: Vec | null,
  advantages: Vec,
  shape: TokenShape,
  options: GrpoOptions = {},
): GrpoLoss {
  const { B, T, mask } = shape;
  const old = logpOld ?? logp;
  checkTokenShape(shape, { logp, logpOld: old });
  checkFiniteMasked("logp", logp, shape);
  checkFiniteMasked("logpOld", old, shape);
  if (advantages.length !== B)
    throw new RangeError(`advantages must have length B = ${B}, got ${advantages.length}`);
  checkFinite("advantages", advantages);
  const { epsLow, epsHigh } = clipRange(options);
  const beta = options.beta ?? GRPO_DEFAULTS.beta;
  checkNumber("beta", beta, 0);
  if (beta > 0 && !logpRef) throw new RangeError(`beta = ${beta} > 0 needs the reference log-probs logpRef`);
  if (logpRef) {
    checkTokenShape(shape, { logpRef });
    checkFiniteMasked("logpRef", logpRef, shape);
  }
  const weights = aggregationWeights(
    shape,
    options.lossType ?? GRPO_DEFAULTS.lossType,
    options.maxCompletionLength,
  );
  const n = maskCount(mask);
  if (n === 0) throw new RangeError("grpoLossAndGrad: no counted token in the batch");
  const perTokenLoss = new Float64Array(B * T);
  const dlogp = new Float64Array(B * T);
  let loss = 0;
  let kl = 0;
  let low = 0;
  let high = 0;
  let outside = 0;
  for (let b = 0; b < B; b++) {
    const A = advantages[b];
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (mask[i] !== 1) continue;
      const ratio = Math.exp(logp[i] - old[i]);
      let l = -clippedObjective(ratio, A, epsLow, epsHigh);
      let d = -clippedObjectiveGrad(ratio, A, epsLow, epsHigh);
      if (logpRef) {
        const ell = logpRef[i] - logp[i];
        const k3 = klFromLogRatio(ell, "k3");
        kl += k3;
        if (beta > 0) {
          l += beta * k3;
          d += beta * klGradLogp(ell, "k3");
        }
      }
      perTokenLoss[i] = l;
      dlogp[i] = weights[i] * d;
      loss += weights[i] * l;
      if (clipBinds(ratio, A, epsLow, epsHigh)) {
        if (A < 0) low++;
        else high++;
      }
      if (ratio < 1 - epsLow || ratio > 1 + epsHigh) outside++;
    }
  }
  return {
    loss,
    perTokenLoss,
    dlogp,
    metrics: {
      kl: logpRef ? kl / n : null,
      "clip_ratio/low_mean": low / n,
      "clip_ratio/high_mean": high / n,
      "clip_ratio/region_mean": (low + high) / n,
      "policy/clipfrac_avg": outside / n,
    },
  };
}
