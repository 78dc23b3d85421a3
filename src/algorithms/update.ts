/**
 * The policy-gradient update shared by GRPO, PPO, RLOO and REINFORCE: on the batch the rollout engine holds,
 * run the policy forward, take log π_θ(y_t) at τ, turn it into dL/dlog π with the clipped-surrogate kernel
 * (per-token advantages and aggregation weights computed on the CPU), optionally add PPO's clipped value loss
 * through the value head, backpropagate and take one AdamW step. Everything is recorded at once; only the
 * metric sums and the gradient norm come back. PPO's separate value model (./value_model.ts) trains in the same
 * activations with the same value-loss buffers (recordValueLoss, readValueLoss, scatterIndexes).
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { entropyBackward } from "../kernels/entropy";
import {
  POLICY_TERM_COUNT,
  type PolicyLossMetrics,
  policyLoss,
  policyLossMetrics,
} from "../kernels/policy_loss";
import { tokenLogprob, tokenLogprobBackward } from "../kernels/token_logprob";
import { VALUE_TERM_COUNT, type ValueLossMetrics, valueLoss, valueLossMetrics } from "../kernels/value_loss";
import { type BackwardOptions, gptBackward, zeroGrads } from "../model/backward";
import { BatchIndex } from "../model/batch_index";
import { gptForward } from "../model/forward";
import { AdamW, type AdamWConfig } from "../model/optimizer";
import type { RolloutEngine } from "./rollout";
import type { SequenceBatch } from "./sequences";

/** Per-token inputs of a batch for {@link PolicyUpdater.setBatch}, each [B·T] in the full layout (f32). */
export interface PolicyUpdateInputs {
  /** [B·T] per-token advantages A_t (full layout, 0 off the loss mask). */
  advantages: Float32Array;
  /** [B·T] aggregation weights (the loss is Σ w_t·ℓ_t). */
  weights: Float32Array;
  /** PPO only: [B·T] returns G_t and rollout values V_old (full layout). */
  returns?: Float32Array;
  valuesOld?: Float32Array;
}

/**
 * Settings of one {@link PolicyUpdater.step}: the surrogate's (policy_loss.ts: RangeError on ε ∉ [0, 1),
 * ε_high < 0, β < 0), the value loss's and AdamW's (RangeError from resolveAdamW).
 */
export interface PolicyUpdateOptions extends AdamWConfig {
  /** τ > 0: temperature of log π_θ (the rollout's); RangeError otherwise. */
  tau: number;
  /** ε: lower clip range of ρ, in [0, 1) (Schulman et al. 2017 eq. 7). */
  epsilon: number;
  /** ε_high ≥ 0: upper clip range of ρ (Yu et al. 2025, DAPO). */
  epsilonHigh: number;
  /** β on the k3 term inside the loss (GRPO); 0 skips the reference. */
  beta: number;
  /** PPO: value-loss clip ε_v (default 0.2) and coefficient c_v (default 0.1); used only with `withValue`. */
  epsilonV?: number;
  vfCoef?: number;
  /** Entropy bonus c_H: the loss gets −c_H·Σ w_t H_t (spec PPO step 6). Default 0. */
  entCoef?: number;
  /** Treat every update as on-policy: ρ ≡ 1, so dL/dlog π = −A·w exactly (SFT-style updates). Default false. */
  onPolicy?: boolean;
  /** Also read back this update's log π_θ(y_t) [B·T] (inspectors: the ratio the clip saw). Default false. */
  readLogp?: boolean;
}

/** What one {@link PolicyUpdater.step} read back (all measured before its AdamW step). */
export interface PolicyUpdateResult {
  /** Surrogate loss Σ w_t·ℓ_t and metrics (step throws RangeError on a non-finite or no counted token). */
  policy: PolicyLossMetrics;
  /** Value loss and clip fraction with `withValue`, else null. */
  value: ValueLossMetrics | null;
  /** Global gradient norm before clipping. */
  gradNorm: number;
  /**
   * With `readLogp`: log π_θ(y_t) at τ from this update's forward pass (before its optimizer step), [B·T] full
   * layout; valid on the tokens the update trained on (its minibatch), anything elsewhere.
   */
  logp?: Float32Array;
}

/** GPU buffers for updates on one rollout engine's batch shape. */
export class PolicyUpdater {
  readonly opt: AdamW;
  private readonly index: BatchIndex;
  private readonly logp: Tensor;
  private readonly dlogp: Tensor;
  private readonly adv: Tensor;
  private readonly weights: Tensor;
  private readonly returns: Tensor;
  private readonly valuesOld: Tensor;
  private readonly terms: Tensor;
  private readonly sums: Tensor;
  private readonly vterms: Tensor;
  private readonly vsums: Tensor;
  /** Minibatch mask (PPO) and the entropy-bonus upstream gradient −c_H·w. */
  private readonly mbMask: Tensor;
  private readonly dH: Tensor;
  private useMbMask = false;
  private weightsHost: Float32Array = new Float32Array(0);

  constructor(
    readonly ctx: GpuContext,
    readonly engine: RolloutEngine,
  ) {
    const N = engine.acts.N;
    this.opt = new AdamW(ctx, engine.policy);
    this.index = new BatchIndex(ctx, "upd");
    const t = (label: string, n = N) => ctx.tensor([n], "f32", label);
    this.logp = t("update.logp");
    this.dlogp = t("update.dlogp");
    this.adv = t("update.advantages");
    this.weights = t("update.weights");
    this.returns = t("update.returns");
    this.valuesOld = t("update.valuesOld");
    this.terms = t("update.terms", POLICY_TERM_COUNT * N);
    this.sums = t("update.sums", POLICY_TERM_COUNT);
    this.vterms = t("update.vterms", VALUE_TERM_COUNT * N);
    this.vsums = t("update.vsums", VALUE_TERM_COUNT);
    this.mbMask = t("update.mbMask");
    this.dH = t("update.dH");
  }

