/**
 * Exact per-position KL(π_θ ‖ π_ref) over the vocabulary at temperature τ, and its backward to the policy
 * logits (src/shaders/exact_kl.wgsl, exact_kl_backward.wgsl); CPU twin: src/reference/exact_kl.ts.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/exact_kl.wgsl?raw";
import backwardSource from "../shaders/exact_kl_backward.wgsl?raw";
import {
  checkNoAlias,
  checkTemperature,
  expectTensor,
  logitRows,
  type RowWidthOption,
  rowKernelFamily,
  rowWidth,
} from "./vocab_rows";

const forwardKernel = rowKernelFamily("exact_kl", source, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "storage",
]);
const backwardKernel = rowKernelFamily("exact_kl_backward", backwardSource, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "storage",
]);

export interface ExactKlOptions extends RowWidthOption {
  /** Sampling temperature τ > 0 (required: both distributions are softmax(logits / τ)). */
  tau: number;
  /** [N] f32, 1 = use the position, 0 = masked (output 0, logits not read). Default null: all positions. */
  mask?: Tensor | null;
}

export interface ExactKlBackwardOptions extends ExactKlOptions {
  /** Add into dpolicy instead of overwriting it (inactive rows are then left untouched). Default false. */
  accumulate?: boolean;
}

function check(
  op: string,
  policy: Tensor,
  reference: Tensor,
  opts: ExactKlOptions,
): { N: number; V: number; mask: Tensor } {
  const { N, V } = logitRows(op, policy, "policy");
  expectTensor(op, reference, N * V, "f32", "reference");
  if (opts.mask) expectTensor(op, opts.mask, N, "f32", "mask");
  checkTemperature(op, opts.tau);
  return { N, V, mask: opts.mask ?? policy }; // without a mask any f32 buffer fills the (unread) binding
}

/**
 * Record kl[n] = Σ_v p_v (log p_v − log q_v) (nats, ≥ 0) with p = softmax(policy[n, :] / τ),
 * q = softmax(reference[n, :] / τ); policy and reference [..., V] (N = B·T rows), kl [N].
 * Entries with p_v = 0 add 0 (0·log 0 = 0); p_v > 0 where q_v = 0 (a −∞ reference logit, or a reference row of
 * all −∞) gives +∞. Masked rows (mask 0) and all −∞ policy rows give 0 without reading the logits.
 * Source: ../shared/docs/algorithms.md, "KL estimators" (exact; Schulman 2020).
 * @throws RangeError on mismatched sizes (reference like policy, kl and mask [N]), τ not finite > 0, a bad
 *   width, or kl sharing a buffer with an input.
 */
export function exactKl(
  ctx: GpuContext,
  kl: Tensor,
  policy: Tensor,
  reference: Tensor,
  opts: ExactKlOptions,
): void {
  const op = "exactKl";
  const { N, V, mask } = check(op, policy, reference, opts);
  expectTensor(op, kl, N, "f32", "kl");
  checkNoAlias(op, [kl], [policy, reference, opts.mask ?? null]);
  ctx.dispatch(forwardKernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [
      params(["u32", N], ["u32", V], ["f32", opts.tau], ["u32", opts.mask ? 1 : 0]),
      policy,
      reference,
      mask,
      kl,
    ],
    workgroups: N,
  });
}

/**
 * Record dpolicy[n, v] = dkl[n]·p_v ((log p_v − log q_v) − KL[n])/τ, the gradient of {@link exactKl} with
 * respect to the policy logits only (KL is recomputed; the reference gets no gradient). Overwrites dpolicy
 * unless `accumulate`. Masked rows, all −∞ policy rows and rows whose KL is +∞ (no finite gradient) contribute
 * 0; masked rows read neither logits nor dkl. Shapes: policy/reference/dpolicy [..., V], dkl [N].
 * @throws RangeError as {@link exactKl}, and if dpolicy does not match policy or shares a buffer with an input.
 */
export function exactKlBackward(
  ctx: GpuContext,
  dpolicy: Tensor,
  policy: Tensor,
  reference: Tensor,
  dkl: Tensor,
  opts: ExactKlBackwardOptions,
): void {
  const op = "exactKlBackward";
  const { N, V, mask } = check(op, policy, reference, opts);
  expectTensor(op, dkl, N, "f32", "dkl");
  expectTensor(op, dpolicy, N * V, "f32", "dpolicy");
  checkNoAlias(op, [dpolicy], [policy, reference, dkl, opts.mask ?? null]);
  ctx.dispatch(backwardKernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [
      params(["u32", N], ["u32", V], ["f32", opts.tau], ["u32", opts.mask ? 1 : 0]),
      policy,
      reference,
      mask,
      dkl,
      dpolicy,
    ],
    workgroups: N,
    constants: { ACCUMULATE: opts.accumulate ?? false },
  });
}
