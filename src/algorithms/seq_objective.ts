/**
 * Updates whose loss is a function of per-sequence log-probs only (ORPO, KTO): forward the batch, reduce the
 * completion tokens' log-probs at τ to one number per sequence (sum, or per-token mean), read those [R] numbers
 * back, evaluate the loss and its gradient in float64 on the CPU (src/algorithms/math), upload the [R]
 * gradient, broadcast it over the tokens and backpropagate; then AdamW. The one mid-step read is R scalars.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { sequenceLogprob, sequenceLogprobBackward } from "../kernels/sequence_logprob";
import { tokenLogprob, tokenLogprobBackward } from "../kernels/token_logprob";
import { gptBackward, zeroGrads } from "../model/backward";
import { BatchIndex } from "../model/batch_index";
import { gptForward } from "../model/forward";
import { AdamW, type AdamWConfig } from "../model/optimizer";
import type { RolloutEngine } from "./rollout";
import type { SequenceBatch } from "./sequences";

/**
 * The loss of a batch of sequence values [R] (each completion's log-prob sum, or its per-token mean: the step's
 * `reduce`) and its gradient with respect to each (1/R etc. included). `lengths` [R]: completion tokens, for a
 * loss that needs them beside sums; with "mean" the values are already divided by them.
 */
export type SequenceLoss = (
  values: Float64Array,
  lengths: Float64Array,
) => { loss: number; grad: ArrayLike<number> };

/**
 * Owns an AdamW over engine.policy, a {@link BatchIndex} and buffers for the engine's R×T batch (logp, dlogp
 * [R·T]; values, lengths, g [R]); borrows the engine (its activations and masks), which must outlive it. Made
 * and destroyed by TwoSampleRun (two_sample_run.ts). step() throws what `loss` throws, before any parameter
 * changes.
 */
export class SequenceObjective {
  readonly opt: AdamW;
  private readonly index: BatchIndex;
  private readonly logp: Tensor;
  private readonly dlogp: Tensor;
  private readonly values: Tensor;
  private readonly lengths: Tensor;
  private readonly g: Tensor;

  constructor(
    readonly ctx: GpuContext,
    readonly engine: RolloutEngine,
  ) {
    const R = engine.acts.B;
    const N = engine.acts.N;
    this.opt = new AdamW(ctx, engine.policy);
    this.index = new BatchIndex(ctx, "seqobj");
    this.logp = ctx.tensor([N], "f32", "seqobj.logp");
    this.dlogp = ctx.tensor([N], "f32", "seqobj.dlogp");
    this.values = ctx.tensor([R], "f32", "seqobj.values");
    this.lengths = ctx.tensor([R], "f32", "seqobj.lengths");
    this.g = ctx.tensor([R], "f32", "seqobj.grad");
  }

  /**
   * One step on `seq` (R rows, as the engine's batch). `reduce`: what a sequence's value is, the sum of its
   * completion tokens' log-probs at τ ("sum": KTO, DPO-style losses) or their per-token mean ("mean": ORPO,
   * SimPO's length-normalised log-probs).
   * @throws whatever `loss` throws (e.g. a RangeError for a −∞ log-prob), before any parameter changes.
   */
  async step(
    seq: SequenceBatch,
    tau: number,
    reduce: "sum" | "mean",
    loss: SequenceLoss,
    hyper: AdamWConfig,
  ): Promise<{ loss: number; gradNorm: number }> {
    const { ctx, engine } = this;
    const w = engine.policy;
    const R = seq.B;
    engine.load(seq);
    const indexes = this.index.upload(seq.tokens, seq.positions, w.config);
    const mask = engine.lossMask;
    const mask2 = mask.reshape([R, seq.T]);
    const mean = reduce === "mean";
    zeroGrads(ctx, w);
    gptForward(ctx, w, engine.acts);
    tokenLogprob(ctx, this.logp, engine.acts.logits, engine.targets, { tau, mask });
    sequenceLogprob(ctx, this.values, this.lengths, this.logp.reshape([R, seq.T]), mask2, { mean });
    const [v, len] = await Promise.all([ctx.read(this.values), ctx.read(this.lengths)]);
    const out = loss(Float64Array.from(v), Float64Array.from(len));
    ctx.upload(this.g, Float32Array.from(out.grad));
    sequenceLogprobBackward(ctx, this.dlogp.reshape([R, seq.T]), this.g, mask2, {
      mean,
      lengths: this.lengths,
    });
    tokenLogprobBackward(ctx, engine.acts.dlogits, engine.acts.logits, engine.targets, this.dlogp, {
      tau,
      mask,
    });
    gptBackward(ctx, w, engine.acts, indexes);
    this.opt.step(hyper);
    return { loss: out.loss, gradNorm: (await ctx.read(this.opt.gradNorm))[0] };
  }

  destroy(): void {
    this.opt.destroy();
    for (const t of [this.logp, this.dlogp, this.values, this.lengths, this.g]) t.destroy();
    this.index.destroy();
  }
}
