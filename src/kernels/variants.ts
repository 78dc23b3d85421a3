/**
 * Kernel variants per adapter. Row kernels (reductions, softmax, layer norm, ...) can run one row per workgroup
 * with a tree reduction (fast on real GPUs) or with few threads per row (fast on software adapters, where every
 * workgroup barrier and every extra invocation costs: a 70 000 × 3 reduction takes 0.4 s at width 4 and 166 s
 * at width 256 on SwiftShader). Wrappers take an explicit `width` (tests cover several) and default to this.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel, type Kernel, type KernelSpec } from "../gpu/pipeline";

/** The smallest power of two ≥ n, clamped to [1, max]. */
export function pow2AtLeast(n: number, max = 256): number {
  let w = 1;
  while (w < n && w < max) w *= 2;
  return w;
}

/**
 * Workgroup width (threads per row, a power of two ≤ 256) for a row kernel over rows of `cols` elements:
 * 1 on software adapters, else the smallest power of two ≥ cols up to 256.
 */
export function preferredRowWidth(ctx: GpuContext, cols: number): number {
  return ctx.adapter.isSoftware ? 1 : pow2AtLeast(cols);
}

/** Most threads in one workgroup for the row kernels (WebGPU's default maxComputeInvocationsPerWorkgroup). */
export const MAX_ROW_WIDTH = 256;

/**
 * Check a `width`/`lanes` option: a power of two in [1, 256].
 * @throws RangeError naming the op and the option.
 */
export function checkWidth(op: string, value: number, option = "width"): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_ROW_WIDTH || (value & (value - 1)) !== 0)
    throw new RangeError(`${op}: ${option} must be a power of two in [1, ${MAX_ROW_WIDTH}], got ${value}`);
}

/**
 * A kernel defined once per workgroup width (each width is its own pipeline; the shader reads the size as
 * WG_X/WG_Y). `shape(width)` gives the workgroup size, [width] by default. `family(width)` returns the same
 * Kernel object for the same width.
 */
export function widthFamily(
  spec: Omit<KernelSpec, "workgroupSize">,
  shape: (width: number) => KernelSpec["workgroupSize"] = (width) => [width],
): (width: number) => Kernel {
  const byWidth = new Map<number, Kernel>();
  return (width) => {
    let k = byWidth.get(width);
    if (!k) {
      k = defineKernel({ ...spec, workgroupSize: shape(width) });
      byWidth.set(width, k);
    }
    return k;
  };
}
