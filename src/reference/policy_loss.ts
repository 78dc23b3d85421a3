/**
 * CPU twin of src/shaders/policy_loss.wgsl: a thin per-token adapter over the float64 algorithm math
 * (src/algorithms/math/ppo.ts clippedObjective/clippedObjectiveGrad/clipBinds, kl.ts k3), so the kernel and
 * ppoPolicyLossAndGrad / grpoLossAndGrad share one definition of every term. Those functions are the twins of
 * the kernel's *aggregated* results (loss and metrics); this one also gives the per-token rows the kernel
 * writes, for any weights.
 *
 * Shapes: N = B·T token slots (flat), terms [POLICY_TERMS.length, N] row-major (row k at k·N).
 * Source: ../shared/docs/algorithms.md, "PPO" step 4 and diagnostics, "GRPO" (objective, clip-higher, k3, aggregation).
 */
import { klFromLogRatio, klGradLogp } from "../algorithms/math/kl";
import { clipBinds, clippedObjective, clippedObjectiveGrad } from "../algorithms/math/ppo";

/**
 * The per-token rows the kernel writes (and reduceRows sums), in order. Counted tokens only; masked slots
 * are 0 in every row.
 * - `loss`: w·ℓ with ℓ = −min(ρA, clip(ρ, 1 − ε, 1 + ε_high)A) + β·k3, the per-token loss (its sum is the
 *   batch loss);
 * - `count`: 1 (its sum is the number of counted tokens n);
 * - `ratio`: ρ = exp(logπ_θ − logπ_old);
 * - `approx_kl`: ½(log ρ)²;
 * - `clipped`: [ρ < 1 − ε or ρ > 1 + ε_high] (the spec's clipfrac, whatever the sign of A);
 * - `clip_low`: [A < 0 and ρ < 1 − ε] (the lower clip binds); `clip_high`: [A > 0 and ρ > 1 + ε_high];
 * - `k3`: (u − 1) − log u with u = π_ref/π_θ (0 without a reference);
 * - `invalid`: 1 where a counted input or result is not finite (NaN, ±∞; f32 exp overflows at 88.7): every
 *   other row except `count` and the gradient are then 0 there.
 * The row order is written twice, here and as the T_* constants of policy_loss.wgsl; the tests check both.
 */
export const POLICY_TERMS = [
  "loss",
  "count",
  "ratio",
  "approx_kl",
  "clipped",
  "clip_low",
  "clip_high",
  "k3",
  "invalid",
] as const;

/** Inputs of the twin, as the kernel takes them (flat [N] arrays). */
export interface PolicyLossRefInputs {
  /** logπ_θ(y_t) [N] at τ. */
  logp: ArrayLike<number>;
  /** logπ_old(y_t) [N], or null: ρ ≡ 1 (the batch is used once, π_old = π_θ detached). */
  logpOld: ArrayLike<number> | null;
  /** logπ_ref(y_t) [N], or null (then k3 = 0 and β must be 0). */
  logpRef: ArrayLike<number> | null;
  /** A [N], per token (GRPO's per-sequence A_b repeated over the sequence's slots). */
  advantages: ArrayLike<number>;
  /** Aggregation weight w [N] of each counted token, or one weight for all of them (e.g. 1/n). */
  weights: ArrayLike<number> | number;
  /** [N] 0/1; slots with 0 are not read. */
  mask: ArrayLike<number>;
}

/** ε (lower), ε_high (upper) and β of the k3 term; the kernel wrapper checks their ranges. */
export interface PolicyLossRefOptions {
  epsLow: number;
  epsHigh: number;
  beta: number;
}

/**
 * dlogp [N] = w·∂ℓ/∂logπ_θ and terms [POLICY_TERMS.length, N] (float64). The gradient of the surrogate is
 * −ρA where the clip does not bind, else 0 (clippedObjectiveGrad); of β·k3 it is −β·expm1(ℓ_ref), ℓ_ref =
 * logπ_ref − logπ_θ (klGradLogp).
 */
export function policyLossRef(
  x: PolicyLossRefInputs,
  o: PolicyLossRefOptions,
): { dlogp: Float64Array; terms: Float64Array } {
  const N = x.mask.length;
  const K = POLICY_TERMS.length;
  const row = (name: (typeof POLICY_TERMS)[number]) => POLICY_TERMS.indexOf(name) * N;
  const dlogp = new Float64Array(N);
  const terms = new Float64Array(K * N);
  for (let n = 0; n < N; n++) {
    if (x.mask[n] === 0) continue;
    terms[row("count") + n] = 1;
    const w = typeof x.weights === "number" ? x.weights : x.weights[n];
    const logRatio = x.logpOld ? x.logp[n] - x.logpOld[n] : 0;
    const ratio = Math.exp(logRatio);
    const A = x.advantages[n];
    let loss = -clippedObjective(ratio, A, o.epsLow, o.epsHigh);
    let grad = -clippedObjectiveGrad(ratio, A, o.epsLow, o.epsHigh);
    let k3 = 0;
    if (x.logpRef) {
      const ell = x.logpRef[n] - x.logp[n];
      k3 = klFromLogRatio(ell, "k3");
      if (o.beta !== 0) {
        loss += o.beta * k3;
        grad += o.beta * klGradLogp(ell, "k3");
      }
    }
    const values = [w * loss, w * grad, ratio, logRatio, k3];
    if (!values.every(Number.isFinite) || !Number.isFinite(x.logp[n])) {
      terms[row("invalid") + n] = 1;
      continue;
    }
    dlogp[n] = w * grad;
    terms[row("loss") + n] = w * loss;
    terms[row("ratio") + n] = ratio;
    terms[row("approx_kl") + n] = 0.5 * logRatio * logRatio;
    terms[row("clipped") + n] = ratio < 1 - o.epsLow || ratio > 1 + o.epsHigh ? 1 : 0;
    const binds = clipBinds(ratio, A, o.epsLow, o.epsHigh);
    terms[row("clip_low") + n] = binds && A < 0 ? 1 : 0;
    terms[row("clip_high") + n] = binds && A > 0 ? 1 : 0;
    terms[row("k3") + n] = k3;
  }
  return { dlogp, terms };
}
