/**
 * KTO: Kahneman–Tversky optimisation on unpaired desirable / undesirable examples (../shared/docs/algorithms.md,
 * "KTO").
 *
 * Source: Ethayarajh et al. 2024, "KTO: Model Alignment as Prospect Theoretic Optimization" (the KTO loss and
 * its reference point z_0 estimated from mismatched pairs in the batch, treated as a constant). Names follow
 * TRL's KTOTrainer / KTOConfig (`beta`, `desirable_weight`, `undesirable_weight`, metric `kl`).
 *
 * Shapes: B examples; every array is [B]. Log-probs are sequence sums over the completion's counted tokens
 * (at τ), nats; r_θ = logπ_θ(y|x) − logπ_ref(y|x) is the implied reward (before β).
 */
import { checkLength, checkNumber, mean, sigmoid, type Vec } from "./numerics";

/** Spec defaults: β = 0.1, λ_D = λ_U = 1. */
export const KTO_DEFAULTS = { beta: 0.1, desirableWeight: 1, undesirableWeight: 1 } as const;

/**
 * Reference point z_0 = max(0, mean over mismatched pairs (x, y') of r_θ(x, y')), y' a completion of another
 * prompt in the batch (TRL: the KL term, `(policy_KL_logps − reference_KL_logps).mean().clamp(min=0)`). A
 * constant for the loss: no gradient flows through it.
 * @param logps logπ_θ(y'|x) [M] of the mismatched pairs. @param refLogps logπ_ref(y'|x) [M].
 * @returns z_0 ≥ 0, nats; 0 when the mean is −∞ (a −∞ policy log-prob, or a +∞ reference one).
 * @throws RangeError on M = 0, different lengths, or a mean that is NaN or +∞ (a NaN log-prob, a +∞ policy
 *   or −∞ reference log-prob, −∞ − (−∞)).
 */
export function ktoReferencePoint(logps: Vec, refLogps: Vec): number {
  if (logps.length === 0) throw new RangeError("ktoReferencePoint needs at least one mismatched pair");
  checkLength("refLogps", refLogps, logps.length);
  const r = Float64Array.from(logps, (l, i) => l - refLogps[i]);
  const z = mean(r);
  if (Number.isNaN(z) || z === Number.POSITIVE_INFINITY)
    throw new RangeError(`KTO reference point is ${z}: check the mismatched pairs' log-probs (NaN, ±∞)`);
  return Math.max(0, z);
}

/** Options (TRL names in brackets). */
export interface KtoOptions {
  /** β > 0 [`beta`], default 0.1. */
  beta?: number;
  /** λ_D ≥ 0 [`desirable_weight`], default 1. */
  desirableWeight?: number;
  /** λ_U ≥ 0 [`undesirable_weight`], default 1. */
  undesirableWeight?: number;
}

/** Loss, gradient and metrics. */
export interface KtoLoss {
  /** Mean over all B examples. */
  loss: number;
  /** Per-example losses [B]. */
  losses: Float64Array;
  /** dloss/d logπ_θ(y|x) [B] (z_0 held constant; includes the 1/B). */
  dLogps: Float64Array;
  metrics: {
    /** z_0, the KL estimate used as the reference point. */
    kl: number;
    /** Mean β·r_θ over desirable examples, null when there are none. */
    "rewards/chosen": number | null;
    /** Mean β·r_θ over undesirable examples, null when there are none. */
    "rewards/rejected": number | null;
  };
}

/**
 * KTO loss (spec "KTO"), mean over all examples of
 * - desirable: λ_D·(1 − σ(β(r_θ − z_0))),
 * - undesirable: λ_U·(1 − σ(β(z_0 − r_θ))),
 * with 1 − σ(x) computed as σ(−x). Gradient: ∓λ·β·σ(x)σ(−x) w.r.t. r_θ (− for desirable), i.e. w.r.t. logπ_θ.
 * A −∞ policy log-prob gives a finite loss (λ_D for a desirable example, 0 for an undesirable one) and zero
 * gradient; −∞ − (−∞) throws.
 * @param logps logπ_θ(y|x) [B]. @param refLogps logπ_ref(y|x) [B]. @param desirable [B], true for D.
 * @param z0 reference point ≥ 0 (ktoReferencePoint), finite.
 * @throws RangeError on B = 0, different lengths, NaN or +∞ log-probs, an undefined r_θ, or bad options.
 */
export function ktoLossAndGrad(
  logps: Vec,
  refLogps: Vec,
  desirable: ArrayLike<boolean>,
  z0: number,
  options: KtoOptions = {},
): KtoLoss {
  const B = logps.length;
  if (B === 0) throw new RangeError("ktoLossAndGrad: no examples");
  checkLength("refLogps", refLogps, B);
  if (desirable.length !== B)
    throw new RangeError(`desirable must have length ${B}, got ${desirable.length}`);
  checkNumber("z0", z0, 0);
  const beta = options.beta ?? KTO_DEFAULTS.beta;
  const wD = options.desirableWeight ?? KTO_DEFAULTS.desirableWeight;
  const wU = options.undesirableWeight ?? KTO_DEFAULTS.undesirableWeight;
  checkNumber("beta", beta, 0, true);
  checkNumber("desirableWeight", wD, 0);
  checkNumber("undesirableWeight", wU, 0);
  const losses = new Float64Array(B);
  const dLogps = new Float64Array(B);
  let chosen = 0;
  let nChosen = 0;
  let rejected = 0;
  let nRejected = 0;
  for (let b = 0; b < B; b++) {
    for (const [name, v] of [
      ["logps", logps[b]],
      ["refLogps", refLogps[b]],
    ] as const)
      if (Number.isNaN(v) || v === Number.POSITIVE_INFINITY)
        throw new RangeError(`${name}[${b}] must be a log-probability (finite or −∞), got ${v}`);
    const r = logps[b] - refLogps[b];
    if (Number.isNaN(r)) throw new RangeError(`example ${b}: r_θ = −∞ − (−∞) is undefined`);
    const x = desirable[b] ? beta * (r - z0) : beta * (z0 - r);
    const w = desirable[b] ? wD : wU;
    losses[b] = w * sigmoid(-x);
    const slope = w * beta * sigmoid(x) * sigmoid(-x);
    dLogps[b] = (desirable[b] ? -slope : slope) / B;
    if (desirable[b]) {
      chosen += beta * r;
      nChosen++;
    } else {
      rejected += beta * r;
      nRejected++;
    }
  }
  let loss = 0;
  for (const l of losses) loss += l;
  return {
    loss: loss / B,
    losses,
    dLogps,
    metrics: {
      kl: z0,
      "rewards/chosen": nChosen > 0 ? chosen / nChosen : null,
      "rewards/rejected": nRejected > 0 ? rejected / nRejected : null,
    },
  };
}
