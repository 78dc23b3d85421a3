/**
 * CPU twin of src/shaders/entropy.wgsl and entropy_backward.wgsl (float64 loops).
 * H[n] = −Σ_v p log p with p = softmax(logits[n, :] / τ) (../shared/docs/algorithms.md, "Entropy"), in nats.
 */
import { checkTau, type Logits, logSoftmaxRow } from "./softmax";
import { rowActive } from "./token_logprob";

/** H [N] for logits [N, V] at τ; masked (mask 0) and all −∞ rows give 0. Entries with p = 0 add 0. */
export function entropyRef(
  logits: Logits,
  N: number,
  V: number,
  mask: ArrayLike<number> | null,
  tau: number,
): Float64Array {
  checkTau(tau);
  const out = new Float64Array(N);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, null, mask)) continue;
    const lp = logSoftmaxRow(logits, n, V, tau);
    if (!lp) continue;
    let h = 0;
    for (let v = 0; v < V; v++) {
      const p = Math.exp(lp[v]);
      if (p > 0) h -= p * lp[v];
    }
    out[n] = h;
  }
  return out;
}

/** dlogits [N, V] = dH[n]·(−p ⊙ (log p + H))/τ; masked and all −∞ rows get 0, entries with p = 0 get 0. */
export function entropyBackwardRef(
  logits: Logits,
  N: number,
  V: number,
  mask: ArrayLike<number> | null,
  dH: ArrayLike<number>,
  tau: number,
): Float64Array {
  checkTau(tau);
  const H = entropyRef(logits, N, V, mask, tau);
  const out = new Float64Array(N * V);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, null, mask)) continue;
    const lp = logSoftmaxRow(logits, n, V, tau);
    if (!lp) continue;
    for (let v = 0; v < V; v++) {
      const p = Math.exp(lp[v]);
      if (p > 0) out[n * V + v] = (dH[n] * -p * (lp[v] + H[n])) / tau;
    }
  }
  return out;
}
