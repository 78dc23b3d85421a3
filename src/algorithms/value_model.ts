/**
 * PPO's separate value model V_φ (Ouyang et al. 2022 §3.5; Huang et al. 2024, "The N+ implementation details
 * of RLHF with PPO"; TRL's PPOTrainer `value_model`): a second transformer of the policy's config, initialised
 * from the start model's weights (its value head as the start model holds it), with its own AdamW, trained only
 * on PPO's clipped value loss. The policy then trains without a value term, so no value gradient reaches its
 * trunk. Built from the engine's pieces: it runs in the rollout engine's activations (the batch is already
 * there; every pass is recorded in queue order, so sharing them is safe and costs no second set of activations)
 * and uses the policy updater's value-loss buffers (returns, V_old, minibatch mask and weights).
 * Only its value head is trained: the backward pass skips the LM head (gptBackward `lmHead: false`).
 */
import type { GpuContext } from "../gpu/context";
import type { ValueLossMetrics } from "../kernels/value_loss";
import { gptBackward, zeroGrads } from "../model/backward";
import { gptForward } from "../model/forward";
import { AdamW, type AdamWConfig } from "../model/optimizer";
import { GptWeights } from "../model/weights";
import { maskedCompletion } from "./rollout";
import { type SequenceBatch, toCompletion } from "./sequences";
import type { PolicyUpdater } from "./update";

/** Settings of one value-model step: the value loss's ε_v and c_v, and AdamW's lr, clip and decay. */
export interface ValueStepOptions extends Pick<AdamWConfig, "lr" | "maxGradNorm" | "weightDecay"> {
  /** Clip range ε_v ≥ 0 of the value update. */
  epsilonV: number;
  /** c_v ≥ 0: the gradient is c_v·dL_v/dV, as in the joint loss L_pg + c_v·L_v over disjoint parameters. */
  vfCoef: number;
}

export interface ValueStepResult {
  /** L_v and val/clipfrac_avg of this minibatch (before the step). */
  value: ValueLossMetrics;
  /** The value model's global gradient norm (before clipping). */
  gradNorm: number;
}

/**
 * Owns V_φ's weights (a copy of the start model's) and its AdamW; borrows the updater's engine activations
 * and value-loss buffers, which must outlive it. Made and destroyed by PpoRun (valueModel "separate").
 * Throws RangeError when the start config differs from the policy's.
 */
export class ValueModel {
  readonly weights: GptWeights;
  readonly opt: AdamW;
  private readonly ctx: GpuContext;

  /**
   * A value model for the batch shape of `updater`'s rollout engine, with the weights `start` holds now
   * (copied on the GPU; pass the run's policy before its first step, i.e. the start model).
   * @throws RangeError when `start`'s config is not the engine's policy config.
   */
  constructor(
    private readonly updater: PolicyUpdater,
    start: GptWeights,
  ) {
    const policy = updater.engine.policy;
    if (JSON.stringify(start.config) !== JSON.stringify(policy.config))
      throw new RangeError("ValueModel: the start weights' config differs from the policy's");
    this.ctx = updater.ctx;
    this.weights = new GptWeights(this.ctx, start.config, new Float32Array(start.layout.size));
    this.ctx.copy(start.params.flat, this.weights.params.flat);
    this.opt = new AdamW(this.ctx, this.weights);
  }

  /**
   * V_φ per completion token [B·S] (completion layout, 0 on masked slots) on the batch the rollout engine holds
   * (call right after engine.collect/measure of `seq`): these are V_old for GAE and the value clip.
   */
  async values(seq: SequenceBatch): Promise<Float64Array> {
    const acts = this.updater.engine.acts;
    gptForward(this.ctx, this.weights, acts);
    const v = await this.ctx.read(acts.values);
    return maskedCompletion(toCompletion(v, seq), seq.completionMask);
  }

  /**
   * One AdamW step of the value model on the current minibatch of `updater` (setBatch with returns and
   * valuesOld, then setMinibatch): forward, clipped value loss, backward through the value head and the trunk
   * (not the LM head), AdamW. Everything is recorded before the first await, so a caller may record the
   * policy's step right after calling this and await both.
   */
  async step(o: ValueStepOptions): Promise<ValueStepResult> {
    const { ctx, weights: w } = this;
    const acts = this.updater.engine.acts;
    zeroGrads(ctx, w);
    gptForward(ctx, w, acts);
    this.updater.recordValueLoss(o);
    gptBackward(ctx, w, acts, { ...this.updater.scatterIndexes(), valueHead: true, lmHead: false });
    this.opt.step({ lr: o.lr, maxGradNorm: o.maxGradNorm, weightDecay: o.weightDecay });
    const [value, norm] = await Promise.all([this.updater.readValueLoss(), ctx.read(this.opt.gradNorm)]);
    return { value, gradNorm: norm[0] };
  }

  /** Copy another value model's weights and AdamW state on the GPU (a fork; same device and config). */
  copyFrom(other: ValueModel): void {
    this.ctx.copy(other.weights.params.flat, this.weights.params.flat);
    this.opt.copyFrom(other.opt);
  }

  destroy(): void {
    this.opt.destroy();
    this.weights.destroy();
  }
}
