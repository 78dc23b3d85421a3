/**
 * PPO's clipped value loss on the GPU (src/shaders/value_loss.wgsl): per token, the gradient dL/dV for the
 * value head's backward and the metric terms, reduced to a few sums on the GPU. CPU twins:
 * src/reference/value_loss.ts per token; src/algorithms/math/ppo.ts ppoValueLossAndGrad for the loss and
 * clip fraction.
 */
import { PPO_DEFAULTS } from "../algorithms/math/ppo";
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import { VALUE_TERMS } from "../reference/value_loss";
import source from "../shaders/value_loss.wgsl?raw";
import { reduceRows } from "./reduce";
import { checkNoAlias, expectTensor } from "./vocab_rows";

export { VALUE_TERMS };

/** Number of per-token metric rows (terms is [VALUE_TERM_COUNT, N], sums [VALUE_TERM_COUNT]). */
export const VALUE_TERM_COUNT = VALUE_TERMS.length;

const kernel = defineKernel({
  name: "value_loss",
  source,
  bindings: [
    "uniform",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "read-only-storage",
    "storage",
    "storage",
  ],
  workgroupSize: [64],
});

/** Per-token inputs, all f32 [N] with N = B·T (flat; any shape of N elements). */
export interface ValueLossInputs {
  /** V_t from the value head being trained. */
  values: Tensor;
  /** V_t recorded at rollout. */
  valuesOld: Tensor;
  /** G_t = A_t + V_t (GAE, computed on the CPU). */
  returns: Tensor;
  /** Aggregation weight per counted token: a tensor [N], or one number for all (1/n: the spec's mean_t). */
  weights: Tensor | number;
  /** 0/1 per token; 0 slots are never read and give 0 everywhere. */
  mask: Tensor;
}

/** Outputs. */
export interface ValueLossOutputs {
  /** gradScale·dL_v/dV [N] f32, L_v = Σ_n w_n·ℓ_n. */
  dvalues: Tensor;
  /** Per-token metric rows [VALUE_TERM_COUNT, N] f32 (VALUE_TERMS). */
  terms: Tensor;
  /** Row sums of terms [VALUE_TERM_COUNT] f32; omitted: not reduced. Read back, then {@link valueLossMetrics}. */
  sums?: Tensor | null;
}

/** Options (TRL names in brackets). */
export interface ValueLossOptions {
  /** ε_v ≥ 0 [`cliprange_value`]; default 0.2. */
  epsilonV?: number;
  /**
   * Factor on the gradient only, ≥ 0: pass the value coefficient c_v [`vf_coef`] so dvalues is the gradient
   * of the total loss L = L_pg + c_v·L_v while the `loss` row stays L_v itself. Default 1.
   */
  gradScale?: number;
}

/**
 * Record the clipped value loss (../shared/docs/algorithms.md, "PPO" step 5; Huang et al. 2024):
 * V^c = V_old + clip(V − V_old, −ε_v, ε_v), ℓ = ½ max((V − G)², (V^c − G)²), L_v = Σ w·ℓ, and its gradient
 * dvalues = gradScale·w·∂ℓ/∂V (0 where the clipped term is used and clipped), plus the metric rows of
 * VALUE_TERMS; then, when `sums` is given, their sums (one reduceRows dispatch). Masked slots give exactly 0
 * without being read; counted non-finite tokens get 0 gradient and count as `invalid`.
 * @throws RangeError on a size or dtype mismatch, an output sharing a buffer with an input or the other
 *   output, ε_v or gradScale negative or not finite, or a non-finite uniform weight.
 */
export function valueLoss(
  ctx: GpuContext,
  out: ValueLossOutputs,
  x: ValueLossInputs,
  opts: ValueLossOptions = {},
): void {
  const op = "valueLoss";
  const N = x.values.size;
  const epsV = opts.epsilonV ?? PPO_DEFAULTS.epsilonV;
  const gradScale = opts.gradScale ?? 1;
  for (const [name, v] of [
    ["epsilonV", epsV],
    ["gradScale", gradScale],
  ] as const)
    if (!(v >= 0) || !Number.isFinite(v))
      throw new RangeError(`${op}: ${name} must be finite and ≥ 0, got ${v}`);
  const uniformWeight = typeof x.weights === "number";
  if (uniformWeight && !Number.isFinite(x.weights))
    throw new RangeError(`${op}: weight must be finite, got ${x.weights}`);
  const weights = uniformWeight ? null : (x.weights as Tensor);
  const inputs: [string, Tensor | null][] = [
    ["values", x.values],
    ["valuesOld", x.valuesOld],
    ["returns", x.returns],
    ["weights", weights],
    ["mask", x.mask],
  ];
  for (const [name, t] of inputs) if (t) expectTensor(op, t, N, "f32", name);
  expectTensor(op, out.dvalues, N, "f32", "dvalues");
  expectTensor(op, out.terms, VALUE_TERM_COUNT * N, "f32", "terms");
  if (out.sums) expectTensor(op, out.sums, VALUE_TERM_COUNT, "f32", "sums");
  checkNoAlias(
    op,
    [out.dvalues, out.terms],
    inputs.map(([, t]) => t),
  );
  checkNoAlias(op, [out.dvalues], [out.terms]);
  ctx.dispatch(kernel, {
    bindings: [
      params(
        ["u32", N],
        ["f32", epsV],
        ["f32", uniformWeight ? (x.weights as number) : 0],
        ["f32", gradScale],
        ["u32", uniformWeight ? 0 : 1],
      ),
      x.values,
      x.valuesOld,
      x.returns,
      weights ?? x.values, // unread placeholder
      x.mask,
      out.dvalues,
      out.terms,
    ],
    workgroups: Math.ceil(N / kernel.invocations),
  });
  if (out.sums) reduceRows(ctx, "sum", out.sums, out.terms.reshape([VALUE_TERM_COUNT, N]));
}

/** The value loss and its metrics from the read-back sums (names as ppoValueLossAndGrad). */
export interface ValueLossMetrics {
  /** L_v = Σ w·ℓ (the spec's ½ mean_t max(…) with w = 1/n). */
  loss: number;
  /** Counted tokens n. */
  count: number;
  metrics: {
    /** mean_t [the clipped term is used]. */
    "val/clipfrac_avg": number;
  };
}

/**
 * Turn the `sums` of {@link valueLoss} (read back, [VALUE_TERM_COUNT]) into the loss and clip fraction.
 * @throws RangeError on a wrong length, no counted token, or invalid (non-finite) counted tokens.
 */
export function valueLossMetrics(sums: ArrayLike<number>): ValueLossMetrics {
  if (sums.length !== VALUE_TERM_COUNT)
    throw new RangeError(`valueLossMetrics: expected ${VALUE_TERM_COUNT} sums, got ${sums.length}`);
  const s = (name: (typeof VALUE_TERMS)[number]) => sums[VALUE_TERMS.indexOf(name)];
  const n = s("count");
  if (!(n > 0)) throw new RangeError("valueLoss: no counted token in the batch");
  if (s("invalid") !== 0)
    throw new RangeError(
      `valueLoss: ${s("invalid")} counted token(s) had a non-finite value, old value, return or weight; ` +
        "the update ran with their gradient at 0 and the run was stopped (a learning rate or temperature too far for this model: rewind and lower it)",
    );
  return { loss: s("loss"), count: n, metrics: { "val/clipfrac_avg": s("clipped") / n } };
}
