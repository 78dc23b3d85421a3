/**
 * Strided row gather (src/shaders/gather_rows.wgsl); CPU twin: src/reference/gather_rows.ts.
 * Test: test/kernels/generation_helpers.test.ts.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/gather_rows.wgsl?raw";

/**
 * Kernel handle of {@link gatherRows} (256 threads a workgroup); plain data: each GpuContext compiles it on
 * first dispatch and keeps it; nothing to destroy.
 */
export const gatherRowsKernel = defineKernel({
  name: "gather_rows",
  source,
  bindings: ["uniform", "read-only-storage", "storage"],
  workgroupSize: [256],
});

/**
 * Record out[i, :] = x[offset + i·stride, :] for i < rows. x: [R, cols]; out: [rows, cols].
 * @throws RangeError if a gathered row lies outside x or out has the wrong size.
 */
export function gatherRows(
  ctx: GpuContext,
  out: Tensor,
  x: Tensor,
  o: { cols: number; stride: number; offset: number },
): void {
  const rows = out.size / o.cols;
  if (!Number.isInteger(rows))
    throw new RangeError(`gatherRows: out ${out} is not a multiple of ${o.cols} columns`);
  if (rows > 0 && (o.offset + (rows - 1) * o.stride + 1) * o.cols > x.size)
    throw new RangeError(`gatherRows: row ${o.offset + (rows - 1) * o.stride} lies outside ${x}`);
  ctx.dispatch(gatherRowsKernel, {
    bindings: [params(["u32", rows], ["u32", o.cols], ["u32", o.stride], ["u32", o.offset]), x, out],
    workgroups: Math.ceil(out.size / gatherRowsKernel.invocations),
  });
}
