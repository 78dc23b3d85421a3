/**
 * Per-token batches and masked reductions. A per-token array holds B sequences × T token slots, flattened
 * row-major (slot (b, t) at index b·T + t), as the trainers read them back from the GPU. The mask [B, T] is
 * 1 on the completion tokens that count (up to and including EOS) and 0 on prompt and padding slots; masked
 * slots are never read by any function here, so they may hold anything (NaN, ±∞, stale data).
 */
import { checkLength, type Vec } from "./numerics";

/**
 * Shape and mask of a per-token batch. B ≥ 1 sequences, T ≥ 1 token slots each, mask [B, T] of 0/1. The
 * training steps pass the completion layout (T = S, the completion slots; sequences.ts's T is the full row
 * P + S) and the spec's T = |y| is a completion's length: docs/notation.md.
 */
export interface TokenShape {
  B: number;
  T: number;
  mask: Vec;
}

/**
 * Check B, T and the mask, and that each named array has B·T entries.
 * @throws RangeError naming the field: B or T not a positive integer, a wrong length, a mask entry not 0 or
 * 1.
 */
export function checkTokenShape(shape: TokenShape, arrays: Record<string, Vec>): void {
  const { B, T, mask } = shape;
  if (!Number.isInteger(B) || B < 1)
    throw new RangeError(`B (sequences) must be a positive integer, got ${B}`);
  if (!Number.isInteger(T) || T < 1)
    throw new RangeError(`T (token slots) must be a positive integer, got ${T}`);
  checkLength("mask", mask, B * T);
  for (let i = 0; i < mask.length; i++)
    if (mask[i] !== 0 && mask[i] !== 1)
      throw new RangeError(`mask[${i}] must be 0 or 1, got ${mask[i]} (b = ${Math.floor(i / T)})`);
  for (const [name, x] of Object.entries(arrays)) checkLength(name, x, B * T);
}

/**
 * @throws RangeError naming the slot (b, t) when an unmasked entry of x is not finite. Log-probs must pass
 * this: a −∞ log-prob on a counted token means the model gives that token probability 0, which makes ratios,
 * KLs and REINFORCE losses infinite or NaN, so the caller gets a clear error instead.
 */
export function checkFiniteMasked(what: string, x: Vec, shape: TokenShape): void {
  const { T, mask } = shape;
  for (let i = 0; i < mask.length; i++)
    if (mask[i] === 1 && !Number.isFinite(x[i]))
      throw new RangeError(
        `${what} at (b = ${Math.floor(i / T)}, t = ${i % T}) must be finite on a counted token, got ${x[i]}`,
      );
}

/** Number of counted tokens in the whole batch. */
export function maskCount(mask: Vec): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) n++;
  return n;
}

/** Counted tokens per sequence, [B] (the completion length |y_b|). */
export function rowCounts(shape: TokenShape): Float64Array {
  const { B, T, mask } = shape;
  const out = new Float64Array(B);
  for (let b = 0; b < B; b++) for (let t = 0; t < T; t++) if (mask[b * T + t] === 1) out[b]++;
  return out;
}

/**
 * Σ over counted tokens of x (float64). Masked slots are skipped, not multiplied by 0, so NaN there is
 * harmless.
 */
export function maskedSum(x: Vec, mask: Vec): number {
  let s = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) s += x[i];
  return s;
}

/** Per-sequence sums over counted tokens, [B] (e.g. a sequence log-prob or a sequence KL). */
export function rowSums(x: Vec, shape: TokenShape): Float64Array {
  const { B, T, mask } = shape;
  const out = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    let s = 0;
    for (let t = 0; t < T; t++) if (mask[b * T + t] === 1) s += x[b * T + t];
    out[b] = s;
  }
  return out;
}

/**
 * Mask [B, T] from true lengths: slot (b, t) counts when promptLengths[b] ≤ t < promptLengths[b] +
 * completionLengths[b] (completion up to and including EOS). Without promptLengths the completion starts at
 * t = 0 (arrays that hold completion tokens only).
 * @throws RangeError when a length is not a non-negative integer or a completion runs past T.
 */
export function maskFromLengths(
  B: number,
  T: number,
  completionLengths: Vec,
  promptLengths: Vec | null = null,
): Float64Array {
  checkLength("completionLengths", completionLengths, B);
  if (promptLengths) checkLength("promptLengths", promptLengths, B);
  const mask = new Float64Array(B * T);
  for (let b = 0; b < B; b++) {
    const p = promptLengths ? promptLengths[b] : 0;
    const n = completionLengths[b];
    if (!Number.isInteger(p) || p < 0 || !Number.isInteger(n) || n < 0 || p + n > T)
      throw new RangeError(`sequence ${b}: prompt length ${p} + completion length ${n} must fit in T = ${T}`);
    for (let t = p; t < p + n; t++) mask[b * T + t] = 1;
  }
  return mask;
}
