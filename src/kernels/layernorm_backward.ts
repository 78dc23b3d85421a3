/**
 * Layer norm backward: dx (src/shaders/layernorm_backward.wgsl) and dweight/dbias
 * (src/shaders/layernorm_param_grad.wgsl); CPU twin: src/reference/layernorm.ts.
 * Test: test/kernels/layernorm.test.ts.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import dxSource from "../shaders/layernorm_backward.wgsl?raw";
import paramSource from "../shaders/layernorm_param_grad.wgsl?raw";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";
import { columnBlock, preferredColumnLanes } from "./workgroup_shapes";

/** The dx kernel at a given width (threads per row, a power of two ≤ 256). */
export const layernormBackwardKernel = widthFamily({
  name: "layernorm_backward",
  source: dxSource,
  bindings: ["uniform", ...Array<"read-only-storage">(5).fill("read-only-storage"), "storage"],
});

/** The dweight/dbias kernel with `lanes` row lanes per column (a power of two ≤ 256). */
export const layernormParamGradKernel = widthFamily(
  {
    name: "layernorm_param_grad",
    source: paramSource,
    bindings: ["uniform", ...Array<"read-only-storage">(4).fill("read-only-storage"), "storage", "storage"],
  },
  (lanes) => [columnBlock(lanes), lanes],
);

export interface LayernormBackwardOptions {
  /** dx += the input gradient instead of dx = (the residual stream sums its gradients). Default false. */
  accumulate?: boolean;
  /** Threads per row of the dx kernel, a power of two in [1, 256]. Default `preferredRowWidth(ctx, C)`. */
  width?: number;
  /** Row lanes per column of the dweight/dbias kernel, a power of two in [1, 256]. Default
   * `preferredColumnLanes(ctx, N)`. */
  lanes?: number;
}

/**
 * Record the layer norm backward pass (llm.c `layernorm_backward`), two dispatches:
 * - dx[n, c] (= or +=, see `accumulate`) rstd[n]·(g − mean_c(g) − norm·mean_c(g·norm)), g = dout·weight,
 *   norm = (x − mean)·rstd;
 * - dweight[c] += Σ_n dout[n, c]·norm[n, c] and dbias[c] += Σ_n dout[n, c]: ALWAYS accumulated (weight gradients
 *   are zeroed once per step), in a fixed order (bit-identical run to run).
 *
 * Shapes: dout, x, dx [..., C] (N = B·T rows); weight, dweight, dbias [C]; mean, rstd [N] from {@link layernorm}.
 * dx must not alias dout or x.
 * Source: Ba et al. 2016, eq. 4, differentiated; karpathy/llm.c.
 * @throws RangeError when C < 1, a tensor's size does not match, or width/lanes is not a power of two ≤ 256.
 */
export function layernormBackward(
  ctx: GpuContext,
  dx: Tensor,
  dweight: Tensor,
  dbias: Tensor,
  dout: Tensor,
  x: Tensor,
  weight: Tensor,
  mean: Tensor,
  rstd: Tensor,
  opts: LayernormBackwardOptions = {},
): void {
  const C = x.shape[x.shape.length - 1] ?? 0;
  if (C < 1) throw new RangeError(`layernormBackward: x ${x} needs a last dimension C ≥ 1`);
  const N = x.size / C;
  if (dout.size !== x.size || dx.size !== x.size)
    throw new RangeError(`layernormBackward: dout ${dout} and dx ${dx} must match x ${x}`);
  if (weight.size !== C || dweight.size !== C || dbias.size !== C)
    throw new RangeError(
      `layernormBackward: weight ${weight}, dweight ${dweight}, dbias ${dbias} need C = ${C} elements`,
    );
  if (mean.size !== N || rstd.size !== N)
    throw new RangeError(`layernormBackward: mean ${mean} and rstd ${rstd} need N = ${N} elements`);
  const width = opts.width ?? preferredRowWidth(ctx, C);
  checkWidth("layernormBackward", width, "width");
  const lanes = opts.lanes ?? preferredColumnLanes(ctx, N);
  checkWidth("layernormBackward", lanes, "lanes");
  const shape = params(["u32", N], ["u32", C]);
  ctx.dispatch(layernormBackwardKernel(width), {
    bindings: [shape, dout, x, weight, mean, rstd, dx],
    workgroups: N,
    constants: { ACCUMULATE: !!opts.accumulate },
  });
  ctx.dispatch(layernormParamGradKernel(lanes), {
    bindings: [shape, dout, x, mean, rstd, dweight, dbias],
    workgroups: Math.ceil(C / columnBlock(lanes)),
  });
}
