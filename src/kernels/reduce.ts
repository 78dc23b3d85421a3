/** Row-wise reductions (src/shaders/reduce_rows.wgsl); CPU twin: src/reference/reduce.ts. */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import type { ReduceOp } from "../reference/reduce";
import source from "../shaders/reduce_rows.wgsl?raw";

export const reduceRowsKernel = defineKernel({
  name: "reduce_rows",
  source,
  bindings: ["uniform", "read-only-storage", "storage"],
  workgroupSize: [256], // a power of two: the shader's tree reduction halves it
});

/**
 * Record out[r] = sum/max of x[r, :] for x of shape [..., C] (all leading dims are rows).
 * @throws RangeError if out does not hold one value per row.
 */
export function reduceRows(ctx: GpuContext, op: ReduceOp, out: Tensor, x: Tensor): void {
  const cols = x.shape[x.shape.length - 1] ?? 1;
  const rows = cols === 0 ? out.size : x.size / cols;
  if (out.size !== rows) throw new RangeError(`reduceRows: out has ${out.size} elements for ${rows} rows`);
  ctx.dispatch(reduceRowsKernel, {
    bindings: [params(["u32", rows], ["u32", cols]), x, out],
    workgroups: rows,
    constants: { OP: op === "max" ? 1 : 0 },
  });
}
