/**
 * CPU twin of src/shaders/token_logprob.wgsl and token_logprob_backward.wgsl (float64 loops).
 * logp[n] = log softmax(logits[n, :] / τ)[target[n]] (../shared/docs/algorithms.md, "Notation": log-probs use logits / τ).
 */
import { checkTau, type Logits, logSoftmaxRow } from "./softmax";

/** Row n takes part when its mask entry (if any) is non-zero and its target is in [0, V). */
export function rowActive(
  n: number,
  V: number,
  targets: ArrayLike<number> | null,
  mask: ArrayLike<number> | null,
): boolean {
  if (mask && mask[n] === 0) return false;
  if (!targets) return true;
  const t = targets[n];
  return t >= 0 && t < V;
}

/**
 * logp [N] for logits [N, V], targets [N], mask [N] (0/1, null = all rows) at temperature τ.
 * Masked rows, out-of-range targets and all −∞ rows give 0; a −∞ target logit gives −∞.
 */
export function tokenLogprobRef(
  logits: Logits,
  N: number,
  V: number,
  targets: ArrayLike<number>,
  mask: ArrayLike<number> | null,
  tau: number,
): Float64Array {
  checkTau(tau);
  const out = new Float64Array(N);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, targets, mask)) continue;
    const lp = logSoftmaxRow(logits, n, V, tau);
    if (lp) out[n] = lp[targets[n]];
  }
  return out;
}

/**
 * dlogits [N, V] = dlogp[n]·(onehot(target[n]) − p)/τ with p = softmax(logits[n, :] / τ); rows that are
 * masked, out of range or all −∞ get 0.
 */
export function tokenLogprobBackwardRef(
  logits: Logits,
  N: number,
  V: number,
  targets: ArrayLike<number>,
  mask: ArrayLike<number> | null,
  dlogp: ArrayLike<number>,
  tau: number,
): Float64Array {
  checkTau(tau);
  const out = new Float64Array(N * V);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, targets, mask)) continue;
    const lp = logSoftmaxRow(logits, n, V, tau);
    if (!lp) continue;
    for (let v = 0; v < V; v++) {
      // The target's 1 − p_t as −expm1(log p_t): a near-certain target's r/(1 + r) keeps its digits.
      const q = v === targets[n] ? -Math.expm1(lp[v]) : -Math.exp(lp[v]);
      out[n * V + v] = (dlogp[n] * q) / tau;
    }
  }
  return out;
}
