/**
 * CPU twin of src/shaders/sequence_logprob.wgsl and sequence_logprob_backward.wgsl: per-sequence masked sums
 * (or per-token means) of token log-probs, and the spreading of a per-sequence gradient over the tokens.
 * Thin adapters over src/algorithms/math/masked.ts (rowSums, rowCounts), float64.
 * Shapes: logp, mask [R, T] flattened row-major (mask 0/1), sequence values [R].
 * Source: ../shared/docs/algorithms.md, "DPO family" (logπ(y|x) = Σ of completion token log-probs; per-token averages
 * for ipo and simpo).
 */
import { rowCounts, rowSums } from "../algorithms/math/masked";

/**
 * { out [R], lengths [R] }: out = masked row sum, or (mean) sum / length with 0 for an empty row; lengths =
 * counted tokens. Masked slots are not read.
 * @throws RangeError (from masked.ts) when the mask is not 0/1 or sizes disagree.
 */
export function sequenceLogprobRef(
  logp: ArrayLike<number>,
  mask: ArrayLike<number>,
  R: number,
  T: number,
  mean = false,
): { out: Float64Array; lengths: Float64Array } {
  const shape = { B: R, T, mask };
  const out = rowSums(logp, shape);
  const lengths = rowCounts(shape);
  if (mean) for (let r = 0; r < R; r++) out[r] = lengths[r] > 0 ? out[r] / lengths[r] : 0;
  return { out, lengths };
}

/** dlogp [R·T] = g[r] (or g[r] / lengths[r] when `mean`) on counted slots, 0 elsewhere. */
export function sequenceLogprobBackwardRef(
  g: ArrayLike<number>,
  mask: ArrayLike<number>,
  R: number,
  T: number,
  mean = false,
): Float64Array {
  const lengths = rowCounts({ B: R, T, mask });
  const d = new Float64Array(R * T);
  for (let r = 0; r < R; r++)
    for (let t = 0; t < T; t++) if (mask[r * T + t] === 1) d[r * T + t] = mean ? g[r] / lengths[r] : g[r];
  return d;
}
