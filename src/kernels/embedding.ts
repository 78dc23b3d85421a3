/**
 * GPT-2 input embedding: forward (src/shaders/embedding.wgsl) and backward (src/shaders/embedding_backward.wgsl);
 * CPU twin: src/reference/embedding.ts. The backward takes a CSR index built on the CPU
 * (src/kernels/embedding_index.ts) so that it is deterministic without float atomics.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import forwardSource from "../shaders/embedding.wgsl?raw";
import backwardSource from "../shaders/embedding_backward.wgsl?raw";
import type { GpuScatterIndex } from "./embedding_index";

/**
 * Kernel handle of {@link embedding} (256 threads a workgroup); plain data: each GpuContext compiles it on
 * first dispatch and keeps it; nothing to destroy.
 */
export const embeddingKernel = defineKernel({
  name: "embedding",
  source: forwardSource,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
  ],
  workgroupSize: [256],
});

/** Kernel handle of {@link embeddingBackward} (256 threads a workgroup); plain data, as embeddingKernel. */
export const embeddingBackwardKernel = defineKernel({
  name: "embedding_backward",
  source: backwardSource,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
  ],
  workgroupSize: [256],
});

function table(op: string, name: string, t: Tensor): [number, number] {
  if (t.shape.length !== 2) throw new RangeError(`${op}: ${name} ${t} must be 2-D [rows, C]`);
  return [t.shape[0], t.shape[1]];
}

/**
 * Record out[b, t, :] = wte[tokens[b, t], :] + wpe[positions[b, t], :] (GPT-2; llm.c `encoder_forward`).
 * Positions are explicit ids, so a left-padded prompt can start at position 0 at its first real token.
 * Out-of-range ids (token ∉ [0, V), position ∉ [0, maxT), e.g. a −1 padding id) contribute ZEROS for that
 * table; the shader checks, since the wrapper cannot see GPU data.
 *
 * Shapes: tokens, positions [B, T] i32 (any shape of N = B·T ids); wte [V, C]; wpe [maxT, C]; out [B, T, C]
 * (N·C elements). out overwrites.
 * @throws TypeError if tokens/positions are not i32; RangeError if a shape does not match.
 */
export function embedding(
  ctx: GpuContext,
  out: Tensor,
  tokens: Tensor,
  positions: Tensor,
  wte: Tensor,
  wpe: Tensor,
): void {
  if (tokens.dtype !== "i32" || positions.dtype !== "i32")
    throw new TypeError(`embedding: tokens ${tokens} and positions ${positions} must be i32`);
  const [V, C] = table("embedding", "wte", wte);
  const [maxT, Cp] = table("embedding", "wpe", wpe);
  if (Cp !== C) throw new RangeError(`embedding: wte ${wte} and wpe ${wpe} differ in C`);
  const N = tokens.size;
  if (positions.size !== N)
    throw new RangeError(`embedding: positions ${positions} must match tokens ${tokens}`);
  if (out.size !== N * C) throw new RangeError(`embedding: out ${out} needs N·C = ${N}·${C} elements`);
  ctx.dispatch(embeddingKernel, {
    bindings: [
      params(["u32", N * C], ["u32", C], ["u32", V], ["u32", maxT]),
      tokens,
      positions,
      wte,
      wpe,
      out,
    ],
    workgroups: Math.ceil((N * C) / embeddingKernel.invocations),
  });
}

/**
 * Record the gradient of one embedding table: dW[v, :] += Σ_{n : ids[n] = v} dout[n, :], for dwte (index built
 * from the token ids, numRows = V) and for dwpe (from the position ids, numRows = maxT) (llm.c
 * `encoder_backward`). ACCUMULATES (weight gradients are zeroed once per step). Deterministic: each (id, c) is
 * summed by one thread over the index's positions in ascending order. Ids dropped by `buildScatterIndex`
 * (out of range) get no gradient; the shader also skips row ids ≥ rows and positions ≥ N.
 *
 * Shapes: dW [rows, C] (wte: [V, C], wpe: [maxT, C]); dout [..., C] (N = B·T rows); `index` from
 * `uploadScatterIndex(ctx, buildScatterIndex(ids, rows))`.
 * @throws TypeError if the index tensors are not u32; RangeError if a shape does not match or the index
 *   tensors are too small for `index.numUnique`.
 */
export function embeddingBackward(ctx: GpuContext, dW: Tensor, dout: Tensor, index: GpuScatterIndex): void {
  const [rows, C] = table("embeddingBackward", "dW", dW);
  if (C === 0 || dout.size % C !== 0 || (dout.shape[dout.shape.length - 1] ?? 0) !== C)
    throw new RangeError(`embeddingBackward: dout ${dout} must be [..., C] with C = ${C} of dW ${dW}`);
  const N = dout.size / C;
  const U = index.numUnique;
  const { rowIds, offsets, positions } = index;
  if (rowIds.dtype !== "u32" || offsets.dtype !== "u32" || positions.dtype !== "u32")
    throw new TypeError("embeddingBackward: the index tensors must be u32");
  if (!Number.isInteger(U) || U < 0 || rowIds.size < U || offsets.size < U + 1)
    throw new RangeError(
      `embeddingBackward: index with ${U} ids needs rowIds ≥ ${U} and offsets ≥ ${U + 1} elements, got ${rowIds}, ${offsets}`,
    );
  ctx.dispatch(embeddingBackwardKernel, {
    bindings: [
      params(["u32", U * C], ["u32", C], ["u32", rows], ["u32", N]),
      dout,
      rowIds,
      offsets,
      positions,
      dW,
    ],
    workgroups: Math.ceil((U * C) / embeddingBackwardKernel.invocations),
  });
}
