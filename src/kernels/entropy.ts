/**
 * Per-position entropy at temperature τ and its backward (src/shaders/entropy.wgsl, entropy_backward.wgsl);
 * CPU twin: src/reference/entropy.ts.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/entropy.wgsl?raw";
import backwardSource from "../shaders/entropy_backward.wgsl?raw";
import {
  checkNoAlias,
  checkTemperature,
  expectTensor,
  logitRows,
  type RowWidthOption,
  rowKernelFamily,
  rowWidth,
} from "./vocab_rows";

const forwardKernel = rowKernelFamily("entropy", source, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "storage",
]);
const backwardKernel = rowKernelFamily("entropy_backward", backwardSource, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "storage",
]);

export interface EntropyOptions extends RowWidthOption {
  /** Sampling temperature τ > 0 (required: the entropy is that of softmax(logits / τ)). */
  tau: number;
  /** [N] f32, 1 = use the position, 0 = masked (output 0, logits not read). Default null: all positions. */
  mask?: Tensor | null;
}

export interface EntropyBackwardOptions extends EntropyOptions {
  /** Add into dlogits instead of overwriting it (masked rows are then left untouched). Default false. */
  accumulate?: boolean;
}

function check(op: string, logits: Tensor, opts: EntropyOptions): { N: number; V: number; mask: Tensor } {
  const { N, V } = logitRows(op, logits);
  if (opts.mask) expectTensor(op, opts.mask, N, "f32", "mask");
  checkTemperature(op, opts.tau);
  return { N, V, mask: opts.mask ?? logits }; // without a mask any f32 buffer fills the (unread) binding
}

/**
 * Record H[n] = −Σ_v p_v log p_v (nats, in [0, log V]) with p = softmax(logits[n, :] / τ), logits [..., V]
 * (N = B·T rows). Masked rows (mask 0) give 0 without reading the row; all −∞ rows give 0; entries with p = 0
 * add 0. Source: ../shared/docs/algorithms.md, "Entropy".
 * @throws RangeError on mismatched sizes (H [N], mask [N] f32), τ not finite > 0, a bad width, or H sharing a
 *   buffer with an input.
 */
export function entropy(ctx: GpuContext, H: Tensor, logits: Tensor, opts: EntropyOptions): void {
  const op = "entropy";
  const { N, V, mask } = check(op, logits, opts);
  expectTensor(op, H, N, "f32", "H");
  checkNoAlias(op, [H], [logits, opts.mask ?? null]);
  ctx.dispatch(forwardKernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [
      params(["u32", N], ["u32", V], ["f32", opts.tau], ["u32", opts.mask ? 1 : 0]),
      logits,
      mask,
      H,
    ],
    workgroups: N,
  });
}

/**
 * Record dlogits[n, v] = dH[n]·(−p_v (log p_v + H[n]))/τ, the input gradient of {@link entropy} (H is
 * recomputed). Overwrites dlogits unless `accumulate`. Masked and all −∞ rows contribute 0 without reading
 * logits or dH. Shapes: logits/dlogits [..., V], dH [N].
 * @throws RangeError as {@link entropy}, and if dlogits does not match logits or shares a buffer with an input.
 */
export function entropyBackward(
  ctx: GpuContext,
  dlogits: Tensor,
  logits: Tensor,
  dH: Tensor,
  opts: EntropyBackwardOptions,
): void {
  const op = "entropyBackward";
  const { N, V, mask } = check(op, logits, opts);
  expectTensor(op, dH, N, "f32", "dH");
  expectTensor(op, dlogits, N * V, "f32", "dlogits");
  checkNoAlias(op, [dlogits], [logits, dH, opts.mask ?? null]);
  ctx.dispatch(backwardKernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [
      params(["u32", N], ["u32", V], ["f32", opts.tau], ["u32", opts.mask ? 1 : 0]),
      logits,
      mask,
      dH,
      dlogits,
    ],
    workgroups: N,
    constants: { ACCUMULATE: opts.accumulate ?? false },
  });
}
