/**
 * CPU twin of src/shaders/cross_entropy.wgsl (float64 loops): fused softmax + cross-entropy at τ = 1 for
 * (pre)training, as llm.c's fused_classifier. loss[n] = −log softmax(logits[n, :])[target[n]],
 * dlogits[n, :] = (softmax(logits[n, :]) − onehot(target[n]))·scale.
 */
import { type Logits, logSoftmaxRow } from "./softmax";
import { rowActive } from "./token_logprob";

export interface CrossEntropyRef {
  /** [N] per-position loss in nats (0 for ignored rows). */
  loss: Float64Array;
  /** [N, V] gradient of scale·Σ_n loss[n] (0 for ignored rows). */
  dlogits: Float64Array;
}

/** Targets < 0 or ≥ V and all −∞ rows are ignored: 0 loss, 0 gradient. A −∞ target logit gives +∞ loss. */
export function crossEntropyRef(
  logits: Logits,
  N: number,
  V: number,
  targets: ArrayLike<number>,
  scale: number,
): CrossEntropyRef {
  const loss = new Float64Array(N);
  const dlogits = new Float64Array(N * V);
  for (let n = 0; n < N; n++) {
    if (!rowActive(n, V, targets, null)) continue;
    const lp = logSoftmaxRow(logits, n, V, 1);
    if (!lp) continue;
    loss[n] = -lp[targets[n]];
    // The target's p_t − 1 as expm1(log p_t): a near-certain target's −r/(1 + r) keeps its digits.
    for (let v = 0; v < V; v++)
      dlogits[n * V + v] = (v === targets[n] ? Math.expm1(lp[v]) : Math.exp(lp[v])) * scale;
  }
  return { loss, dlogits };
}
