/**
 * GELU, GPT-2's tanh approximation: forward (src/shaders/gelu.wgsl) and backward (src/shaders/gelu_backward.wgsl);
 * CPU twin: src/reference/gelu.ts.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import forwardSource from "../shaders/gelu.wgsl?raw";
import backwardSource from "../shaders/gelu_backward.wgsl?raw";

/**
 * Kernel handle of {@link gelu} (256 threads a workgroup); plain data: each GpuContext compiles it on first
 * dispatch and keeps it; nothing to destroy.
 */
export const geluKernel = defineKernel({
  name: "gelu",
  source: forwardSource,
  bindings: ["uniform", "read-only-storage", "storage"],
  workgroupSize: [256],
});

/** Kernel handle of {@link geluBackward} (256 threads a workgroup); plain data, as geluKernel. */
export const geluBackwardKernel = defineKernel({
  name: "gelu_backward",
  source: backwardSource,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage"],
  workgroupSize: [256],
});

/**
 * Record out = gelu(x) = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) elementwise (Hendrycks & Gimpel 2016, §2;
 * GPT-2's MLP). Finite for every finite x. Shapes: x and out of equal size (any shape, e.g. [B, T, 4C]);
 * out overwrites and must not alias x.
 * @throws RangeError if the sizes differ.
 */
export function gelu(ctx: GpuContext, out: Tensor, x: Tensor): void {
  if (out.size !== x.size) throw new RangeError(`gelu: out ${out} and x ${x} differ in size`);
  ctx.dispatch(geluKernel, {
    bindings: [params(["u32", x.size]), x, out],
    workgroups: Math.ceil(x.size / geluKernel.invocations),
  });
}

export interface GeluBackwardOptions {
  /** dx += dout·gelu'(x) instead of dx = dout·gelu'(x). Default false (overwrite). */
  accumulate?: boolean;
}

/**
 * Record dx = dout·gelu'(x) (or dx += with `accumulate`), gelu' the derivative of the tanh approximation.
 * Finite for every finite x. Shapes: dx, dout, x of equal size; dx must not alias dout or x.
 * @throws RangeError if the sizes differ.
 */
export function geluBackward(
  ctx: GpuContext,
  dx: Tensor,
  dout: Tensor,
  x: Tensor,
  opts: GeluBackwardOptions = {},
): void {
  if (dx.size !== x.size || dout.size !== x.size)
    throw new RangeError(`geluBackward: dx ${dx}, dout ${dout} and x ${x} differ in size`);
  ctx.dispatch(geluBackwardKernel, {
    bindings: [params(["u32", x.size]), x, dout, dx],
    workgroups: Math.ceil(x.size / geluBackwardKernel.invocations),
    constants: { ACCUMULATE: !!opts.accumulate },
  });
}
