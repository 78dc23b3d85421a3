/** CPU twin of src/shaders/attention.wgsl (causal multi-head self-attention, forward). Float64 loops. */

/** Attention sizes: batch B, sequence T, channels C, heads H (head size hs = C / H). */
export interface AttentionShape {
  B: number;
  T: number;
  C: number;
  H: number;
}

/** Key u is visible from query t: causal (u ≤ t) and not padding (mask ≥ 0.5; a null mask means no padding). */
export function keyVisible(
  mask: ArrayLike<number> | null,
  T: number,
  b: number,
  t: number,
  u: number,
): boolean {
  return u <= t && (mask === null || mask[b * T + u] > 0.5);
}

/**
 * out[b, t, h·hs + d] = Σ_u P[b, h, t, u] · v[b, u, h·hs + d] with P = softmax over visible keys u of
 * (q_t · k_u) / √hs (max-shifted). A query with no visible key gets P[t, :] = 0 and out_t = 0.
 * Source: Vaswani et al. 2017, eq. 1, with a causal and a key-padding mask.
 * @param qkv [B, T, 3C]: q = columns [0, C), k = [C, 2C), v = [2C, 3C).
 * @param mask [B, T] (1 real, 0 padding) or null for no padding.
 * @returns out [B, T, C] and P [B, H, T, T].
 */
export function attentionRef(
  qkv: ArrayLike<number>,
  mask: ArrayLike<number> | null,
  s: AttentionShape,
): { out: Float64Array; P: Float64Array } {
  const { B, T, C, H } = s;
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  const out = new Float64Array(B * T * C);
  const P = new Float64Array(B * H * T * T);
  const score = new Float64Array(T);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let t = 0; t < T; t++) {
        const q = (b * T + t) * 3 * C + h * hs;
        let max = Number.NEGATIVE_INFINITY;
        for (let u = 0; u < T; u++) {
          if (!keyVisible(mask, T, b, t, u)) continue;
          const k = (b * T + u) * 3 * C + C + h * hs;
          let dot = 0;
          for (let d = 0; d < hs; d++) dot += qkv[q + d] * qkv[k + d];
          score[u] = dot * scale;
          max = Math.max(max, score[u]);
        }
        const row = ((b * H + h) * T + t) * T;
        let sum = 0;
        for (let u = 0; u < T; u++) {
          if (!keyVisible(mask, T, b, t, u)) continue;
          P[row + u] = Math.exp(score[u] - max);
          sum += P[row + u];
        }
        for (let u = 0; u < T; u++) if (sum > 0) P[row + u] /= sum;
        for (let d = 0; d < hs; d++) {
          let acc = 0;
          for (let u = 0; u < T; u++) {
            if (!keyVisible(mask, T, b, t, u)) continue;
            acc += P[row + u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + d];
          }
          out[(b * T + t) * C + h * hs + d] = acc;
        }
      }
  return { out, P };
}
