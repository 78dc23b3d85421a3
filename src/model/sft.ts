/**
 * Supervised (pre)training step: next-token cross-entropy on chosen positions (a completion, or every token),
 * forward + loss + backward + AdamW recorded in one go; only the loss and the gradient norm come back.
 * The loss is the mean over positions whose target ≥ 0 (targets −1 are ignored).
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { crossEntropy } from "../kernels/cross_entropy";
import { reduceRows } from "../kernels/reduce";
import { GptActivations } from "./activations";
import { gptBackward, zeroGrads } from "./backward";
import type { HostBatch } from "./batch";
import { BatchIndex } from "./batch_index";
import { gptForward } from "./forward";
import { AdamW, type AdamWConfig } from "./optimizer";
import type { GptWeights } from "./weights";

export interface SftMetrics {
  /** Mean token cross-entropy (nats) before the update. */
  loss: number;
  /** Global gradient norm before clipping. */
  gradNorm: number;
  /** Tokens that carried loss. */
  tokens: number;
}

/**
 * Next-token targets for a left-padded batch: target[b, t] = token[b, t+1] where both are real tokens and
 * t+1 ≥ the row's first trained position; −1 elsewhere. `trainFrom[b]` (default 1) is the index, within the
 * row's real tokens, of the first token to predict (a prompt of length k → trainFrom = k: only the completion).
 */
export function nextTokenTargets(batch: HostBatch, trainFrom?: readonly number[]): Int32Array {
  const { B, T, tokens, keyMask } = batch;
  const targets = new Int32Array(B * T).fill(-1);
  for (let b = 0; b < B; b++) {
    let start = 0;
    while (start < T && !keyMask[b * T + start]) start++;
    const first = start + Math.max(1, trainFrom?.[b] ?? 1);
    for (let t = first; t < T; t++) if (keyMask[b * T + t]) targets[b * T + t - 1] = tokens[b * T + t];
  }
  return targets;
}

/**
 * Owns activations for a fixed B×T batch, an AdamW over w, a {@link BatchIndex} and target/loss buffers;
 * trains w in place (w stays the caller's). The caller destroys it. step() throws RangeError on another batch
 * shape or no target, and AdamW's RangeError on bad hyperparameters.
 */
export class SftTrainer {
  readonly acts: GptActivations;
  readonly opt: AdamW;
  private readonly index: BatchIndex;
  private readonly targets: Tensor;
  private readonly loss: Tensor;
  private readonly lossSum: Tensor;

  constructor(
    readonly ctx: GpuContext,
    readonly w: GptWeights,
    readonly B: number,
    readonly T: number,
  ) {
    this.acts = new GptActivations(ctx, w.config, B, T);
    this.opt = new AdamW(ctx, w);
    this.index = new BatchIndex(ctx, "sft");
    this.targets = ctx.tensor([B * T], "i32", "sft.targets");
    this.loss = ctx.tensor([B * T], "f32", "sft.loss");
    this.lossSum = ctx.tensor([1], "f32", "sft.loss.sum");
  }

  /**
   * One optimizer step on `batch` with `targets` (from {@link nextTokenTargets}).
   * @throws RangeError if the batch shape differs from the trainer's, or no target is ≥ 0.
   */
  async step(batch: HostBatch, targets: Int32Array, hyper: AdamWConfig): Promise<SftMetrics> {
    const { ctx, acts, w } = this;
    if (batch.B !== this.B || batch.T !== this.T)
      throw new RangeError(`batch is ${batch.B}×${batch.T}, trainer ${this.B}×${this.T}`);
    const count = targets.reduce((n, t) => n + (t >= 0 ? 1 : 0), 0);
    if (!count) throw new RangeError("no position has a target");
    ctx.upload(acts.tokens, batch.tokens);
    ctx.upload(acts.positions, batch.positions);
    ctx.upload(acts.keyMask, batch.keyMask);
    ctx.upload(this.targets, targets);
    const indexes = this.index.upload(batch.tokens, batch.positions, w.config);
    zeroGrads(ctx, w);
    gptForward(ctx, w, acts);
    crossEntropy(ctx, this.loss, acts.dlogits, acts.logits, this.targets, { scale: 1 / count });
    reduceRows(ctx, "sum", this.lossSum, this.loss.reshape([1, this.B * this.T]));
    gptBackward(ctx, w, acts, indexes);
    this.opt.step(hyper);
    const [lossSum, norm] = await Promise.all([ctx.read(this.lossSum), ctx.read(this.opt.gradNorm)]);
    return { loss: lossSum[0] / count, gradNorm: norm[0], tokens: count };
  }

  destroy(): void {
    this.acts.destroy();
    this.opt.destroy();
    for (const t of [this.targets, this.loss, this.lossSum]) t.destroy();
    this.index.destroy();
  }
}
