/**
 * Workgroup shapes of the column-sum kernels (layer norm parameter gradients, bias gradients): row lanes per
 * column and columns per workgroup. Row widths default to `preferredRowWidth` (src/kernels/variants.ts).
 */
import type { GpuContext } from "../gpu/context";
import { MAX_ROW_WIDTH, pow2AtLeast } from "./variants";

/** Widest column block of a column-sum kernel (columns per workgroup when it has a single row lane). */
export const MAX_COLUMN_BLOCK = 64;

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
  return Math.min(MAX_COLUMN_BLOCK, MAX_ROW_WIDTH / lanes);
}
