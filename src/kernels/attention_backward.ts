/**
 * Causal multi-head self-attention, backward: two dispatches, query rows (src/shaders/attention_backward.wgsl:
 * dS and dq) then key columns (src/shaders/attention_backward_kv.wgsl: dk and dv). Every output is a gather in a
 * fixed order, so the result is deterministic without atomics. CPU twin: src/reference/attention_backward.ts.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import queryRowsSource from "../shaders/attention_backward.wgsl?raw";
import keyColumnsSource from "../shaders/attention_backward_kv.wgsl?raw";
import { type AttentionOptions, checkAttentionShape } from "./attention";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";

/** Stage 1 (dS, dq) at a workgroup width (threads per query row, a power of two ≤ 256). */
export const attentionBackwardKernel = widthFamily({
  name: "attention_backward",
  source: queryRowsSource,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "read-only-storage", "storage", "storage"],
});

/** Stage 2 (dk, dv): one thread per output pair, no barriers. */
export const attentionBackwardKvKernel = defineKernel({
  name: "attention_backward_kv",
  source: keyColumnsSource,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
  ],
  workgroupSize: [64],
});

/**
 * Record the backward pass of {@link attentionForward}: dqkv = ∂L/∂qkv from dout = ∂L/∂out and the saved P.
 *
 * @param dqkv [B, T, 3C], OVERWRITTEN (an input gradient; no accumulate option): dq, dk, dv column blocks.
 *   Padding positions get 0 (as keys they have P = 0; as queries with no visible key, dS = 0).
 * @param dS [B, H, T, T] scratch, overwritten with ∂L/∂S = P ⊙ (dP − rowsum(P ⊙ dP)), S = q·kᵀ/√hs.
 * @param dout [B, T, C]: gradient of the attention output.
 * @param qkv [B, T, 3C]: the forward input.
 * @param P [B, H, T, T]: the forward probabilities from attentionForward (entries with P = 0 are skipped).
 * @param o sizes B, T, C, H and the workgroup width of stage 1 (default `preferredRowWidth(ctx, T)`).
 * @throws RangeError for non-positive sizes, H not dividing C, tensor sizes that do not match, a bad width.
 * Source: softmax Jacobian dS = P ⊙ (dP − rowsum(P ⊙ dP)) (e.g. llm.c attention_backward; Vaswani et al. 2017 eq. 1).
 */
export function attentionBackward(
  ctx: GpuContext,
  dqkv: Tensor,
  dS: Tensor,
  dout: Tensor,
  qkv: Tensor,
  P: Tensor,
  o: AttentionOptions,
): void {
  const { B, T, C, H } = o;
  checkAttentionShape("attentionBackward", o, [
    ["dqkv", dqkv, B * T * 3 * C],
    ["dS", dS, B * H * T * T],
    ["dout", dout, B * T * C],
    ["qkv", qkv, B * T * 3 * C],
    ["P", P, B * H * T * T],
  ]);
  const width = o.width ?? preferredRowWidth(ctx, T);
  checkWidth("attentionBackward", width);
  const hs = C / H;
  const uniforms = params(
    ["u32", B],
    ["u32", T],
    ["u32", C],
    ["u32", H],
    ["u32", hs],
    ["f32", 1 / Math.sqrt(hs)],
  );
  ctx.dispatch(attentionBackwardKernel(width), {
    bindings: [uniforms, dout, qkv, P, dqkv, dS],
    workgroups: B * H * T,
  });
  ctx.dispatch(attentionBackwardKvKernel, {
    bindings: [uniforms, dout, qkv, P, dS, dqkv],
    workgroups: Math.ceil((B * H * T * hs) / attentionBackwardKvKernel.invocations),
  });
}
