/** AdamW optimizer step with on-GPU gradient clipping (src/shaders/adamw.wgsl); CPU twin: src/reference/adamw.ts. */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params as packParams } from "../gpu/uniforms";
import type { AdamWHyper } from "../reference/adamw";
import source from "../shaders/adamw.wgsl?raw";

/**
 * Kernel handle of {@link adamw} (256 threads a workgroup); plain data: each GpuContext compiles it on first
 * dispatch and keeps it; nothing to destroy.
 */
export const adamwKernel = defineKernel({
  name: "adamw",
  source,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
    "storage",
    "storage",
  ],
  workgroupSize: [256],
});

/**
 * Defaults: β1 0.9, β2 0.95, eps 1e-8, weight decay 0.1 (GPT-3 / nanoGPT settings, Brown et al. 2020 §B),
 * max gradient norm 1.0 (nanoGPT's grad_clip).
 */
export const ADAMW_DEFAULTS = {
  beta1: 0.9,
  beta2: 0.95,
  eps: 1e-8,
  weightDecay: 0.1,
  maxGradNorm: 1.0,
} as const;

/** `lr` and `step` are required; the rest default to {@link ADAMW_DEFAULTS}. */
export type AdamWOptions = Pick<AdamWHyper, "lr" | "step"> & Partial<Omit<AdamWHyper, "lr" | "step">>;

/** Fill in defaults and check ranges. @throws RangeError naming the bad field. */
export function resolveAdamW(o: AdamWOptions): AdamWHyper {
  const h: AdamWHyper = { ...ADAMW_DEFAULTS, ...o };
  const bad = (field: string, rule: string) => {
    throw new RangeError(`adamw: ${field} must be ${rule}, got ${h[field as keyof AdamWHyper]}`);
  };
  if (!Number.isInteger(h.step) || h.step < 1) bad("step", "an integer ≥ 1");
  if (!(h.lr >= 0) || !Number.isFinite(h.lr)) bad("lr", "finite and ≥ 0");
  if (!(h.beta1 >= 0 && h.beta1 < 1)) bad("beta1", "in [0, 1)");
  if (!(h.beta2 >= 0 && h.beta2 < 1)) bad("beta2", "in [0, 1)");
  if (!(h.eps > 0)) bad("eps", "> 0");
  if (!(h.weightDecay >= 0) || !Number.isFinite(h.weightDecay)) bad("weightDecay", "finite and ≥ 0");
  if (Number.isNaN(h.maxGradNorm)) bad("maxGradNorm", "a number (≤ 0 disables clipping)");
  return h;
}

/**
 * Record one AdamW step over the flat parameter buffer, in place. The gradient is first scaled by
 * c = min(1, maxGradNorm / (norm[0] + 1e-6)), read from `norm` on the GPU (no CPU round trip); maxGradNorm ≤ 0
 * disables clipping (norm is then not read and may be null). Then, per element i:
 * m ← β1·m + (1 − β1)·g, v ← β2·v + (1 − β2)·g², θ ← θ − lr·(m̂/(√v̂ + eps) + wd·decay[i]·θ) with the bias
 * corrections m̂ = m/(1 − β1ᵗ), v̂ = v/(1 − β2ᵗ) (computed here in float64).
 *
 * @param params [P] parameters θ, updated in place.
 * @param m [P], v [P] first and second moments (start at 0), updated in place. params, m and v may be views of
 *   one buffer; grads, decay and norm must live in other buffers (WebGPU forbids a buffer being both written and
 *   read-only in one dispatch).
 * @param grads [P] gradients, read only (the clipping scale is applied on the fly, grads keep their values).
 * @param decay [P] f32 weight-decay multiplier per parameter: 1 = decay, 0 = none (LayerNorm gains, biases).
 * @param norm [≥ 1] the global gradient norm from {@link gradNorm}, or null when clipping is off.
 * @param o lr (≥ 0) and step (integer ≥ 1) required; beta1, beta2 in [0, 1), eps > 0, weightDecay ≥ 0,
 *   maxGradNorm (≤ 0: off) default to {@link ADAMW_DEFAULTS}.
 * @throws RangeError for size mismatches, a missing norm with clipping on, or hyperparameters out of range.
 * Source: Loshchilov & Hutter 2019, "Decoupled Weight Decay Regularization", alg. 2 (AdamW); Kingma & Ba 2015
 *   (bias correction); global-norm clipping as PyTorch torch.nn.utils.clip_grad_norm_.
 */
export function adamw(
  ctx: GpuContext,
  params: Tensor,
  m: Tensor,
  v: Tensor,
  grads: Tensor,
  decay: Tensor,
  norm: Tensor | null,
  o: AdamWOptions,
): void {
  const h = resolveAdamW(o);
  const n = params.size;
  for (const [name, t] of [
    ["m", m],
    ["v", v],
    ["grads", grads],
    ["decay", decay],
  ] as const)
    if (t.size !== n) throw new RangeError(`adamw: ${name} ${t} has ${t.size} elements, params has ${n}`);
  if (h.maxGradNorm > 0 && (!norm || norm.size < 1))
    throw new RangeError(`adamw: maxGradNorm ${h.maxGradNorm} > 0 needs a norm tensor of ≥ 1 element`);
  ctx.dispatch(adamwKernel, {
    bindings: [
      packParams(
        ["u32", n],
        ["f32", h.lr],
        ["f32", h.beta1],
        ["f32", h.beta2],
        ["f32", h.eps],
        ["f32", h.weightDecay],
        ["f32", 1 - h.beta1 ** h.step],
        ["f32", 1 - h.beta2 ** h.step],
        ["f32", h.maxGradNorm],
      ),
      grads,
      decay,
      norm ?? grads,
      params,
      m,
      v,
    ],
    workgroups: Math.ceil(n / adamwKernel.invocations),
  });
}
