/** Column sum, a linear layer's bias gradient (src/shaders/colsum.wgsl); CPU twin: src/reference/colsum.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/colsum.wgsl?raw";
import { checkWidth, widthFamily } from "./variants";
import { columnBlock, preferredColumnLanes } from "./workgroup_shapes";

/** The colsum kernel with `lanes` row lanes per column (a power of two ≤ 256). */
export const colsumKernel = widthFamily(
  { name: "colsum", source, bindings: ["uniform", "read-only-storage", "storage"] },
  (lanes) => [columnBlock(lanes), lanes],
);

export interface ColsumOptions {
  /** Row lanes per column, a power of two in [1, 256]. Default `preferredColumnLanes(ctx, N)`. */
  lanes?: number;
}

/**
 * Record dbias[c] += Σ_n dout[n, c], the bias gradient of y = x·W + b (b broadcast over rows). ACCUMULATES
 * (weight gradients are zeroed once per step); the summation order is fixed, so results are bit-identical run
 * to run. Shapes: dout [..., C] (N = B·T rows, leading dims flattened), dbias [C].
 * @throws RangeError when dbias does not have C elements or lanes is not a power of two ≤ 256.
 */
export function colsum(ctx: GpuContext, dbias: Tensor, dout: Tensor, opts: ColsumOptions = {}): void {
  const C = dout.shape[dout.shape.length - 1] ?? 1;
  if (dbias.size !== C)
    throw new RangeError(`colsum: dbias ${dbias} needs C = ${C} elements for dout ${dout}`);
  if (C === 0) return;
  const N = dout.size / C;
  const lanes = opts.lanes ?? preferredColumnLanes(ctx, N);
  checkWidth("colsum", lanes, "lanes");
  ctx.dispatch(colsumKernel(lanes), {
    bindings: [params(["u32", N], ["u32", C]), dout, dbias],
    workgroups: Math.ceil(C / columnBlock(lanes)),
  });
}