  /**
   * Restrict the next steps to a minibatch: `mask` [B·T] (a subset of the loss mask) and its weights [B·T].
   * null: back to the whole batch with the weights given to setBatch.
   */
  setMinibatch(mb: { mask: Float32Array; weights: Float32Array } | null): void {
    this.useMbMask = !!mb;
    if (mb) {
      this.ctx.upload(this.mbMask, mb.mask);
      this.ctx.upload(this.weights, mb.weights);
      this.weightsHost = mb.weights;
    }
  }

  /** Upload the per-token inputs of a new batch (the engine must hold that batch: engine.load/collect). */
  setBatch(seq: SequenceBatch, x: PolicyUpdateInputs): void {
    const { ctx } = this;
    ctx.upload(this.adv, x.advantages);
    ctx.upload(this.weights, x.weights);
    this.weightsHost = x.weights;
    this.useMbMask = false;
    if (x.returns) ctx.upload(this.returns, x.returns);
    if (x.valuesOld) ctx.upload(this.valuesOld, x.valuesOld);
    this.index.upload(seq.tokens, seq.positions, this.engine.policy.config);
  }

  /** One optimizer step on the current batch. `withValue`: also train the value head (PPO). */
  async step(o: PolicyUpdateOptions, withValue = false): Promise<PolicyUpdateResult> {
    const { ctx, engine } = this;
    const w = engine.policy;
    const acts = engine.acts;
    const mask = this.useMbMask ? this.mbMask : engine.lossMask;
    const entCoef = o.entCoef ?? 0;
    if (entCoef > 0)
      ctx.upload(
        this.dH,
        this.weightsHost.map((v) => -entCoef * v),
      );
    zeroGrads(ctx, w);
    gptForward(ctx, w, acts);
    tokenLogprob(ctx, this.logp, acts.logits, engine.targets, { tau: o.tau, mask });
    policyLoss(
      ctx,
      { dlogp: this.dlogp, terms: this.terms, sums: this.sums },
      {
        logp: this.logp,
        logpOld: o.onPolicy ? null : engine.logpOld,
        logpRef: o.beta > 0 ? engine.logpRefT : null,
        advantages: this.adv,
        weights: this.weights,
        mask,
      },
      { epsilon: o.epsilon, epsilonHigh: o.epsilonHigh, beta: o.beta },
    );
    tokenLogprobBackward(ctx, acts.dlogits, acts.logits, engine.targets, this.dlogp, { tau: o.tau, mask });
    if (entCoef > 0)
      entropyBackward(ctx, acts.dlogits, acts.logits, this.dH, { tau: o.tau, mask, accumulate: true });
    if (withValue) this.recordValueLoss(o);
    gptBackward(ctx, w, acts, { ...this.scatterIndexes(), valueHead: withValue });
    this.opt.step(o);
    const [sums, norm, vsums, logp] = await Promise.all([
      ctx.read(this.sums),
      ctx.read(this.opt.gradNorm),
      withValue ? this.readValueLoss() : Promise.resolve(null),
      o.readLogp ? ctx.read(this.logp) : Promise.resolve(null),
    ]);
    return {
      policy: policyLossMetrics(sums, o.beta > 0),
      value: vsums,
      gradNorm: norm[0],
      ...(logp ? { logp: logp as Float32Array } : {}),
    };
  }

  /**
   * Record PPO's clipped value loss on the values now in engine.acts.values (whichever model's forward wrote
   * them: the policy's value head, or a separate value model run in the same activations), against this
   * batch's returns and rollout values, over the current minibatch with its weights. Writes c_v·dL_v/dV into
   * acts.dvalues for the backward pass and the metric sums for {@link readValueLoss}.
   */
  recordValueLoss(o: Pick<PolicyUpdateOptions, "epsilonV" | "vfCoef">): void {
    const acts = this.engine.acts;
    valueLoss(
      this.ctx,
      { dvalues: acts.dvalues, terms: this.vterms, sums: this.vsums },
      {
        values: acts.values,
        valuesOld: this.valuesOld,
        returns: this.returns,
        weights: this.weights,
        mask: this.useMbMask ? this.mbMask : this.engine.lossMask,
      },
      { epsilonV: o.epsilonV ?? 0.2, gradScale: o.vfCoef ?? 0.1 },
    );
  }

  /** Read back the value loss and clip fraction {@link recordValueLoss} recorded. */
  async readValueLoss(): Promise<ValueLossMetrics> {
    return valueLossMetrics(await this.ctx.read(this.vsums));
  }

  /** The current batch's embedding scatter indexes (gptBackward). @throws Error before setBatch. */
  scatterIndexes(): Pick<BackwardOptions, "tokenIndex" | "positionIndex"> {
    return this.index.indexes;
  }

  destroy(): void {
    this.opt.destroy();
    for (const t of [
      this.logp,
      this.dlogp,
      this.adv,
      this.weights,
      this.returns,
      this.valuesOld,
      this.terms,
      this.sums,
      this.vterms,
      this.vsums,
      this.mbMask,
      this.dH,
    ])
      t.destroy();
    this.index.destroy();
  }
}
