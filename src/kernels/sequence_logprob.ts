/**
 * Sequence log-probs from token log-probs (src/shaders/sequence_logprob.wgsl) and the backward that spreads a
 * per-sequence gradient over the tokens (sequence_logprob_backward.wgsl; the "broadcast" step of the DPO
 * family). CPU twin: src/reference/sequence_logprob.ts.
 *
 * A preference step on the GPU: tokenLogprob → sequenceLogprob (sums, lengths) → dpoLoss (per-sequence
 * gradient g) → sequenceLogprobBackward (dlogp) → tokenLogprobBackward → model backward.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/sequence_logprob.wgsl?raw";
import backwardSource from "../shaders/sequence_logprob_backward.wgsl?raw";
import { checkNoAlias, expectTensor, logitRows } from "./vocab_rows";

const forwardKernel = defineKernel({
  name: "sequence_logprob",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage", "storage"],
  workgroupSize: [64],
});

const backwardKernel = defineKernel({
  name: "sequence_logprob_backward",
  source: backwardSource,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "read-only-storage", "storage"],
  workgroupSize: [64],
});

export interface SequenceLogprobOptions {
  /**
   * false (default): out = logπ(y|x), the sum over counted tokens (DPO, hinge, KTO). true: the per-token mean
   * (IPO and SimPO as TRL, ORPO); an empty row gives 0.
   */
  mean?: boolean;
}

/**
 * Record out[r] = Σ_{t: mask ≠ 0} logp[r, t] (or that sum / lengths[r] when `mean`) and lengths[r] = the number
 * of counted tokens (f32, exact below 2^24), for logp and mask [R, T] (any leading shape; T the last
 * dimension), out and lengths [R]. Masked slots are not read, so NaN there never leaks. Units: nats.
 * Source: ../shared/docs/algorithms.md, "DPO family" (logπ(y|x) = sum of the completion's token log-probs).
 * @throws RangeError on a size or dtype mismatch, or an output sharing a buffer with an input or the other.
 */
export function sequenceLogprob(
  ctx: GpuContext,
  out: Tensor,
  lengths: Tensor,
  logp: Tensor,
  mask: Tensor,
  opts: SequenceLogprobOptions = {},
): void {
  const op = "sequenceLogprob";
  const { N: R, V: T } = logitRows(op, logp, "logp");
  expectTensor(op, mask, R * T, "f32", "mask");
  expectTensor(op, out, R, "f32", "out");
  expectTensor(op, lengths, R, "f32", "lengths");
  checkNoAlias(op, [out, lengths], [logp, mask]);
  checkNoAlias(op, [out], [lengths]);
  ctx.dispatch(forwardKernel, {
    bindings: [params(["u32", R], ["u32", T]), logp, mask, out, lengths],
    workgroups: Math.ceil(R / forwardKernel.invocations),
    constants: { MEAN: opts.mean ?? false },
  });
}

export interface SequenceLogprobBackwardOptions extends SequenceLogprobOptions {
  /** lengths [R] from {@link sequenceLogprob}; required when `mean` (the divisor), else unused. */
  lengths?: Tensor | null;
}

/**
 * Record dlogp[r, t] = g[r] on counted slots (mask ≠ 0) and 0 elsewhere, or g[r] / lengths[r] when `mean`:
 * the input gradient of {@link sequenceLogprob} for an upstream gradient g = dL/d(sequence value) [R].
 * Overwrites dlogp [R, T] (T from its last dimension, matching mask). g and lengths are not read on masked
 * slots.
 * @throws RangeError on a size or dtype mismatch, `mean` without lengths, or dlogp sharing a buffer with an
 *   input.
 */
export function sequenceLogprobBackward(
  ctx: GpuContext,
  dlogp: Tensor,
  g: Tensor,
  mask: Tensor,
  opts: SequenceLogprobBackwardOptions = {},
): void {
  const op = "sequenceLogprobBackward";
  const { N: R, V: T } = logitRows(op, dlogp, "dlogp");
  expectTensor(op, mask, R * T, "f32", "mask");
  expectTensor(op, g, R, "f32", "g");
  const mean = opts.mean ?? false;
  if (mean && !opts.lengths) throw new RangeError(`${op}: mean needs the lengths from sequenceLogprob`);
  if (opts.lengths) expectTensor(op, opts.lengths, R, "f32", "lengths");
  checkNoAlias(op, [dlogp], [g, mask, opts.lengths ?? null]);
  ctx.dispatch(backwardKernel, {
    bindings: [params(["u32", R], ["u32", T]), g, opts.lengths ?? g, mask, dlogp],
    workgroups: Math.ceil((R * T) / backwardKernel.invocations),
    constants: { MEAN: mean },
  });
}
