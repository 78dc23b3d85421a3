/**
 * CPU twin of src/shaders/decode_attention.wgsl, and an independent full causal attention over a whole
 * sequence (float64) whose last row the decode step must reproduce.
 */
import type { KvShape } from "./kv_append";

export interface DecodeShape extends KvShape {
  /** Filled positions 0 … L−1 (the new token is at L−1). */
  L: number;
  /** Row stride of q: C for a q tensor [B, C], 3C for a fused qkv row [B, 3C]. Default C. */
  qStride?: number;
}

/**
 * out[b, h·hs + d] = Σ_{t visible} softmax_t(q_h · k[b,h,t] / √hs) · v[b,h,t,d], visible ⇔ t < L and mask[b,t] ≠ 0;
 * zeros when nothing is visible. q [B, qStride], caches [B, H, Tmax, hs], mask [B, Tmax] → out [B, C]. Float64.
 */
export function decodeAttentionRef(
  q: ArrayLike<number>,
  kcache: ArrayLike<number>,
  vcache: ArrayLike<number>,
  mask: ArrayLike<number>,
  s: DecodeShape,
): Float64Array {
  const { B, H, hs, Tmax, L } = s;
  const C = H * hs;
  const qStride = s.qStride ?? C;
  const scale = 1 / Math.sqrt(hs);
  const out = new Float64Array(B * C);
  const scores = new Float64Array(L);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++) {
      const kv = (b * H + h) * Tmax * hs;
      let m = Number.NEGATIVE_INFINITY;
      for (let t = 0; t < L; t++) {
        scores[t] = Number.NEGATIVE_INFINITY;
        if (mask[b * Tmax + t] === 0) continue;
        let dot = 0;
        for (let d = 0; d < hs; d++) dot += q[b * qStride + h * hs + d] * kcache[kv + t * hs + d];
        scores[t] = dot * scale;
        m = Math.max(m, scores[t]);
      }
      if (m === Number.NEGATIVE_INFINITY) continue; // no visible key: zeros
      let sum = 0;
      for (let t = 0; t < L; t++) sum += scores[t] === Number.NEGATIVE_INFINITY ? 0 : Math.exp(scores[t] - m);
      for (let t = 0; t < L; t++) {
        if (scores[t] === Number.NEGATIVE_INFINITY) continue;
        const p = Math.exp(scores[t] - m) / sum;
        for (let d = 0; d < hs; d++) out[b * C + h * hs + d] += p * vcache[kv + t * hs + d];
      }
    }
  return out;
}

/**
 * Full causal self-attention of whole sequences, written independently of the cache layout:
 * out[b, i, h·hs + d] = Σ_{j ≤ i, mask[b, j] ≠ 0} softmax_j(q_i · k_j / √hs) · v_j, zeros for a row that sees no
 * key. qkv [B, T, 3C] (q | k | v column blocks), mask [B, T] → out [B, T, C]. Float64.
 */
export function causalAttentionRef(
  qkv: ArrayLike<number>,
  mask: ArrayLike<number>,
  B: number,
  T: number,
  H: number,
  hs: number,
): Float64Array {
  const C = H * hs;
  const out = new Float64Array(B * T * C);
  const at = (b: number, t: number, block: number, h: number, d: number) =>
    qkv[(b * T + t) * 3 * C + block * C + h * hs + d];
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let i = 0; i < T; i++) {
        const w: number[] = [];
        const keys: number[] = [];
        for (let j = 0; j <= i; j++) {
          if (mask[b * T + j] === 0) continue;
          let dot = 0;
          for (let d = 0; d < hs; d++) dot += at(b, i, 0, h, d) * at(b, j, 1, h, d);
          w.push(dot / Math.sqrt(hs));
          keys.push(j);
        }
        if (!keys.length) continue;
        const m = Math.max(...w);
        const e = w.map((x) => Math.exp(x - m));
        const z = e.reduce((a, x) => a + x, 0);
        for (let d = 0; d < hs; d++) {
          let acc = 0;
          keys.forEach((j, n) => {
            acc += (e[n] / z) * at(b, j, 2, h, d);
          });
          out[(b * T + i) * C + h * hs + d] = acc;
        }
      }
  return out;
}
