/**
 * Per-token log-probs at temperature τ and their backward (src/shaders/token_logprob.wgsl,
 * token_logprob_backward.wgsl); CPU twin: src/reference/token_logprob.ts.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/token_logprob.wgsl?raw";
import backwardSource from "../shaders/token_logprob_backward.wgsl?raw";
import {
  checkNoAlias,
  checkTemperature,
  expectTensor,
  logitRows,
  type RowWidthOption,
  rowKernelFamily,
  rowWidth,
} from "./vocab_rows";

const forwardKernel = rowKernelFamily("token_logprob", source, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "storage",
]);
const backwardKernel = rowKernelFamily("token_logprob_backward", backwardSource, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "storage",
]);

export interface TokenLogprobOptions extends RowWidthOption {
  /** Sampling temperature τ > 0 (required: log-probs are computed from logits / τ). */
  tau: number;
  /** [N] f32, 1 = use the position, 0 = masked (output 0, logits not read). Default null: all positions. */
  mask?: Tensor | null;
}

export interface TokenLogprobBackwardOptions extends TokenLogprobOptions {
  /** Add into dlogits instead of overwriting it (inactive rows are then left untouched). Default false. */
  accumulate?: boolean;
}

function check(
  op: string,
  logits: Tensor,
  targets: Tensor,
  opts: TokenLogprobOptions,
): { N: number; V: number; mask: Tensor } {
  const { N, V } = logitRows(op, logits);
  expectTensor(op, targets, N, "i32", "targets");
  if (opts.mask) expectTensor(op, opts.mask, N, "f32", "mask");
  checkTemperature(op, opts.tau);
  return { N, V, mask: opts.mask ?? logits }; // without a mask any f32 buffer fills the (unread) binding
}

/**
 * Record logp[n] = log softmax(logits[n, :] / τ)[targets[n]] (nats, ≤ 0) for logits [..., V] (N = B·T rows),
 * targets [N] i32. Masked rows (mask 0) and targets outside [0, V) give 0 without reading the row (NaN there
 * never leaks); rows of all −∞ give 0; a −∞ target logit gives −∞.
 * Source: ../shared/docs/algorithms.md, "Notation" (log-probs use logits / τ, the distribution the tokens came from).
 * @throws RangeError on mismatched sizes or dtypes (targets i32, mask f32), τ not finite > 0, a bad width, or
 *   logp sharing a buffer with an input.
 */
export function tokenLogprob(
  ctx: GpuContext,
  logp: Tensor,
  logits: Tensor,
  targets: Tensor,
  opts: TokenLogprobOptions,
): void {
  const op = "tokenLogprob";
  const { N, V, mask } = check(op, logits, targets, opts);
  expectTensor(op, logp, N, "f32", "logp");
  checkNoAlias(op, [logp], [logits, targets, opts.mask ?? null]);
  ctx.dispatch(forwardKernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [
      params(["u32", N], ["u32", V], ["f32", opts.tau], ["u32", opts.mask ? 1 : 0]),
      logits,
      targets,
      mask,
      logp,
    ],
    workgroups: N,
  });
}

/**
 * Record dlogits[n, v] = dlogp[n]·([v = targets[n]] − p_v)/τ with p = softmax(logits[n, :] / τ): the input
 * gradient of {@link tokenLogprob}. Overwrites dlogits unless `accumulate`. Masked rows, out-of-range targets
 * and all −∞ rows contribute 0 without reading logits or dlogp. Shapes: logits/dlogits [..., V], targets [N]
 * i32, dlogp [N].
 * @throws RangeError as {@link tokenLogprob}, and if dlogits does not match logits or shares a buffer with an
 *   input.
 */
export function tokenLogprobBackward(
  ctx: GpuContext,
  dlogits: Tensor,
  logits: Tensor,
  targets: Tensor,
  dlogp: Tensor,
  opts: TokenLogprobBackwardOptions,
): void {
  const op = "tokenLogprobBackward";
  const { N, V, mask } = check(op, logits, targets, opts);
  expectTensor(op, dlogp, N, "f32", "dlogp");
  expectTensor(op, dlogits, N * V, "f32", "dlogits");
  checkNoAlias(op, [dlogits], [logits, targets, dlogp, opts.mask ?? null]);
  ctx.dispatch(backwardKernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [
      params(["u32", N], ["u32", V], ["f32", opts.tau], ["u32", opts.mask ? 1 : 0]),
      logits,
      targets,
      mask,
      dlogp,
      dlogits,
    ],
    workgroups: N,
    constants: { ACCUMULATE: opts.accumulate ?? false },
  });
}
