/** Fill a tensor with one value (src/shaders/fill.wgsl); CPU twin: src/reference/fill.ts. */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/fill.wgsl?raw";

/**
 * Kernel handle of {@link fill} (256 threads a workgroup); plain data: each GpuContext compiles it on first
 * dispatch and keeps it; nothing to destroy.
 */
export const fillKernel = defineKernel({
  name: "fill",
  source,
  bindings: ["uniform", "storage"],
  workgroupSize: [256],
});

/** The 32-bit pattern of `value` in `dtype` (f32 rounds; i32/u32 must be integers in range). */
function bitsOf(value: number, dtype: Tensor["dtype"]): number {
  const dv = new DataView(new ArrayBuffer(4));
  switch (dtype) {
    case "f32":
      dv.setFloat32(0, value, true);
      break;
    case "i32":
      if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31)
        throw new RangeError(`fill: ${value} is not an i32`);
      dv.setInt32(0, value, true);
      break;
    case "u32":
      if (!Number.isInteger(value) || value < 0 || value >= 2 ** 32)
        throw new RangeError(`fill: ${value} is not a u32`);
      dv.setUint32(0, value, true);
      break;
  }
  return dv.getUint32(0, true);
}

/**
 * Record t[:] = value over every element of `t` (any size: above 65535·256 elements the grid is 2D).
 * @param t the tensor (or view) to fill, of any dtype; only its own elements are written.
 * @param value stored rounded to f32 for f32 tensors (NaN and ±∞ included); an integer for i32/u32 tensors.
 * @throws RangeError if `value` does not fit an i32/u32 tensor.
 */
export function fill(ctx: GpuContext, t: Tensor, value: number): void {
  const n = t.size;
  ctx.dispatch(fillKernel, {
    bindings: [params(["u32", n], ["u32", bitsOf(value, t.dtype)]), t],
    workgroups: Math.ceil(n / fillKernel.invocations),
  });
}
