/** Aggregation weights of the sequence-level REINFORCE loss −(1/B) Σ_b A_b Σ_t log π(y_bt): w = 1/B per token. */
import type { TokenShape } from "./math/masked";

export function perSequenceSumWeights(shape: TokenShape): Float64Array {
  const w = new Float64Array(shape.B * shape.T);
  for (let i = 0; i < w.length; i++) if (shape.mask[i]) w[i] = 1 / shape.B;
  return w;
}
