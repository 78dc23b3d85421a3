/** Global gradient norm, two deterministic stages (src/shaders/grad_norm.wgsl); CPU twin: src/reference/grad_norm.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/grad_norm.wgsl?raw";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";

/** Elements per stage-1 workgroup: 16 per thread at width 256; a few million parameters give ~1000 partials. */
export const GRAD_NORM_CHUNK = 4096;

/** The grad_norm kernel (both stages; FINAL selects) at a workgroup width (a power of two ≤ 256). */
export const gradNormKernel = widthFamily({
  name: "grad_norm",
  source,
  bindings: ["uniform", "read-only-storage", "storage"],
});

/** Scratch elements {@link gradNorm} needs for a buffer of `n` gradients: ceil(n / GRAD_NORM_CHUNK), at least 1. */
export function gradNormPartials(n: number): number {
  return Math.max(1, Math.ceil(n / GRAD_NORM_CHUNK));
}

export interface GradNormOptions {
  /** Threads per workgroup, a power of two ≤ 256. Default `preferredRowWidth(ctx, GRAD_NORM_CHUNK)`. */
  width?: number;
}

/**
 * Record norm[0] = √(Σ_i grads[i]²) over the whole flat gradient buffer, on the GPU (AdamW's clipping reads it
 * there, with no CPU round trip). Two dispatches: per-chunk sums of squares into `partials`, then one workgroup
 * sums those and takes the square root. Fixed summation order: bit-identical run to run at a given width.
 * @param norm [1], overwritten (≥ 0; 0 for an empty buffer).
 * @param partials scratch of ≥ gradNormPartials(grads.size) elements, overwritten.
 * @param grads [P] flat gradients (any shape; all elements count).
 * @throws RangeError if norm has no element, partials is too small, or the width is bad.
 * Source: global-norm clipping, Pascanu et al. 2013 ("On the difficulty of training RNNs", alg. 1); PyTorch
 *   torch.nn.utils.clip_grad_norm_.
 */
export function gradNorm(
  ctx: GpuContext,
  norm: Tensor,
  partials: Tensor,
  grads: Tensor,
  o: GradNormOptions = {},
): void {
  const n = grads.size;
  const count = Math.ceil(n / GRAD_NORM_CHUNK);
  if (norm.size < 1) throw new RangeError(`gradNorm: norm ${norm} has no element`);
  if (partials.size < gradNormPartials(n))
    throw new RangeError(
      `gradNorm: partials ${partials} needs ≥ ${gradNormPartials(n)} elements for ${n} gradients`,
    );
  const width = o.width ?? preferredRowWidth(ctx, GRAD_NORM_CHUNK);
  checkWidth("gradNorm", width);
  const kernel = gradNormKernel(width);
  ctx.dispatch(kernel, {
    bindings: [params(["u32", n], ["u32", GRAD_NORM_CHUNK]), grads, partials],
    workgroups: count,
    constants: { FINAL: false },
  });
  ctx.dispatch(kernel, {
    bindings: [params(["u32", count], ["u32", GRAD_NORM_CHUNK]), partials, norm],
    workgroups: 1,
    constants: { FINAL: true },
  });
}
