/**
 * A model's parameters on the GPU: one flat f32 buffer with a named view per tensor (and the same layout for
 * gradients and AdamW moments). Only the optimizer and the forward/backward passes touch these; the UI never
 * holds weights.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import type { GPTConfig } from "./config";
import { type ParamLayout, paramLayout, spec } from "./params";

/** A flat buffer laid out by a ParamLayout, with cached named views. */
export class ParamBuffer {
  private readonly views = new Map<string, Tensor>();
  constructor(
    readonly layout: ParamLayout,
    /** [layout.size] f32. */
    readonly flat: Tensor<"f32">,
  ) {}

  static create(ctx: GpuContext, layout: ParamLayout, label: string, data?: Float32Array): ParamBuffer {
    return new ParamBuffer(layout, ctx.tensor([layout.size], "f32", label, data));
  }

  /** The view of parameter `name` with its shape. @throws RangeError for an unknown name. */
  get(name: string): Tensor {
    let v = this.views.get(name);
    if (!v) {
      const s = spec(this.layout, name);
      v = this.flat.view(s.shape, s.offset, `${this.flat.label}:${name}`);
      this.views.set(name, v);
    }
    return v;
  }

  destroy(): void {
    this.flat.destroy();
  }
}

/** Parameters and their gradients for one model. */
export class GptWeights {
  readonly layout: ParamLayout;
  readonly params: ParamBuffer;
  readonly grads: ParamBuffer;

  constructor(
    readonly ctx: GpuContext,
    readonly config: GPTConfig,
    init: Float32Array,
  ) {
    this.layout = paramLayout(config);
    if (init.length !== this.layout.size)
      throw new RangeError(`init has ${init.length} values; layout needs ${this.layout.size}`);
    this.params = ParamBuffer.create(ctx, this.layout, "params", init);
    this.grads = ParamBuffer.create(ctx, this.layout, "grads");
  }

  /** The LM head weight [V, C]: the token embedding when tied. */
  lmHead(): Tensor {
    return this.config.tiedEmbeddings ? this.params.get("wte.weight") : this.params.get("lm_head.weight");
  }

  lmHeadGrad(): Tensor {
    return this.config.tiedEmbeddings ? this.grads.get("wte.weight") : this.grads.get("lm_head.weight");
  }

  /** Copy the parameters back (checkpoints, tests). */
  download(): Promise<Float32Array> {
    return this.ctx.read(this.params.flat);
  }

  /**
   * Overwrite all parameters (e.g. load a checkpoint, reset a run).
   * @throws RangeError if `flat` does not have `layout.size` values; GpuDeviceLostError if the device is lost.
   */
  upload(flat: Float32Array): void {
    if (flat.length !== this.layout.size)
      throw new RangeError(`params have ${flat.length} values; layout needs ${this.layout.size}`);
    this.ctx.upload(this.params.flat, flat);
  }

  destroy(): void {
    this.params.destroy();
    this.grads.destroy();
  }
}
