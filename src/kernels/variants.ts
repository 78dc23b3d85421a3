/**
 * Kernel variants per adapter. Row kernels (reductions, softmax, layer norm, ...) can run one row per workgroup
 * with a tree reduction (fast on real GPUs) or with few threads per row (fast on software adapters, where every
 * workgroup barrier and every extra invocation costs: a 70 000 × 3 reduction takes 0.4 s at width 4 and 166 s
 * at width 256 on SwiftShader). Wrappers take an explicit `width` (tests cover several) and default to this.
 */
import type { GpuContext } from "../gpu/context";

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
