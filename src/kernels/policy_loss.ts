/**
 * Clipped policy-gradient loss of PPO / GRPO / DAPO / Dr. GRPO on the GPU (src/shaders/policy_loss.wgsl): per
 * token, the gradient dL/dlogπ_θ for tokenLogprobBackward and the metric terms, reduced to a few sums on the
 * GPU so a training step reads back one small buffer. CPU twins: src/reference/policy_loss.ts per token;
 * src/algorithms/math ppoPolicyLossAndGrad / grpoLossAndGrad for the loss and metrics.
 */
import { clipRange } from "../algorithms/math/ppo";
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import { POLICY_TERMS } from "../reference/policy_loss";
import source from "../shaders/policy_loss.wgsl?raw";
import { reduceRows } from "./reduce";
import { checkNoAlias, expectTensor } from "./vocab_rows";

export { POLICY_TERMS };

/** Number of per-token metric rows (terms is [POLICY_TERM_COUNT, N], sums [POLICY_TERM_COUNT]). */
export const POLICY_TERM_COUNT = POLICY_TERMS.length;

const kernel = defineKernel({
  name: "policy_loss",
  source,
  bindings: [
    "uniform",
    "read-only-storage",
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
export interface PolicyLossInputs {
  /** logπ_θ(y_t) at τ (tokenLogprob). */
  logp: Tensor;
  /** logπ_old(y_t) from the rollout; null or omitted: ρ ≡ 1 (the batch is used once). */
  logpOld?: Tensor | null;
  /** logπ_ref(y_t); null or omitted: no k3 term (β must be 0) and the `k3` row is 0. Not read when null. */
  logpRef?: Tensor | null;
  /** A per token (GAE, whitened, for PPO; GRPO's A_b repeated over sequence b's slots). */
  advantages: Tensor;
  /**
   * Aggregation weight w of each counted token: a tensor [N] (GRPO's `aggregationWeights`), or one number for
   * every counted token (1/n for PPO's masked mean and DAPO, 1/(B·L) for Dr. GRPO). Finite.
   */
  weights: Tensor | number;
  /** 0/1 per token; 0 slots are never read and give 0 everywhere. */
  mask: Tensor;
}

/** Outputs. */
export interface PolicyLossOutputs {
  /** dL/dlogπ_θ [N] f32, L = Σ_n w_n·ℓ_n. */
  dlogp: Tensor;
  /** Per-token metric rows [POLICY_TERM_COUNT, N] f32 (POLICY_TERMS). */
  terms: Tensor;
  /** Row sums of terms [POLICY_TERM_COUNT] f32 (reduceRows); omitted: not reduced. Read it back, then call
   * {@link policyLossMetrics}. */
  sums?: Tensor | null;
}

/** Options (TRL names in brackets). */
export interface PolicyLossOptions {
  /** ε ∈ [0, 1) [`epsilon`, `cliprange`]; default 0.2. */
  epsilon?: number;
  /** ε_high ≥ 0 [`epsilon_high`]; default ε (DAPO's clip-higher uses 0.28). */
  epsilonHigh?: number;
  /** β ≥ 0 on the k3 KL term [`beta`]; default 0 (PPO puts its KL in the reward; GRPO's default is 0.04). */
  beta?: number;
}

/**
 * Record the clipped surrogate loss per token and its gradient (../shared/docs/algorithms.md, "PPO" step 4 and
 * "GRPO"; Schulman et al. 2017 eq. 7, DeepSeekMath eq. 3, DAPO's ε_high): for each counted token,
 * ρ = exp(logπ_θ − logπ_old), ℓ = −min(ρA, clip(ρ, 1 − ε, 1 + ε_high)A) + β·k3,
 * k3 = (π_ref/π_θ − 1) − log(π_ref/π_θ), dlogp = w·∂ℓ/∂logπ_θ, and the metric rows of POLICY_TERMS; then,
 * when `sums` is given, their sums over the batch (one reduceRows dispatch). Masked slots give exactly 0
 * without being read. A counted token with a non-finite input or result (f32 exp overflows for log-ratios
 * above 88.7) gets 0 gradient and is counted in the `invalid` row; {@link policyLossMetrics} then throws.
 * @throws RangeError on a size or dtype mismatch, an output sharing a buffer with an input or another output,
 *   ε or ε_high out of range, β < 0, β > 0 without logpRef, or a non-finite uniform weight.
 */
export function policyLoss(
  ctx: GpuContext,
  out: PolicyLossOutputs,
  x: PolicyLossInputs,
  opts: PolicyLossOptions = {},
): void {
  const op = "policyLoss";
  const N = x.logp.size;
  const { epsLow, epsHigh } = clipRange(opts); // defaults: ε = PPO_DEFAULTS.epsilon, ε_high = ε
  const beta = opts.beta ?? 0;
  if (!(beta >= 0) || !Number.isFinite(beta))
    throw new RangeError(`${op}: beta must be a finite number ≥ 0, got ${beta}`);
  if (beta > 0 && !x.logpRef) throw new RangeError(`${op}: beta = ${beta} > 0 needs logpRef`);
  const uniformWeight = typeof x.weights === "number";
  if (uniformWeight && !Number.isFinite(x.weights))
    throw new RangeError(`${op}: weight must be finite, got ${x.weights}`);
  const inputs: [string, Tensor | null | undefined][] = [
    ["logp", x.logp],
    ["logpOld", x.logpOld],
    ["logpRef", x.logpRef],
    ["advantages", x.advantages],
    ["weights", uniformWeight ? null : (x.weights as Tensor)],
    ["mask", x.mask],
  ];
  for (const [name, t] of inputs) if (t) expectTensor(op, t, N, "f32", name);
  expectTensor(op, out.dlogp, N, "f32", "dlogp");
  expectTensor(op, out.terms, POLICY_TERM_COUNT * N, "f32", "terms");
  if (out.sums) expectTensor(op, out.sums, POLICY_TERM_COUNT, "f32", "sums");
  const bound = inputs.map(([, t]) => t ?? null);
  checkNoAlias(op, [out.dlogp, out.terms], bound);
  checkNoAlias(op, [out.dlogp], [out.terms]);
  ctx.dispatch(kernel, {
    bindings: [
      params(
        ["u32", N],
        ["f32", epsLow],
        ["f32", epsHigh],
        ["f32", beta],
        ["f32", uniformWeight ? (x.weights as number) : 0],
        ["u32", x.logpOld ? 1 : 0],
        ["u32", x.logpRef ? 1 : 0],
        ["u32", uniformWeight ? 0 : 1],
      ),
      x.logp,
      x.logpOld ?? x.logp, // unread placeholders: any f32 buffer fills the binding
      x.logpRef ?? x.logp,
      x.advantages,
      uniformWeight ? x.logp : (x.weights as Tensor),
      x.mask,
      out.dlogp,
      out.terms,
    ],
    workgroups: Math.ceil(N / kernel.invocations),
  });
  if (out.sums) reduceRows(ctx, "sum", out.sums, out.terms.reshape([POLICY_TERM_COUNT, N]));
}

/** The batch loss and metrics from the read-back sums (names as ppoPolicyLossAndGrad and grpoLossAndGrad). */
export interface PolicyLossMetrics {
  /** Σ_n w_n·ℓ_n: the PPO policy loss (w = 1/n) or the GRPO loss under its aggregation. */
  loss: number;
  /** Counted tokens n. */
  count: number;
  metrics: {
    /** ½ mean_t (log ρ_t)² (nats). */
    "policy/approxkl_avg": number;
    /** mean_t [ρ < 1 − ε or ρ > 1 + ε_high]. */
    "policy/clipfrac_avg": number;
    /** mean_t ρ_t. */
    "val/ratio": number;
    /** mean_t [A < 0 and ρ < 1 − ε]. */
    "clip_ratio/low_mean": number;
    /** mean_t [A > 0 and ρ > 1 + ε_high]. */
    "clip_ratio/high_mean": number;
    /** low + high. */
    "clip_ratio/region_mean": number;
    /** mean_t k3 (nats), null without a reference model. */
    kl: number | null;
  };
}

/**
 * Turn the `sums` of {@link policyLoss} (read back, [POLICY_TERM_COUNT]) into the loss and metrics. Means are
 * over counted tokens (the sum of the `count` row), as in src/algorithms/math.
 * @param hasReference whether logpRef was given (else `kl` is null). Default true.
 * @throws RangeError on a wrong length, no counted token, or invalid (non-finite) counted tokens.
 */
export function policyLossMetrics(sums: ArrayLike<number>, hasReference = true): PolicyLossMetrics {
  if (sums.length !== POLICY_TERM_COUNT)
    throw new RangeError(`policyLossMetrics: expected ${POLICY_TERM_COUNT} sums, got ${sums.length}`);
  const s = (name: (typeof POLICY_TERMS)[number]) => sums[POLICY_TERMS.indexOf(name)];
  const n = s("count");
  if (!(n > 0)) throw new RangeError("policyLoss: no counted token in the batch");
  if (s("invalid") !== 0)
    throw new RangeError(
      `policyLoss: ${s("invalid")} counted token(s) had a non-finite log-prob, advantage, weight or ratio` +
        (hasReference ? " or KL term" : "") +
        " (a token with probability 0, or log π_θ − log π_old > 88" +
        (hasReference ? ", or log π_ref − log π_θ > 88, where k3 = e^ℓ − ℓ − 1 overflows" : "") +
        "); the update ran with their gradient at 0 and the run was stopped (a learning rate or temperature too far for this model: rewind and lower it)",
    );
  const low = s("clip_low") / n;
  const high = s("clip_high") / n;
  return {
    loss: s("loss"),
    count: n,
    metrics: {
      "policy/approxkl_avg": s("approx_kl") / n,
      "policy/clipfrac_avg": s("clipped") / n,
      "val/ratio": s("ratio") / n,
      "clip_ratio/low_mean": low,
      "clip_ratio/high_mean": high,
      "clip_ratio/region_mean": low + high,
      kl: hasReference ? s("k3") / n : null,
    },
  };
}
