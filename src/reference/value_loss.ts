/**
 * CPU twin of src/shaders/value_loss.wgsl: PPO's clipped value loss per token with any aggregation weights,
 * written as ppoValueLossAndGrad (src/algorithms/math/ppo.ts) writes it, which is the twin of the aggregated
 * loss and clip fraction (it uses w = 1/n).
 *
 * Shapes: N = B·T token slots (flat), terms [VALUE_TERMS.length, N] row-major (row k at k·N).
 * Source: ../shared/docs/algorithms.md, "PPO" step 5; Huang et al. 2024, "The N+ Implementation Details of RLHF with
 * PPO" (value clipping).
 */

/**
 * The per-token rows the kernel writes (and reduceRows sums), in order; masked slots are 0 in every row.
 * - `loss`: w·½·max((V − G)², (V^c − G)²), V^c = V_old + clip(V − V_old, −ε_v, ε_v);
 * - `count`: 1;
 * - `clipped`: [(V^c − G)² > (V − G)²] (the clipped term is the one used), logged as `val/clipfrac_avg`,
 *   the key TRL's PPOTrainer logs its `vf_clipfrac` under;
 * - `invalid`: 1 where a counted input or result is not finite (then `loss` and the gradient are 0).
 * The order is written twice, here and as the T_* constants of value_loss.wgsl; the tests check both.
 */
export const VALUE_TERMS = ["loss", "count", "clipped", "invalid"] as const;

/** Inputs of the twin, flat [N] arrays as the kernel takes them. */
export interface ValueLossRefInputs {
  /** V_t from the value head being trained. */
  values: ArrayLike<number>;
  /** V_t at rollout. */
  valuesOld: ArrayLike<number>;
  /** G_t (GAE returns). */
  returns: ArrayLike<number>;
  /** Aggregation weight per counted token, or one for all (1/n: the spec's mean_t). */
  weights: ArrayLike<number> | number;
  /** 0/1; slots with 0 are not read. */
  mask: ArrayLike<number>;
}

/**
 * dvalues [N] = gradScale·w·∂ℓ/∂V and terms [VALUE_TERMS.length, N] (float64), ℓ = ½ max(u², c²) with u = V − G,
 * c = V^c − G. ∂ℓ/∂V = u where the unclipped term is used; c where the clipped term is used and |V − V_old| < ε_v;
 * 0 where it is used and clipped (as ppoValueLossAndGrad).
 */
export function valueLossRef(
  x: ValueLossRefInputs,
  epsilonV: number,
  gradScale = 1,
): { dvalues: Float64Array; terms: Float64Array } {
  const N = x.mask.length;
  const row = (name: (typeof VALUE_TERMS)[number]) => VALUE_TERMS.indexOf(name) * N;
  const dvalues = new Float64Array(N);
  const terms = new Float64Array(VALUE_TERMS.length * N);
  for (let n = 0; n < N; n++) {
    if (x.mask[n] === 0) continue;
    terms[row("count") + n] = 1;
    const w = typeof x.weights === "number" ? x.weights : x.weights[n];
    const diff = x.values[n] - x.valuesOld[n];
    const vc = x.valuesOld[n] + Math.min(Math.max(diff, -epsilonV), epsilonV);
    const u = x.values[n] - x.returns[n];
    const c = vc - x.returns[n];
    const useClipped = c * c > u * u;
    const loss = 0.5 * (useClipped ? c * c : u * u);
    const grad = useClipped ? (Math.abs(diff) < epsilonV ? c : 0) : u;
    if (![w * loss, gradScale * w * grad].every(Number.isFinite)) {
      terms[row("invalid") + n] = 1;
      continue;
    }
    dvalues[n] = gradScale * w * grad;
    terms[row("loss") + n] = w * loss;
    terms[row("clipped") + n] = useClipped ? 1 : 0;
  }
  return { dvalues, terms };
}
