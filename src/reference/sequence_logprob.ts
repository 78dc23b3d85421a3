/**
 * CPU twin of src/shaders/sequence_logprob.wgsl and sequence_logprob_backward.wgsl: per-sequence masked sums
 * (or per-token means) of token log-probs, and the spreading of a per-sequence gradient over the tokens.
 * Float64. Counts a slot where mask ≠ 0, as the kernels do (masked.ts's helpers count mask = 1 only), and
 * checks sizes as the wrappers in src/kernels/sequence_logprob.ts do; like them, it accepts any mask value.
 * Shapes: logp, mask, dlogp [R, T] flattened row-major; sequence values g, out, lengths [R].
 * Source: ../shared/docs/algorithms.md, "DPO family" (logπ(y|x) = Σ of completion token log-probs; per-token averages
 * for ipo and simpo).
 */
import { checkLength } from "../algorithms/math/numerics";

/** @throws RangeError unless R is an integer ≥ 0, T ≥ 1, and each named array holds `n` entries. */
function checkSizes(op: string, R: number, T: number, arrays: [string, ArrayLike<number>, number][]): void {
  if (!Number.isInteger(R) || R < 0) throw new RangeError(`${op}: R (rows) must be an integer ≥ 0, got ${R}`);
  if (!Number.isInteger(T) || T < 1)
    throw new RangeError(`${op}: T (columns) must be an integer ≥ 1, got ${T}`);
  for (const [name, x, n] of arrays) checkLength(`${op}: ${name}`, x, n);
}

/** Counted tokens per row, [R]: the number of t with mask[r, t] ≠ 0. */
function counts(mask: ArrayLike<number>, R: number, T: number): Float64Array {
  const n = new Float64Array(R);
  for (let r = 0; r < R; r++) for (let t = 0; t < T; t++) if (mask[r * T + t] !== 0) n[r]++;
  return n;
}

/**
 * { out [R], lengths [R] }: out[r] = Σ_{t: mask ≠ 0} logp[r, t], or (mean) that sum / lengths[r] with 0 for
 * an empty row; lengths[r] = counted tokens. Masked slots are not read (NaN there never leaks). Units: nats.
 * @throws RangeError when R is not an integer ≥ 0, T not an integer ≥ 1, or logp or mask does not hold R·T
 *   entries.
 */
export function sequenceLogprobRef(
  logp: ArrayLike<number>,
  mask: ArrayLike<number>,
  R: number,
  T: number,
  mean = false,
): { out: Float64Array; lengths: Float64Array } {
  checkSizes("sequenceLogprobRef", R, T, [
    ["logp", logp, R * T],
    ["mask", mask, R * T],
  ]);
  const out = new Float64Array(R);
  for (let r = 0; r < R; r++)
    for (let t = 0; t < T; t++) if (mask[r * T + t] !== 0) out[r] += logp[r * T + t];
  const lengths = counts(mask, R, T);
  if (mean) for (let r = 0; r < R; r++) out[r] = lengths[r] > 0 ? out[r] / lengths[r] : 0;
  return { out, lengths };
}

/**
 * dlogp [R·T] = g[r] (or g[r] / lengths[r] when `mean`) where mask ≠ 0, 0 elsewhere; g is not read for an
 * empty row.
 * @throws RangeError when R or T is bad (as {@link sequenceLogprobRef}), g does not hold R entries, or mask
 *   not R·T.
 */
export function sequenceLogprobBackwardRef(
  g: ArrayLike<number>,
  mask: ArrayLike<number>,
  R: number,
  T: number,
  mean = false,
): Float64Array {
  checkSizes("sequenceLogprobBackwardRef", R, T, [
    ["g", g, R],
    ["mask", mask, R * T],
  ]);
  const lengths = counts(mask, R, T);
  const d = new Float64Array(R * T);
  for (let r = 0; r < R; r++)
    for (let t = 0; t < T; t++) if (mask[r * T + t] !== 0) d[r * T + t] = mean ? g[r] / lengths[r] : g[r];
  return d;
}
