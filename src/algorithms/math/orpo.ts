/**
 * ORPO: odds-ratio preference optimisation, reference-free, on per-token averaged log-probs
 * (../shared/docs/algorithms.md, "ORPO").
 *
 * Source: Hong et al. 2024, "ORPO: Monolithic Preference Optimization without Reference Model" (L = L_SFT +
 * λ·L_OR, L_OR = −log σ(log odds(y_w) − log odds(y_l))). Names follow TRL's ORPOTrainer (its `beta` is the
 * spec's λ) and its metrics.
 *
 * Shapes: B preference pairs; every array is [B]. logP(y|x) is the mean of the completion's token log-probs
 * over its counted tokens (at τ), nats, ≤ 0. The GPU spreads a gradient g w.r.t. logP over the completion's
 * |y| tokens as g/|y| on each.
 */
import { checkLength, checkNumber, log1mexp, logSigmoid, sigmoid, type Vec } from "./numerics";

/** Spec default λ = 0.1. */
export const ORPO_DEFAULTS = { lambda: 0.1 } as const;

/**
 * Largest mean log-prob fed to log(1 − P): logP in (−1e-6, 0] is treated as −1e-6 inside log1mexp, so log
 * odds saturate near −log(1e-6) ≈ 13.8 instead of reaching +∞ at logP = 0 (a completion whose average token
 * probability rounds to 1). Values in (0, 1e-6] are float32 rounding and treated the same.
 */
export const ORPO_LOGP_CEIL = -1e-6;

/**
 * log odds(y) = logP − log(1 − exp(logP)) (Hong et al. 2024), with log(1 − eˣ) from numerics.log1mexp (the
 * spec's log1p(−exp(·)), in its accurate two-branch form) and logP capped at ORPO_LOGP_CEIL inside it.
 * logOdds(−∞) = −∞.
 * @returns the log odds and d(log odds)/d logP = 1/(1 − P) (= 1 where the cap applies, the first term's
 * slope).
 * @throws RangeError when logP is NaN or > 1e-6 (not a log-probability).
 */
export function logOdds(logP: number): { value: number; grad: number } {
  if (Number.isNaN(logP) || logP > -ORPO_LOGP_CEIL)
    throw new RangeError(`mean log-prob must be ≤ 1e-6 (0 plus float32 rounding), got ${logP}`);
  if (logP >= ORPO_LOGP_CEIL) return { value: logP - log1mexp(ORPO_LOGP_CEIL), grad: 1 };
  return { value: logP - log1mexp(logP), grad: -1 / Math.expm1(logP) };
}

/** Loss, gradients and TRL's metrics. */
export interface OrpoLoss {
  /** mean_b [L_SFT + λ·(−log σ(log odds(y_w) − log odds(y_l)))]. */
  loss: number;
  /** dloss/d logP(y_w) [B] (includes the 1/B). */
  dChosenMeanLogps: Float64Array;
  /** dloss/d logP(y_l) [B]. */
  dRejectedMeanLogps: Float64Array;
  metrics: {
    /** mean_b L_SFT = mean_b (−logP(y_w)). */
    nll_loss: number;
    /** mean_b log σ(log odds(y_w) − log odds(y_l)) (≤ 0). */
    log_odds_ratio: number;
    /** mean_b (log odds(y_w) − log odds(y_l)). */
    log_odds_chosen: number;
    /** mean_b λ·logP(y_w). */
    "rewards/chosen": number;
    /** mean_b λ·logP(y_l). */
    "rewards/rejected": number;
    /** Share of pairs with logP(y_w) > logP(y_l). */
    "rewards/accuracies": number;
    /** mean_b λ·(logP(y_w) − logP(y_l)). */
    "rewards/margins": number;
  };
}

/**
 * ORPO loss (spec "ORPO"): L = L_SFT(y_w) + λ·(−log σ(log odds(y_w) − log odds(y_l))), L_SFT = −logP(y_w) the
 * chosen completion's mean token cross-entropy, averaged over pairs (the spec's per-completion mean; TRL
 * averages the NLL over all chosen tokens of the batch instead, which weights long completions more).
 * −∞ log-probs: a −∞ rejected logP gives a finite loss (odds ratio term 0, no gradient through it); a −∞
 * chosen logP makes L_SFT infinite and throws.
 * @param chosenMeanLogps logP(y_w|x) [B], ≤ 0. @param rejectedMeanLogps logP(y_l|x) [B], ≤ 0.
 * @param lambda λ ≥ 0, default 0.1.
 * @throws RangeError on B = 0, different lengths, a log-prob that is NaN or > 1e-6, −∞ chosen, or λ < 0.
 */
export function orpoLossAndGrad(
  chosenMeanLogps: Vec,
  rejectedMeanLogps: Vec,
  lambda: number = ORPO_DEFAULTS.lambda,
): OrpoLoss {
  const B = chosenMeanLogps.length;
  if (B === 0) throw new RangeError("orpoLossAndGrad: no pairs");
  checkLength("rejectedMeanLogps", rejectedMeanLogps, B);
  checkNumber("lambda", lambda, 0);
  const dChosenMeanLogps = new Float64Array(B);
  const dRejectedMeanLogps = new Float64Array(B);
  let loss = 0;
  const m = { nll: 0, lor: 0, d: 0, rc: 0, rr: 0, acc: 0 };
  for (let b = 0; b < B; b++) {
    const pw = chosenMeanLogps[b];
    const pl = rejectedMeanLogps[b];
    if (pw === Number.NEGATIVE_INFINITY)
      throw new RangeError(`pair ${b}: chosen mean log-prob is −∞, so its SFT loss is infinite`);
    const ow = logOdds(pw);
    const ol = logOdds(pl);
    const d = ow.value - ol.value; // > −∞: ow is finite
    const s = sigmoid(-d); // −d/dd log σ(d)
    loss += -pw - lambda * logSigmoid(d);
    dChosenMeanLogps[b] = (-1 - lambda * s * ow.grad) / B;
    dRejectedMeanLogps[b] = (lambda * s * ol.grad) / B;
    m.nll += -pw;
    m.lor += logSigmoid(d);
    m.d += d;
    m.rc += lambda * pw;
    m.rr += lambda * pl;
    m.acc += pw > pl ? 1 : 0;
  }
  return {
    loss: loss / B,
    dChosenMeanLogps,
    dRejectedMeanLogps,
    metrics: {
      nll_loss: m.nll / B,
      log_odds_ratio: m.lor / B,
      log_odds_chosen: m.d / B,
      "rewards/chosen": m.rc / B,
      "rewards/rejected": m.rr / B,
      "rewards/accuracies": m.acc / B,
      "rewards/margins": (m.rc - m.rr) / B,
    },
  };
}
