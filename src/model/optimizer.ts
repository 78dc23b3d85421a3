/**
 * AdamW over a model's flat parameter buffer with global gradient-norm clipping, all on the GPU
 * (Loshchilov & Hutter 2019). The clip scale is read from the norm buffer by the AdamW kernel itself, so a step
 * never waits for the CPU; `gradNorm` can be read back afterwards as the `grad_norm` metric.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { ADAMW_DEFAULTS, adamw } from "../kernels/adamw";
import { gradNorm, gradNormPartials } from "../kernels/grad_norm";
import { decayMask } from "./params";
import type { GptWeights } from "./weights";

/**
 * Hyperparameters of one {@link AdamW.step}; an omitted (or undefined) field takes the kernel's
 * ADAMW_DEFAULTS (src/kernels/adamw.ts), checked there (resolveAdamW: RangeError naming the field).
 */
export interface AdamWConfig {
  /** Learning rate, finite and ≥ 0. */
  lr: number;
  /** β1 in [0, 1); default 0.9. */
  beta1?: number;
  /** β2 in [0, 1); default 0.95. */
  beta2?: number;
  /** ε > 0; default 1e-8. */
  eps?: number;
  /**
   * Decoupled weight decay on matrices and embeddings (not biases/LayerNorm), finite and ≥ 0. Default 0.1 is
   * the kernel's (GPT-3 / nanoGPT); the lab's algorithms pass their own (their weightDecay field, default 0).
   */
  weightDecay?: number;
  /** Clip the global gradient norm to this (≤ 0: off; NaN throws). Default 1.0. */
  maxGradNorm?: number;
}

/** AdamW's state on the CPU: step count and both moments (flat, the model's layout). */
export interface AdamWState {
  t: number;
  m: Float32Array;
  v: Float32Array;
}

/**
 * Owns AdamW's moments m, v [P], the weight-decay mask [P] and the gradient-norm buffers for one model's
 * weights w (P = w.layout.size) on ctx. The trainer that makes it destroys it (destroy() frees these tensors,
 * not w). step() throws RangeError on hyperparameters out of range (resolveAdamW).
 */
export class AdamW {
  private readonly m: Tensor<"f32">;
  private readonly v: Tensor<"f32">;
  private readonly decay: Tensor;
  private readonly partials: Tensor;
  /** [1] the global gradient norm of the last step (before clipping). */
  readonly gradNorm: Tensor;
  /** Steps taken (AdamW's t, for bias correction). */
  t = 0;

  constructor(
    readonly ctx: GpuContext,
    readonly w: GptWeights,
  ) {
    const n = w.layout.size;
    this.m = ctx.tensor([n], "f32", "adam.m");
    this.v = ctx.tensor([n], "f32", "adam.v");
    this.decay = ctx.tensor([n], "f32", "adam.decay", decayMask(w.layout));
    this.partials = ctx.tensor([gradNormPartials(n)], "f32", "gradnorm.partials");
    this.gradNorm = ctx.tensor([1], "f32", "gradnorm");
  }

  /** Record one update from the gradients in w.grads (the norm is computed first, on the GPU). */
  step(c: AdamWConfig): void {
    this.t++;
    gradNorm(this.ctx, this.gradNorm, this.partials, this.w.grads.flat);
    adamw(this.ctx, this.w.params.flat, this.m, this.v, this.w.grads.flat, this.decay, this.gradNorm, {
      ...ADAMW_DEFAULTS,
      ...Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)),
      lr: c.lr,
      step: this.t,
    });
  }

  /** Forget the moments (a run reset). */
  reset(): void {
    this.t = 0;
    this.ctx.upload(this.m, new Float32Array(this.m.size));
    this.ctx.upload(this.v, new Float32Array(this.v.size));
  }

  /** Read the state back (checkpoints that survive a lost device). */
  async exportState(): Promise<AdamWState> {
    const t = this.t;
    const [m, v] = await Promise.all([this.ctx.read(this.m), this.ctx.read(this.v)]);
    return { t, m, v };
  }

  /** Whether `s` fits this optimizer (moments of its length). */
  fits(s: AdamWState): boolean {
    return s.m.length === this.m.size && s.v.length === this.m.size;
  }

  /** Overwrite the state. @throws RangeError when the moments do not fit this model. */
  importState(s: AdamWState): void {
    if (s.m.length !== this.m.size || s.v.length !== this.v.size)
      throw new RangeError(`AdamW state has ${s.m.length} values; this model needs ${this.m.size}`);
    this.t = s.t;
    this.ctx.upload(this.m, s.m);
    this.ctx.upload(this.v, s.v);
  }

  /** Copy another optimizer's state on the GPU (a fork; both must be on this device, same model shape). */
  copyFrom(other: AdamW): void {
    this.t = other.t;
    this.ctx.copy(other.m, this.m);
    this.ctx.copy(other.v, this.v);
  }

  destroy(): void {
    for (const t of [this.m, this.v, this.decay, this.partials, this.gradNorm]) t.destroy();
  }
}
