/** Single-token attention over a KV cache (src/shaders/decode_attention.wgsl); CPU twin: src/reference/decode_attention.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/decode_attention.wgsl?raw";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";

/** The decode_attention kernel at a given workgroup width (threads per (sequence, head), a power of two ≤ 256). */
export const decodeAttentionKernel = widthFamily({
  name: "decode_attention",
  source,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
  ],
});

export interface DecodeAttentionOptions {
  /**
   * Threads per (sequence, head): a power of two ≤ 256. Default `preferredRowWidth(ctx, Tmax)` (fixed per cache
   * size, so every step of a generation uses the same summation order).
   */
  width?: number;
}

/**
 * Record the attention of each sequence's newest token over its cached keys and values:
 *   out[b, h·hs + d] = Σ_t softmax_t(q[b, h·hs : (h+1)·hs] · kcache[b, h, t] / √hs) · vcache[b, h, t, d]
 * over the visible positions t < L with mask[b, t] ≠ 0 (max-shifted softmax; zeros if none is visible). Write the
 * new token's k/v first (`kvAppend(..., L)`), so position L−1 is the token itself. Source: Vaswani et al. 2017, eq. 1.
 *
 * Shapes: q [B, C] f32, or the fused qkv row [B, 3C] f32 (its first C columns are used, no copy needed);
 * kcache, vcache [B, H, Tmax, hs] f32 (layout of kv_append.wgsl); mask [B, Tmax] f32 (1 = real, 0 = padding;
 * prompts may be left-padded); out [B, C] f32 with C = H·hs, overwritten. L: 0 ≤ L ≤ Tmax, Tmax ≥ 1.
 * Workgroup memory holds Tmax scores: Tmax is limited by the device (4 bytes each, ~4000 on a 16 KiB device).
 * @throws RangeError on mismatched shapes or dtypes, L out of range, a bad width, or a Tmax too large.
 */
export function decodeAttention(
  ctx: GpuContext,
  out: Tensor,
  q: Tensor,
  kcache: Tensor,
  vcache: Tensor,
  mask: Tensor,
  L: number,
  opts: DecodeAttentionOptions = {},
): void {
  if (kcache.shape.length !== 4 || kcache.dtype !== "f32")
    throw new RangeError(`decodeAttention: kcache ${kcache} must be [B, H, Tmax, hs] f32`);
  if (vcache.dtype !== "f32" || vcache.shape.join() !== kcache.shape.join())
    throw new RangeError(`decodeAttention: vcache ${vcache} must match kcache ${kcache}`);
  const [B, H, Tmax, hs] = kcache.shape;
  if (Tmax < 1) throw new RangeError(`decodeAttention: the cache ${kcache} has no positions`);
  const C = H * hs;
  const qStride = q.shape[q.shape.length - 1];
  if (q.dtype !== "f32" || q.shape.length !== 2 || q.shape[0] !== B || (qStride !== C && qStride !== 3 * C))
    throw new RangeError(`decodeAttention: q ${q} must be [${B}, ${C}] or [${B}, ${3 * C}] (qkv) f32`);
  if (mask.dtype !== "f32" || mask.size !== B * Tmax)
    throw new RangeError(`decodeAttention: mask ${mask} must be [${B}, ${Tmax}] f32`);
  if (out.dtype !== "f32" || out.size !== B * C)
    throw new RangeError(`decodeAttention: out ${out} must be [${B}, ${C}] f32`);
  if (!Number.isInteger(L) || L < 0 || L > Tmax)
    throw new RangeError(`decodeAttention: length L=${L} must be in 0 … Tmax=${Tmax}`);
  const width = opts.width ?? preferredRowWidth(ctx, Tmax);
  checkWidth("decodeAttention", width);
  const bytes = (Tmax + 2 * width) * 4;
  const limit = ctx.device.limits.maxComputeWorkgroupStorageSize;
  if (bytes > limit)
    throw new RangeError(
      `decodeAttention: Tmax=${Tmax} needs ${bytes} B of workgroup memory; the device has ${limit}`,
    );
  ctx.dispatch(decodeAttentionKernel(width), {
    bindings: [
      params(
        ["u32", B * H],
        ["u32", H],
        ["u32", hs],
        ["u32", L],
        ["u32", qStride],
        ["f32", 1 / Math.sqrt(hs)],
      ),
      q,
      kcache,
      vcache,
      mask,
      out,
    ],
    workgroups: B * H,
    constants: { T_MAX: Tmax },
  });
}
