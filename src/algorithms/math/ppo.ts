/**
 * PPO's losses and diagnostics for language models, with their per-token gradients, in float64
 * (../shared/docs/algorithms.md, "PPO for language models", steps 4–7 and diagnostics).
 *
 * Float64 reference for tests and the kernels' CPU twins; training runs update.ts → kernels/policy_loss.ts →
 * shaders/policy_loss.wgsl (and kernels/value_loss.ts → shaders/value_loss.wgsl for the value loss).
 * ppoPolicyLossAndGrad, ppoValueLossAndGrad and ppoTotalLoss are never called by a training step: the tests
 * check the GPU kernels' summed results against them, and src/reference/policy_loss.ts and value_loss.ts (the
 * kernels' per-token twins) build on the per-token pieces here. What training does call from this file:
 * clipRange, PPO_DEFAULTS and adaptiveKlBeta (through ppo_fields.ts controllerBeta). A PPO step, file by
 * file: docs/how-a-step-runs.md; the symbols: docs/notation.md.
 *
 * Sources: Schulman et al. 2017, "Proximal Policy Optimization Algorithms", eq. 7 (clipped surrogate) and
 * eq. 9 (value + entropy terms); Ziegler et al. 2019, "Fine-Tuning Language Models from Human Preferences",
 * (adaptive KL controller); Ouyang et al. 2022; Huang et al. 2024, "The N+ Implementation Details of RLHF
 * with PPO" (value clipping, approx_kl, clipfrac). Metric names are the ones TRL's PPOTrainer logs
 * (policy/approxkl_avg, policy/clipfrac_avg, val/ratio, val/clipfrac_avg), with one difference in meaning:
 * policy/clipfrac_avg here counts every token whose ρ is outside the clip range (the spec's clipfrac), while
 * TRL's PPOTrainer counts only the tokens where the clip binds (the clipped term is the larger loss), so TRL
 * logs a smaller number on the same batch (src/ui/lab/metric_info.ts says the same to the student).
 *
 * Shapes: B sequences (PPO: one per prompt), T token slots per row (the training step passes the completion
 * width S, so a row is one completion's slots); per-token arrays [B, T] flattened row-major with a 0/1 mask
 * (masked.ts). `mean_t` is the masked mean over every counted token of the batch. Gradients are returned per
 * token w.r.t. logπ_θ(y_t) or V_t (what the GPU kernels write as dlogp and dvalues); masked slots get 0.
 */
import { checkFiniteMasked, checkTokenShape, maskCount, type TokenShape } from "./masked";
import { checkNumber, type Vec } from "./numerics";

/**
 * Spec defaults: clip ε = 0.2 (ε_high = ε), value clip ε_v = 0.2, value coefficient c_v = 0.1, entropy
 * coefficient c_H = 0; adaptive KL (off by default) with Ziegler et al.'s target 6 nats and horizon 10 000.
 */
export const PPO_DEFAULTS = {
  epsilon: 0.2,
  epsilonV: 0.2,
  vfCoef: 0.1,
  entCoef: 0,
  klTarget: 6,
  klHorizon: 10_000,
} as const;

/**
 * Clipped surrogate objective of one token, min(ρA, clip(ρ, 1 − ε_low, 1 + ε_high)·A) (to maximise).
 * @param ratio ρ = π_θ/π_old > 0. @param adv A (any finite value).
 */
export function clippedObjective(ratio: number, adv: number, epsLow: number, epsHigh: number): number {
  const clipped = Math.min(Math.max(ratio, 1 - epsLow), 1 + epsHigh);
  return Math.min(ratio * adv, clipped * adv);
}

/**
 * True when the clip binds on this token: the clipped term is the smaller one, so the token gives no gradient
 * (A > 0 and ρ > 1 + ε_high, or A < 0 and ρ < 1 − ε_low). TRL GRPO's `clip_ratio/high` and `/low` events.
 */
export function clipBinds(ratio: number, adv: number, epsLow: number, epsHigh: number): boolean {
  return (adv > 0 && ratio > 1 + epsHigh) || (adv < 0 && ratio < 1 - epsLow);
}

/** d/d logπ_θ of clippedObjective: ρ·A (since dρ/dlogπ_θ = ρ) where the clip does not bind, else 0. */
export function clippedObjectiveGrad(ratio: number, adv: number, epsLow: number, epsHigh: number): number {
  return clipBinds(ratio, adv, epsLow, epsHigh) ? 0 : ratio * adv;
}

/** Options of the clipped surrogate. */
export interface ClipOptions {
  /** ε (lower side, and upper side unless epsilonHigh is given), ≥ 0; default 0.2. */
  epsilon?: number;
  /** ε_high for the upper side (DAPO's clip-higher uses 0.28); default = epsilon. */
  epsilonHigh?: number;
}

