/**
 * PPO's per-token rewards, GAE advantages and returns, masked whitening and explained variance
 * (../shared/docs/algorithms.md, "PPO for language models", steps 2–3 and diagnostics).
 *
 * Sources: Ziegler et al. 2019, "Fine-Tuning Language Models from Human Preferences" (per-token KL reward);
 * Schulman et al. 2016, "High-Dimensional Continuous Control Using Generalized Advantage Estimation", eq. 16;
 * Huang et al. 2024, "The N+ Implementation Details of RLHF with PPO" (masked whitening, details 5 and 9).
 *
 * Shapes: B sequences, T token slots per row (the PPO step passes the completion width S: padded, so T ≥ every
 * |y|); per-token arrays [B, T] flattened row-major with a 0/1 mask (masked.ts). A sequence's counted tokens
 * are its completion y_1..y_|y| (in slot order); its last counted token is t = |y| (the spec writes T = |y|),
 * the EOS or the truncation point, where V_{|y|+1} = 0. Masked slots are skipped and give 0 in every output.
 * r_t in this file is PPO's per-token reward (not a probability ratio: docs/notation.md).
 */
import { type KlEstimator, klPerToken } from "./kl";
import { checkFiniteMasked, checkTokenShape, maskCount, maskedSum, rowSums, type TokenShape } from "./masked";
import { checkFinite, checkLength, checkNumber, mean, type Vec } from "./numerics";

/** Spec defaults: β = 0.05 (KL coefficient of the per-token reward), k1, γ = 1, λ = 0.95. */
export const GAE_DEFAULTS = { beta: 0.05, estimator: "k1" as KlEstimator, gamma: 1, lam: 0.95 } as const;

/** ε added to the variance before the square root in masked whitening, as TRL's `masked_whiten`. */
export const WHITEN_EPS = 1e-8;

/** Per-token rewards and the metrics TRL's PPOTrainer logs for them. */
export interface KlRewards {
  /** r_t [B, T]; masked slots 0. */
  rewards: Float64Array;
  /** k_t [B, T], the chosen estimator; masked slots 0. */
  kl: Float64Array;
  metrics: {
    /** Batch mean of Σ_t k_t (nats). */
    "objective/kl": number;
    /** Batch mean of Σ_t −β k_t. */
    "objective/non_score_reward": number;
    /** Batch mean of R + Σ_t −β k_t, the quantity PPO maximises. */
    "objective/rlhf_reward": number;
    /** Batch mean of the scores R. */
    "objective/scores": number;
    /**
     * Batch mean of −Σ_t log π_old(y_t), the sampled tokens' summed surprisal (nats/completion): TRL PPOTrainer's
     * sequence-level entropy estimate (the lab's `entropy` is the exact per-token mean over the vocabulary).
     */
    "objective/entropy": number;
  };
}

/**
 * Per-token reward r_t = −β·k_t + [t = |y|]·R(x, y) (spec step 2, its [t = T]; Ziegler et al. 2019, eq. 2 spread per token):
 * the KL penalty on every counted token, the score added on each sequence's last counted token.
 * @param scores R [B], finite.
 * @param logp logπ_old(y_t) [B, T] (the sampling policy's log-probs at τ), finite on counted tokens.
 * @param logpRef logπ_ref(y_t) [B, T], finite on counted tokens.
 * @param beta β ≥ 0, default 0.05. @param estimator default `k1` (`k3` is the option the lab offers).
 * @throws RangeError on bad shapes, non-finite inputs, β < 0, or a sequence with no counted token (its score
 *   would be silently dropped).
 */
export function klPenalizedRewards(
  scores: Vec,
  logp: Vec,
  logpRef: Vec,
  shape: TokenShape,
  beta: number = GAE_DEFAULTS.beta,
  estimator: KlEstimator = GAE_DEFAULTS.estimator,
): KlRewards {
  const { B, T, mask } = shape;
  checkLength("scores", scores, B);
  checkFinite("scores", scores);
  checkNumber("beta", beta, 0);
  const kl = klPerToken(logp, logpRef, shape, estimator);
  const rewards = new Float64Array(B * T);
  for (let b = 0; b < B; b++) {
    let last = -1;
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (mask[i] !== 1) continue;
      rewards[i] = -beta * kl[i];
      last = i;
    }
    if (last < 0) throw new RangeError(`sequence ${b} has no counted token: its score cannot be placed`);
    rewards[last] += scores[b];
  }
  const seqKl = rowSums(kl, shape);
  const nonScore = Array.from(seqKl, (k) => -beta * k);
  return {
    rewards,
    kl,
    metrics: {
      "objective/kl": mean(seqKl),
      "objective/non_score_reward": mean(nonScore),
      "objective/rlhf_reward": mean(nonScore.map((n, b) => n + scores[b])),
      "objective/scores": mean(scores),
      "objective/entropy": -mean(rowSums(logp, shape)),
    },
  };
}

/** GAE output, [B, T] each; masked slots 0. */
export interface Gae {
  /** δ_t = r_t + γ V_{t+1} − V_t, the one-step TD errors the advantages sum. */
  deltas: Float64Array;
  /** A_t (not whitened). */
  advantages: Float64Array;
  /** G_t = A_t + V_t, the value head's regression target. */
  returns: Float64Array;
}

