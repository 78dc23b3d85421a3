/**
 * Causal multi-head self-attention, forward (src/shaders/attention.wgsl); CPU twin: src/reference/attention.ts.
 *
 * Design: one fused kernel, one workgroup per query row (b, h, t). For the model sizes this app trains (T ≤ 128,
 * hs ≤ 64) a row is at most 128 scores, so one workgroup computes scores, softmax and P·V without any extra
 * dispatch, permute or [B, H, T, T] score buffer beyond the P the backward pass needs anyway; P's row doubles as
 * score scratch, so there is no shared-memory limit on T or hs. (A matmul-based composition would need
 * permute/unpermute kernels and a separate softmax, three more dispatches and round trips through memory.)
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import type { AttentionShape } from "../reference/attention";
import source from "../shaders/attention.wgsl?raw";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";

export type { AttentionShape } from "../reference/attention";

/** The forward attention kernel at a workgroup width (threads per query row, a power of two ≤ 256). */
export const attentionKernel = widthFamily({
  name: "attention",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage", "storage"],
});

/**
 * Throw a RangeError unless B, T, C, H are positive integers with H dividing C, and each tensor has the
 * element count its shape implies (`[name, tensor, elements]`).
 */
export function checkAttentionShape(
  op: string,
  s: AttentionShape,
  tensors: readonly (readonly [string, Tensor | null, number])[],
): void {
  for (const k of ["B", "T", "C", "H"] as const)
    if (!Number.isInteger(s[k]) || s[k] < 1)
      throw new RangeError(`${op}: ${k} must be a positive integer, got ${s[k]}`);
  if (s.C % s.H !== 0) throw new RangeError(`${op}: C=${s.C} is not divisible by H=${s.H}`);
  for (const [name, t, n] of tensors)
    if (t && t.size !== n)
      throw new RangeError(
        `${op}: ${name} ${t} has ${t.size} elements, expected ${n} for B=${s.B} T=${s.T} C=${s.C} H=${s.H}`,
      );
}

export interface AttentionOptions extends AttentionShape {
  /** Threads per query row, a power of two ≤ 256. Default `preferredRowWidth(ctx, T)`. */
  width?: number;
}

/**
 * Record causal multi-head self-attention: out = softmax(q·kᵀ/√hs, causal + key-padding mask)·v per head.
 *
 * @param out [B, T, C], overwritten: the heads' outputs side by side (head h in columns h·hs .. (h+1)·hs − 1).
 * @param P [B, H, T, T], overwritten: the probabilities, saved for {@link attentionBackward}; 0 for hidden keys.
 * @param qkv [B, T, 3C]: q = columns [0, C), k = [C, 2C), v = [2C, 3C).
 * @param mask [B, T] f32, 1 = real token, 0 = padding (padding may be on the left), or null for no padding.
 *   Query t sees keys u ≤ t with mask ≥ 0.5. A query with no visible key (left padding) gets zeros, never NaN.
 * @param o sizes B, T, C, H (hs = C/H; scale 1/√hs) and the workgroup width.
 * @throws RangeError for non-positive sizes, H not dividing C, tensor sizes that do not match, a bad width.
 * Source: Vaswani et al. 2017, "Attention Is All You Need", eq. 1 (scaled dot-product attention), causal mask.
 */
export function attentionForward(
  ctx: GpuContext,
  out: Tensor,
  P: Tensor,
  qkv: Tensor,
  mask: Tensor | null,
  o: AttentionOptions,
): void {
  const { B, T, C, H } = o;
  checkAttentionShape("attentionForward", o, [
    ["out", out, B * T * C],
    ["P", P, B * H * T * T],
    ["qkv", qkv, B * T * 3 * C],
    ["mask", mask, B * T],
  ]);
  const width = o.width ?? preferredRowWidth(ctx, T);
  checkWidth("attentionForward", width);
  const hs = C / H;
  ctx.dispatch(attentionKernel(width), {
    bindings: [
      params(["u32", B], ["u32", T], ["u32", C], ["u32", H], ["u32", hs], ["f32", 1 / Math.sqrt(hs)]),
      qkv,
      mask ?? qkv,
      out,
      P,
    ],
    workgroups: B * H * T,
    constants: { MASKED: mask !== null },
  });
}
