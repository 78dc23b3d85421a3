/**
 * CPU twin of src/shaders/attention_backward.wgsl + attention_backward_kv.wgsl (causal multi-head self-attention,
 * backward). Float64 loops; the analytic gradient of src/reference/attention.ts (checked against its finite
 * differences in test/kernels/attention_backward.test.ts).
 */
import type { AttentionShape } from "./attention";

/**
 * dqkv = ∂L/∂qkv given dout = ∂L/∂out and the forward probabilities P. With S = q·kᵀ/√hs per head:
 * dP[t, u] = dout_t · v_u, dS[t, u] = P[t, u] (dP[t, u] − Σ_u' P[t, u'] dP[t, u']), dq_t = Σ_u dS[t, u] k_u / √hs,
 * dk_u = Σ_t dS[t, u] q_t / √hs, dv_u = Σ_t P[t, u] dout_t. Entries with P = 0 (hidden keys) are skipped.
 * @param dout [B, T, C]; @param qkv [B, T, 3C]; @param P [B, H, T, T].
 * @returns dqkv [B, T, 3C] (q, k, v column blocks as in qkv) and dS [B, H, T, T] = ∂L/∂S.
 */
export function attentionBackwardRef(
  dout: ArrayLike<number>,
  qkv: ArrayLike<number>,
  P: ArrayLike<number>,
  s: AttentionShape,
): { dqkv: Float64Array; dS: Float64Array } {
  const { B, T, C, H } = s;
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  const dqkv = new Float64Array(B * T * 3 * C);
  const dS = new Float64Array(B * H * T * T);
  const qAt = (b: number, t: number, h: number) => (b * T + t) * 3 * C + h * hs;
  const kAt = (b: number, t: number, h: number) => qAt(b, t, h) + C;
  const vAt = (b: number, t: number, h: number) => qAt(b, t, h) + 2 * C;
  const oAt = (b: number, t: number, h: number) => (b * T + t) * C + h * hs;
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let t = 0; t < T; t++) {
        const row = ((b * H + h) * T + t) * T;
        let D = 0;
        for (let u = 0; u <= t; u++) {
          if (P[row + u] === 0) continue;
          let dp = 0;
          for (let d = 0; d < hs; d++) dp += dout[oAt(b, t, h) + d] * qkv[vAt(b, u, h) + d];
          dS[row + u] = dp;
          D += P[row + u] * dp;
        }
        for (let u = 0; u <= t; u++) {
          if (P[row + u] === 0) continue;
          dS[row + u] = P[row + u] * (dS[row + u] - D);
          for (let d = 0; d < hs; d++) {
            dqkv[qAt(b, t, h) + d] += scale * dS[row + u] * qkv[kAt(b, u, h) + d];
            dqkv[kAt(b, u, h) + d] += scale * dS[row + u] * qkv[qAt(b, t, h) + d];
            dqkv[vAt(b, u, h) + d] += P[row + u] * dout[oAt(b, t, h) + d];
          }
        }
      }
  return { dqkv, dS };
}
