/**
 * Workgroup shapes of the layer kernels (layer norm, GELU, embedding, column sums): validation of a row
 * kernel's `width` and the column-sum layout. Row widths default to `preferredRowWidth` (src/kernels/variants.ts).
 */
import type { GpuContext } from "../gpu/context";
import { pow2AtLeast } from "./variants";

/** Most threads in one workgroup for these kernels (WebGPU's default maxComputeInvocationsPerWorkgroup). */
export const MAX_WORKGROUP_THREADS = 256;

/** Widest column block of a column-sum kernel (columns per workgroup when it has a single row lane). */
export const MAX_COLUMN_BLOCK = 64;

/**
 * Check that `value` (a `width` or `lanes` option) is a power of two in [1, 256].
 * @throws RangeError naming the op and the option.
 */
export function checkPow2(op: string, option: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_WORKGROUP_THREADS || (value & (value - 1)) !== 0)
    throw new RangeError(
      `${op}: ${option} must be a power of two in [1, ${MAX_WORKGROUP_THREADS}], got ${value}`,
    );
}

/**
 * Row lanes for a column sum over `rows` rows: threads that share one column and meet in a shared-memory tree.
 * 1 on software adapters (no barriers; each thread walks its whole column), else up to 16 (16 columns × 16
 * lanes = 256 threads, 64-byte coalesced row segments).
 */
export function preferredColumnLanes(ctx: GpuContext, rows: number): number {
  return ctx.adapter.isSoftware ? 1 : pow2AtLeast(rows, 16);
}

/** Columns per workgroup for a column sum with `lanes` row lanes: 256 / lanes threads wide, at most 64. */
export function columnBlock(lanes: number): number {
  return Math.min(MAX_COLUMN_BLOCK, MAX_WORKGROUP_THREADS / lanes);
}