/** Resolve and check ε, ε_high. @throws RangeError when negative, not finite, or ε ≥ 1. */
export function clipRange(o: ClipOptions): { epsLow: number; epsHigh: number } {
  const epsLow = o.epsilon ?? PPO_DEFAULTS.epsilon;
  const epsHigh = o.epsilonHigh ?? epsLow;
  checkNumber("epsilon", epsLow, 0);
  checkNumber("epsilonHigh", epsHigh, 0);
  if (epsLow >= 1) throw new RangeError(`epsilon must be < 1 (1 − ε is a ratio bound), got ${epsLow}`);
  return { epsLow, epsHigh };
}

/** PPO policy loss, its per-token gradient and diagnostics. */
export interface PolicyLoss {
  /** L_pg = −mean_t min(ρ_t A_t, clip(ρ_t, 1 − ε, 1 + ε_high) A_t). */
  loss: number;
  /** dL_pg/d logπ_θ(y_t) [B, T]; masked slots 0. */
  dlogp: Float64Array;
  metrics: {
    /** ½ mean_t (log ρ_t)² (spec diagnostics; Huang et al. 2024). Nats, ≥ 0. */
    "policy/approxkl_avg": number;
    /**
     * mean_t [ρ_t < 1 − ε or ρ_t > 1 + ε_high], i.e. [|ρ_t − 1| > ε] when ε_high = ε (spec). In [0, 1].
     * TRL's PPOTrainer logs this key for the share where the clip binds (A > 0 and ρ > 1 + ε, or A < 0 and
     * ρ < 1 − ε), a subset of these: GRPO's clip_ratio/region_mean here.
     */
    "policy/clipfrac_avg": number;
    /**
     * mean_t ρ_t: 1 on the first minibatch of the first epoch (no AdamW step yet since sampling; up to the rounding
     * between the sampling and training passes); after that
     * ρ ≠ 1, also within the first epoch when numMiniBatches > 1. PPO logs the first one as val/ratio_first.
     */
    "val/ratio": number;
  };
}

/**
 * Clipped surrogate policy loss (spec step 4; Schulman et al. 2017, eq. 7) and its gradient w.r.t. the
 * per-token log-probs logπ_θ, averaged over all counted tokens of the batch.
 * @param logp logπ_θ(y_t) [B, T], the policy being trained (at τ). @param logpOld logπ_old(y_t) [B, T].
 * @param advantages A_t [B, T] (gae.ts, usually whitened). All three finite on counted tokens.
 * @throws RangeError on bad shapes or options, a non-finite counted input, or no counted token.
 */
export function ppoPolicyLossAndGrad(
  logp: Vec,
  logpOld: Vec,
  advantages: Vec,
  shape: TokenShape,
  options: ClipOptions = {},
): PolicyLoss {
  checkTokenShape(shape, { logp, logpOld, advantages });
  checkFiniteMasked("logp", logp, shape);
  checkFiniteMasked("logpOld", logpOld, shape);
  checkFiniteMasked("advantages", advantages, shape);
  const { epsLow, epsHigh } = clipRange(options);
  const { mask } = shape;
  const n = maskCount(mask);
  if (n === 0) throw new RangeError("ppoPolicyLossAndGrad: no counted token in the batch");
  const dlogp = new Float64Array(mask.length);
  let obj = 0;
  let approxKl = 0;
  let clipped = 0;
  let ratioSum = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 1) continue;
    const logRatio = logp[i] - logpOld[i];
    const ratio = Math.exp(logRatio);
    obj += clippedObjective(ratio, advantages[i], epsLow, epsHigh);
    dlogp[i] = -clippedObjectiveGrad(ratio, advantages[i], epsLow, epsHigh) / n;
    approxKl += 0.5 * logRatio * logRatio;
    if (ratio < 1 - epsLow || ratio > 1 + epsHigh) clipped++;
    ratioSum += ratio;
  }
  return {
    loss: -obj / n,
    dlogp,
    metrics: {
      "policy/approxkl_avg": approxKl / n,
      "policy/clipfrac_avg": clipped / n,
      "val/ratio": ratioSum / n,
    },
  };
}

/** PPO value loss, its per-token gradient and diagnostics. */
export interface ValueLoss {
  /** L_v = ½ mean_t max((V − G)², (V^c − G)²). */
  loss: number;
  /** dL_v/dV_t [B, T]; masked slots 0. */
  dvalues: Float64Array;
  metrics: {
    /**
     * Share of counted tokens where the clipped term is strictly larger, i.e. the one used. Logged as
     * val/clipfrac_avg, the key TRL's PPOTrainer logs its vf_clipfrac under (same definition).
     */
    "val/clipfrac_avg": number;
  };
}

