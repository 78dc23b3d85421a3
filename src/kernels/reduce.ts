/** Row-wise reductions (src/shaders/reduce_rows.wgsl); CPU twin: src/reference/reduce.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import type { ReduceOp } from "../reference/reduce";
import source from "../shaders/reduce_rows.wgsl?raw";
import { pow2AtLeast, widthFamily } from "./variants";

/** Widest workgroup: rows of ≥ 256 elements reduce with 256 threads (a power of two for the tree). */
export const REDUCE_MAX_WIDTH = 256;

/**
 * The workgroup width for rows of `cols` elements: the smallest power of two ≥ cols, at most 256. Narrow rows
 * get narrow workgroups: each tree level is a barrier, and barriers dominate on software adapters (a 70 000 × 3
 * reduction takes 0.4 s at width 4 and 166 s at width 256 on SwiftShader).
 */
export function reduceWidth(cols: number): number {
  return pow2AtLeast(cols, REDUCE_MAX_WIDTH);
}

/** The reduce_rows kernel at a given workgroup width (a power of two ≤ 256). */
export const reduceRowsKernel = widthFamily({
  name: "reduce_rows",
  source,
  bindings: ["uniform", "read-only-storage", "storage"],
});

/**
 * Record out[r] = sum/max of x[r, :] for x of shape [..., C] (all leading dims are rows). One workgroup per row.
 * @throws RangeError if out does not hold one value per row.
 */
export function reduceRows(ctx: GpuContext, op: ReduceOp, out: Tensor, x: Tensor): void {
  const cols = x.shape[x.shape.length - 1] ?? 1;
  const rows = cols === 0 ? out.size : x.size / cols;
  if (out.size !== rows) throw new RangeError(`reduceRows: out has ${out.size} elements for ${rows} rows`);
  ctx.dispatch(reduceRowsKernel(reduceWidth(cols)), {
    bindings: [params(["u32", rows], ["u32", cols]), x, out],
    workgroups: rows,
    constants: { OP: op === "max" ? 1 : 0 },
  });
}
