/** Elementwise kernels (src/shaders/elementwise.wgsl); CPU twin: src/reference/elementwise.ts. */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import { BINARY_OPS, ELEMENTWISE_OPS, type ElementwiseOp } from "../reference/elementwise";
import source from "../shaders/elementwise.wgsl?raw";

/**
 * Kernel handle of {@link elementwise} (256 threads a workgroup; override OP picks the op); plain data: each
 * GpuContext compiles it on first dispatch and keeps it; nothing to destroy.
 */
export const elementwiseKernel = defineKernel({
  name: "elementwise",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage"],
  workgroupSize: [256],
});

/**
 * Record out = op(a, b) over all elements: add a + b, sub a − b, mul a·b, axpy α·a + b, scale α·a, exp, relu,
 * copy. f32 only: a, b and out are read and written as f32 (dtypes are not checked), all of one size n (any shape).
 * `b` is required for add/sub/mul/axpy and ignored otherwise; `alpha` (α, default 1, rounded to f32) is used by
 * axpy and scale only. `out` must not share a buffer with `a` or `b` (a WebGPU validation error at the next read).
 * @throws RangeError if sizes differ or a binary op gets no `b`.
 */
export function elementwise(
  ctx: GpuContext,
  op: ElementwiseOp,
  out: Tensor,
  a: Tensor,
  b: Tensor | null = null,
  alpha = 1,
): void {
  if (BINARY_OPS.has(op) && !b) throw new RangeError(`elementwise ${op} needs two inputs`);
  if (out.size !== a.size || (b && b.size !== a.size))
    throw new RangeError(`elementwise ${op}: sizes ${out.size}, ${a.size}, ${b?.size} differ`);
  const n = a.size;
  ctx.dispatch(elementwiseKernel, {
    bindings: [params(["u32", n], ["f32", alpha]), a, b ?? a, out],
    workgroups: Math.ceil(n / elementwiseKernel.invocations),
    constants: { OP: ELEMENTWISE_OPS.indexOf(op) },
  });
}