/**
 * Clipped value loss (spec step 5; Huang et al. 2024): V^c = V_old + clip(V − V_old, −ε_v, ε_v),
 * L_v = ½ mean_t max((V − G)², (V^c − G)²). Gradient: (V − G)/n where the unclipped term is used, (V^c − G)/n
 * where the clipped term is used and V is inside the clip range, 0 where it is clipped.
 * @param values V_t [B, T] from the value head being trained. @param valuesOld V_t at rollout [B, T].
 * @param returns G_t [B, T] (gae.ts). @param epsilonV ε_v ≥ 0, default 0.2.
 * @throws RangeError on bad shapes, ε_v < 0, a non-finite counted input, or no counted token.
 */
export function ppoValueLossAndGrad(
  values: Vec,
  valuesOld: Vec,
  returns: Vec,
  shape: TokenShape,
  epsilonV: number = PPO_DEFAULTS.epsilonV,
): ValueLoss {
  checkTokenShape(shape, { values, valuesOld, returns });
  checkFiniteMasked("values", values, shape);
  checkFiniteMasked("valuesOld", valuesOld, shape);
  checkFiniteMasked("returns", returns, shape);
  checkNumber("epsilonV", epsilonV, 0);
  const { mask } = shape;
  const n = maskCount(mask);
  if (n === 0) throw new RangeError("ppoValueLossAndGrad: no counted token in the batch");
  const dvalues = new Float64Array(mask.length);
  let sum = 0;
  let clipUsed = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 1) continue;
    const diff = values[i] - valuesOld[i];
    const vc = valuesOld[i] + Math.min(Math.max(diff, -epsilonV), epsilonV);
    const u = values[i] - returns[i];
    const c = vc - returns[i];
    if (c * c > u * u) {
      sum += c * c;
      clipUsed++;
      dvalues[i] = Math.abs(diff) < epsilonV ? c / n : 0;
    } else {
      sum += u * u;
      dvalues[i] = u / n;
    }
  }
  return { loss: (0.5 * sum) / n, dvalues, metrics: { "val/clipfrac_avg": clipUsed / n } };
}

/**
 * Total PPO loss L = L_pg + c_v·L_v − c_H·mean_t H_t (spec step 6), as a float64 scalar for the tests. Training
 * never forms this number: update.ts adds the three gradients instead, dL/dlogπ = dL_pg/dlogπ
 * (policy_loss kernel), dL/dV = c_v·dL_v/dV (value_loss kernel, gradScale c_v) and dL/dH_t = −c_H·w_t per
 * counted token (entropyBackward), and logs loss/policy_avg and loss/value_avg separately.
 * @param entropyMean mean_t H_t in nats (any number: the caller's); ignored when c_H = 0.
 * @param vfCoef c_v ≥ 0, default 0.1. @param entCoef c_H ≥ 0, default 0.
 */
export function ppoTotalLoss(
  policyLoss: number,
  valueLoss: number,
  entropyMean: number,
  vfCoef: number = PPO_DEFAULTS.vfCoef,
  entCoef: number = PPO_DEFAULTS.entCoef,
): number {
  checkNumber("vfCoef", vfCoef, 0);
  checkNumber("entCoef", entCoef, 0);
  return policyLoss + vfCoef * valueLoss - (entCoef === 0 ? 0 : entCoef * entropyMean);
}

/**
 * Adaptive KL controller (spec step 7), applied after each batch:
 * β ← β·(1 + clip(KL/KL_target − 1, −0.2, 0.2)·n/horizon).
 * Credit: Ziegler et al. 2019 §2.2 write it per step as β_{t+1} = β_t(1 + K_β e_t), K_β = 0.1,
 * e_t = clip(KL_t/KL_target − 1, −0.2, 0.2); the n/horizon form (the gain scaled by the samples in the batch) is
 * their code's AdaptiveKLController (openai/lm-human-preferences, train_policy.py), which TRL copied
 * (trl/trainer/utils.py AdaptiveKLController.update(current, n_steps)) and the spec follows.
 * @param beta current β > 0. @param kl the batch's mean sequence KL with the penalty's estimator (nats;
 *   the lab's `objective/kl` with k1, `objective/kl_k3` with k3; TRL's PPOTrainer passes its own objective/kl).
 * @param n samples (sequences) in the batch, ≥ 1. @param target KL_target > 0, default 6.
 * @param horizon > 0, default 10 000.
 * @returns the new β; each step changes it by a factor within 1 ± 0.2·n/horizon (so it stays > 0 while
 *   n < 5·horizon).
 * @throws RangeError on out-of-range arguments.
 */
export function adaptiveKlBeta(
  beta: number,
  kl: number,
  n: number,
  target: number = PPO_DEFAULTS.klTarget,
  horizon: number = PPO_DEFAULTS.klHorizon,
): number {
  checkNumber("beta", beta, 0, true);
  checkNumber("kl", kl);
  checkNumber("target", target, 0, true);
  checkNumber("horizon", horizon, 0, true);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const err = Math.min(Math.max(kl / target - 1, -0.2), 0.2);
  return beta * (1 + (err * n) / horizon);
}
