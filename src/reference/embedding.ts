/**
 * CPU twins of src/shaders/embedding.wgsl and embedding_backward.wgsl (float64). GPT-2 input embedding
 * (Radford et al. 2019; karpathy/llm.c `encoder_forward`/`encoder_backward`) with explicit position ids, so
 * left-padded prompts get positions 0, 1, … from their first real token. Shapes: tokens and positions [B, T]
 * (N = B·T ids), wte [V, C], wpe [maxT, C], out [B, T, C].
 *
 * Out-of-range ids (token ∉ [0, V), position ∉ [0, maxT)) contribute ZERO: that table's row is skipped in the
 * forward pass and receives no gradient in the backward pass.
 */

/** out[n, c] = wte[tokens[n], c] + wpe[positions[n], c]; a term whose id is out of range is 0. */
export function embeddingRef(
  tokens: ArrayLike<number>,
  positions: ArrayLike<number>,
  wte: ArrayLike<number>,
  wpe: ArrayLike<number>,
  V: number,
  maxT: number,
  C: number,
): Float64Array {
  const N = tokens.length;
  const out = new Float64Array(N * C);
  for (let n = 0; n < N; n++) {
    const tok = tokens[n];
    const pos = positions[n];
    for (let c = 0; c < C; c++) {
      const te = tok >= 0 && tok < V ? wte[tok * C + c] : 0;
      const pe = pos >= 0 && pos < maxT ? wpe[pos * C + c] : 0;
      out[n * C + c] = te + pe;
    }
  }
  return out;
}

/**
 * Gradient of a table given dout [N, C]: dW[v, c] = dW0[v, c] + Σ_{n : ids[n] = v} dout[n, c] for v in [0, rows);
 * out-of-range ids are skipped. Used for dwte (ids = tokens, rows = V) and dwpe (ids = positions, rows = maxT).
 */
export function embeddingBackwardRef(
  dout: ArrayLike<number>,
  ids: ArrayLike<number>,
  rows: number,
  C: number,
  dW0?: ArrayLike<number>,
): Float64Array {
  const dW = new Float64Array(rows * C);
  if (dW0) for (let i = 0; i < dW.length; i++) dW[i] = dW0[i];
  for (let n = 0; n < ids.length; n++) {
    const v = ids[n];
    if (v < 0 || v >= rows) continue;
    for (let c = 0; c < C; c++) dW[v * C + c] += dout[n * C + c];
  }
  return dW;
}
