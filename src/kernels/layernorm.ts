/** Layer norm forward (src/shaders/layernorm.wgsl); CPU twin: src/reference/layernorm.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/layernorm.wgsl?raw";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";

/** GPT-2's layer norm epsilon (PyTorch's default). */
export const LAYERNORM_EPS = 1e-5;

/** The layernorm kernel at a given workgroup width (threads per row, a power of two ≤ 256). */
export const layernormKernel = widthFamily({
  name: "layernorm",
  source,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
    "storage",
    "storage",
  ],
});

export interface LayernormOptions {
  /** Added to the variance before the square root; > 0. Default {@link LAYERNORM_EPS} (1e-5). */
  eps?: number;
  /** Threads per row, a power of two in [1, 256]. Default `preferredRowWidth(ctx, C)`. */
  width?: number;
}

/**
 * Record the layer norm of each row of x (llm.c `layernorm_forward`):
 * out[n, c] = (x[n, c] − mean[n]) · rstd[n] · weight[c] + bias[c], rstd[n] = 1 / sqrt(var[n] + eps) with the
 * biased variance (divide by C). `mean` and `rstd` are written for {@link layernormBackward}.
 *
 * Shapes: x and out [..., C] (N = B·T rows, leading dims flattened), weight and bias [C], mean and rstd [N].
 * Outputs overwrite; out must not alias x (WebGPU forbids a buffer bound read-only and writable at once).
 * Source: Ba et al. 2016, "Layer Normalization", eq. 4.
 * @throws RangeError when C < 1, a tensor's size does not match, eps ≤ 0 or width is not a power of two ≤ 256.
 */
export function layernorm(
  ctx: GpuContext,
  out: Tensor,
  mean: Tensor,
  rstd: Tensor,
  x: Tensor,
  weight: Tensor,
  bias: Tensor,
  opts: LayernormOptions = {},
): void {
  const C = x.shape[x.shape.length - 1] ?? 0;
  if (C < 1) throw new RangeError(`layernorm: x ${x} needs a last dimension C ≥ 1`);
  const N = x.size / C;
  if (out.size !== x.size) throw new RangeError(`layernorm: out ${out} does not match x ${x}`);
  if (weight.size !== C || bias.size !== C)
    throw new RangeError(`layernorm: weight ${weight} and bias ${bias} need C = ${C} elements`);
  if (mean.size !== N || rstd.size !== N)
    throw new RangeError(`layernorm: mean ${mean} and rstd ${rstd} need N = ${N} elements`);
  const eps = opts.eps ?? LAYERNORM_EPS;
  if (!(eps > 0)) throw new RangeError(`layernorm: eps must be > 0, got ${eps}`);
  const width = opts.width ?? preferredRowWidth(ctx, C);
  checkWidth("layernorm", width, "width");
  ctx.dispatch(layernormKernel(width), {
    bindings: [params(["u32", N], ["u32", C], ["f32", eps]), x, weight, bias, out, mean, rstd],
    workgroups: N,
  });
}
