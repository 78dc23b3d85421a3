/** Aggregation weights of the sequence-level REINFORCE loss −(1/B) Σ_b A_b Σ_t log π(y_bt): w = 1/B per token. */
import type { TokenShape } from "./math/masked";

/**
 * Per-token weights [B·T] of the sequence-level loss: 1/B on every counted token (mask 1), 0 on padding, so
 * Σ w·ℓ = (1/B) Σ_b Σ_t ℓ_bt (REINFORCE, Williams 1992; RLOO, Ahmadian et al. 2024).
 */
export function perSequenceSumWeights(shape: TokenShape): Float64Array {
  const w = new Float64Array(shape.B * shape.T);
  for (let i = 0; i < w.length; i++) if (shape.mask[i]) w[i] = 1 / shape.B;
  return w;
}