/**
 * Generalised advantage estimation (Schulman et al. 2016, eq. 16; spec step 3), per sequence, backwards over
 * its counted tokens: δ_t = r_t + γ V_{t+1} − V_t with V_{|y|+1} = 0 after the last counted token;
 * A_t = δ_t + γλ A_{t+1}; G_t = A_t + V_t. "t + 1" is the next counted slot of the same row, so prompt tokens
 * and padding on either side change nothing.
 * @param rewards r_t [B, T] (klPenalizedRewards). @param values V_t [B, T] from the value head at rollout.
 * @param gamma γ ∈ [0, 1], default 1. @param lam λ ∈ [0, 1], default 0.95.
 * @throws RangeError on bad shapes, γ or λ outside [0, 1], or a non-finite reward or value on a counted
 * token.
 */
export function gae(
  rewards: Vec,
  values: Vec,
  shape: TokenShape,
  gamma: number = GAE_DEFAULTS.gamma,
  lam: number = GAE_DEFAULTS.lam,
): Gae {
  const { B, T, mask } = shape;
  checkTokenShape(shape, { rewards, values });
  checkFiniteMasked("rewards", rewards, shape);
  checkFiniteMasked("values", values, shape);
  if (!(gamma >= 0 && gamma <= 1)) throw new RangeError(`gamma must be in [0, 1], got ${gamma}`);
  if (!(lam >= 0 && lam <= 1)) throw new RangeError(`lam must be in [0, 1], got ${lam}`);
  const deltas = new Float64Array(B * T);
  const advantages = new Float64Array(B * T);
  const returns = new Float64Array(B * T);
  for (let b = 0; b < B; b++) {
    let nextValue = 0;
    let nextAdv = 0;
    for (let t = T - 1; t >= 0; t--) {
      const i = b * T + t;
      if (mask[i] !== 1) continue;
      const delta = rewards[i] + gamma * nextValue - values[i];
      const a = delta + gamma * lam * nextAdv;
      deltas[i] = delta;
      advantages[i] = a;
      returns[i] = a + values[i];
      nextValue = values[i];
      nextAdv = a;
    }
  }
  return { deltas, advantages, returns };
}

/**
 * Masked whitening over the whole batch, as TRL's `masked_whiten` (Huang et al. 2024, detail 5):
 * out = (x − μ) / sqrt(σ² + 1e-8), μ the masked mean and σ² the masked variance with Bessel's correction
 * (divisor n − 1, n = counted tokens; TRL's `masked_var(unbiased=True)`). With `shiftMean` = false the mean
 * is added back (out = (x − μ)/σ + μ): TRL whitens PPO advantages with shift_mean = true (the default here)
 * and whitens rewards with shift_mean = false, which rescales without centring. A single counted token has no
 * variance estimate; it is taken as 0 (so out = 0, or μ without the shift) rather than TRL's division by 0.
 * @param moments {@link whitenMoments} of x, when the caller already has them (computed here otherwise).
 * @returns [B, T]; masked slots 0.
 * @throws RangeError on bad shapes, no counted token, or a non-finite counted entry.
 */
export function maskedWhiten(
  x: Vec,
  shape: TokenShape,
  shiftMean = true,
  moments: { mean: number; scale: number } = whitenMoments(x, shape),
): Float64Array {
  const { mean: mu, scale } = moments;
  const { mask } = shape;
  const inv = 1 / scale;
  const out = new Float64Array(mask.length);
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) out[i] = (x[i] - mu) * inv + (shiftMean ? 0 : mu);
  return out;
}

/**
 * The two numbers {@link maskedWhiten} uses: the masked mean μ and the divisor sqrt(σ² + 1e-8), σ² the masked
 * variance with divisor n − 1 (0 for a single counted token). Whitened x is (x − μ)/scale.
 * @throws RangeError on bad shapes, no counted token, or a non-finite counted entry.
 */
export function whitenMoments(x: Vec, shape: TokenShape): { mean: number; scale: number } {
  checkTokenShape(shape, { x });
  checkFiniteMasked("x", x, shape);
  const { mask } = shape;
  const n = maskCount(mask);
  if (n === 0) throw new RangeError("maskedWhiten: no counted token in the batch");
  const mu = maskedSum(x, mask) / n;
  let ss = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) ss += (x[i] - mu) * (x[i] - mu);
  const variance = n > 1 ? ss / (n - 1) : 0;
  return { mean: mu, scale: Math.sqrt(variance + WHITEN_EPS) };
}

/**
 * Explained variance 1 − Var(G − V)/Var(G) over counted tokens (spec, PPO diagnostics; logged as
 * `val/explained_variance`, a name of ours: TRL's PPOTrainer logs none): 1 is a perfect value head, 0 no
 * better than a constant, < 0 worse. Population variances (the ratio does not depend on the divisor).
 * Undefined when Var(G) = 0: returns NaN then, as CleanRL does, so a chart shows a gap rather than a made-up
 * number.
 * @param values V_t [B, T] (at rollout). @param returns G_t [B, T].
 * @throws RangeError on bad shapes, no counted token, or a non-finite counted entry.
 */
export function explainedVariance(values: Vec, returns: Vec, shape: TokenShape): number {
  checkTokenShape(shape, { values, returns });
  checkFiniteMasked("values", values, shape);
  checkFiniteMasked("returns", returns, shape);
  const { mask } = shape;
  const n = maskCount(mask);
  if (n === 0) throw new RangeError("explainedVariance: no counted token in the batch");
  const resid = new Float64Array(mask.length);
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) resid[i] = returns[i] - values[i];
  const varOf = (y: Vec): number => {
    const m = maskedSum(y, mask) / n;
    let s = 0;
    for (let i = 0; i < mask.length; i++) if (mask[i] === 1) s += (y[i] - m) * (y[i] - m);
    return s / n;
  };
  const varG = varOf(returns);
  return varG > 0 ? 1 - varOf(resid) / varG : Number.NaN;
}
