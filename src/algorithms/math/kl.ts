/**
 * KL divergence between the policy and the reference: Schulman's per-token estimators, sequence and batch
 * KL, and the exact KL over a whole vocabulary row. ../shared/docs/algorithms.md, "KL estimators"; J. Schulman,
 * "Approximating KL Divergence" (2020), http://joschu.net/blog/kl-approx.html.
 *
 * Shapes: B sequences, T token slots, per-token arrays [B, T] flattened row-major with a 0/1 mask
 * (masked.ts). Units: nats. For y_t ~ π_θ, ℓ_t = logπ_ref(y_t) − logπ_θ(y_t) (the spec's ℓ_t: in this file ℓ
 * is this log-ratio, not a loss) and u_t = exp(ℓ_t) = π_ref/π_θ (the spec writes r_t; u here and in the explain
 * panel, since r_t is PPO's per-token reward in gae.ts); each estimator's mean over samples estimates
 * KL(π_θ ‖ π_ref). Symbols: docs/notation.md.
 */
import { checkFiniteMasked, checkTokenShape, rowSums, type TokenShape } from "./masked";
import { checkLength, mean, type Vec } from "./numerics";

/**
 * Which estimator (Schulman 2020):
 * - `k1 = −ℓ`: unbiased, high variance, can be negative per token and per batch (the default for PPO's
 *   per-token reward and RLOO's score).
 * - `k2 = ½ ℓ²`: biased, low variance, ≥ 0.
 * - `k3 = (u − 1) − ℓ`: unbiased, ≥ 0 per token (GRPO's KL term).
 */
export type KlEstimator = "k1" | "k2" | "k3";

/**
 * One estimator on one token, from ℓ = logπ_ref − logπ_θ (finite). k3 uses expm1(ℓ) − ℓ, exact near ℓ = 0;
 * for ℓ > ~709 (ref far likelier than policy) k3 overflows to +∞.
 */
export function klFromLogRatio(ell: number, estimator: KlEstimator): number {
  switch (estimator) {
    case "k1":
      return -ell;
    case "k2":
      return 0.5 * ell * ell;
    case "k3":
      return Math.expm1(ell) - ell;
  }
}

/** d k/d logπ_θ for one token, from ℓ = logπ_ref − logπ_θ: k1 → 1, k2 → −ℓ, k3 → 1 − u = −expm1(ℓ). */
export function klGradLogp(ell: number, estimator: KlEstimator): number {
  switch (estimator) {
    case "k1":
      return 1;
    case "k2":
      return -ell;
    case "k3":
      return -Math.expm1(ell);
  }
}

/**
 * Per-token KL estimate k_t, [B, T] → [B, T], nats. Masked slots give 0 (their inputs are not read).
 * @param logp logπ_θ(y_t) [B, T] (at temperature τ, like every log-prob in the lab).
 * @param logpRef logπ_ref(y_t) [B, T].
 * @param estimator default `k1`.
 * @throws RangeError on a bad shape or mask, or a non-finite log-prob on a counted token (a token the policy
 * or   the reference gives probability 0 has an infinite KL; the caller is told rather than handed ±∞/NaN).
 */
export function klPerToken(
  logp: Vec,
  logpRef: Vec,
  shape: TokenShape,
  estimator: KlEstimator = "k1",
): Float64Array {
  checkTokenShape(shape, { logp, logpRef });
  checkFiniteMasked("logp", logp, shape);
  checkFiniteMasked("logpRef", logpRef, shape);
  const out = new Float64Array(shape.B * shape.T);
  for (let i = 0; i < out.length; i++)
    if (shape.mask[i] === 1) out[i] = klFromLogRatio(logpRef[i] - logp[i], estimator);
  return out;
}

/**
 * Sequence KL [B] = masked sum over each completion's tokens of a per-token KL [B, T] (spec: "Sequence KL").
 */
export function sequenceKl(perToken: Vec, shape: TokenShape): Float64Array {
  checkTokenShape(shape, { perToken });
  return rowSums(perToken, shape);
}

/**
 * Batch mean of the sequence KL, the number the lab's KL chart shows (TRL: `objective/kl`).
 * @throws RangeError as klPerToken.
 */
export function batchKl(logp: Vec, logpRef: Vec, shape: TokenShape, estimator: KlEstimator = "k1"): number {
  return mean(sequenceKl(klPerToken(logp, logpRef, shape, estimator), shape));
}

/**
 * Exact KL(p ‖ q) = Σ_v p(v)(log p(v) − log q(v)) over one vocabulary row, from log-probs [V] (e.g.
 * src/reference/softmax.ts logSoftmaxRow of policy and reference logits at the same τ; the GPU computes the
 * same from logits with src/kernels/exact_kl.ts). For the lab's display of the estimators against the truth
 * on distributions it already holds. Nats, range [0, +∞].
 * Entries with p = 0 add 0 whatever q is; p > 0 with q = 0 makes the KL +∞ (the true value).
 * @throws RangeError on different lengths or a NaN log-prob.
 */
export function exactKl(logpPolicy: Vec, logpRef: Vec): number {
  checkLength("logpRef", logpRef, logpPolicy.length);
  let kl = 0;
  for (let v = 0; v < logpPolicy.length; v++) {
    if (Number.isNaN(logpPolicy[v]) || Number.isNaN(logpRef[v]))
      throw new RangeError(`log-probs at v = ${v} must not be NaN`);
    const p = Math.exp(logpPolicy[v]);
    if (p > 0) kl += p * (logpPolicy[v] - logpRef[v]);
  }
  return kl;
}
