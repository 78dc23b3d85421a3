/**
 * CPU twin of src/shaders/exact_kl.wgsl and exact_kl_backward.wgsl (float64 loops).
 * KL[n] = Σ_v p (log p − log q), p = softmax(policy[n, :] / τ), q = softmax(ref[n, :] / τ)
 * (../shared/docs/algorithms.md, "KL estimators", exact; Schulman 2020).
 *
 * Conventions: entries with p = 0 add 0 (0·log 0 = 0, whatever q is); an entry with p > 0 and q = 0 makes the
 * KL +∞ (so does an all −∞ reference row under a live policy row). Masked rows and all −∞ policy rows give 0.
 */
import { checkTau, type Logits, logSoftmaxRow } from "./softmax";
import { rowActive } from "./token_logprob";

/** KL(π_θ ‖ π_ref) [N] for policy and reference logits [N, V] at τ. */
export function exactKlRef(
  policy: Logits,
  reference: Logits,
  N: number,
  V: number,
  mask: ArrayLike<number> | null,
  tau: number,
): Float64Array {
  checkTau(tau);
  const out = new Float64Array(N);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, null, mask)) continue;
    const lp = logSoftmaxRow(policy, n, V, tau);
    if (!lp) continue;
    const lq = logSoftmaxRow(reference, n, V, tau);
    let kl = 0;
    for (let v = 0; v < V; v++) {
      const p = Math.exp(lp[v]);
      if (p > 0) kl += p * (lp[v] - (lq ? lq[v] : Number.NEGATIVE_INFINITY));
    }
    out[n] = kl;
  }
  return out;
}

/**
 * dpolicy [N, V] = dkl[n]·p ⊙ ((log p − log q) − KL)/τ (no gradient to the reference). Masked rows, all −∞
 * policy rows and rows whose KL is +∞ (not differentiable) get 0; entries with p = 0 get 0.
 */
export function exactKlBackwardRef(
  policy: Logits,
  reference: Logits,
  N: number,
  V: number,
  mask: ArrayLike<number> | null,
  dkl: ArrayLike<number>,
  tau: number,
): Float64Array {
  const kl = exactKlRef(policy, reference, N, V, mask, tau);
  const out = new Float64Array(N * V);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, null, mask) || !Number.isFinite(kl[n])) continue;
    const lp = logSoftmaxRow(policy, n, V, tau);
    const lq = logSoftmaxRow(reference, n, V, tau);
    if (!lp || !lq) continue;
    for (let v = 0; v < V; v++) {
      const p = Math.exp(lp[v]);
      if (p > 0) out[n * V + v] = (dkl[n] * p * (lp[v] - lq[v] - kl[n])) / tau;
    }
  }
  return out;
}
