/**
 * RLOO: REINFORCE with the leave-one-out baseline of the other completions of the same prompt, and the KL
 * penalty folded into the score (../shared/docs/algorithms.md, "RLOO and REINFORCE").
 *
 * Sources: Kool et al. 2019, "Buy 4 REINFORCE Samples, Get a Baseline for Free!"; Ahmadian et al. 2024, "Back
 * to Basics" (RLOO for RLHF). The loss is reinforce.ts's reinforceLossAndGrad.
 *
 * Shapes: G completions per prompt, B = (number of prompts)·G sequences laid out group by group, T token
 * slots; per-token arrays [B, T] flattened row-major with a 0/1 mask (masked.ts).
 */
import { klPerToken } from "./kl";
import { rowSums, type TokenShape } from "./masked";
import { checkFinite, checkLength, checkNumber, type Vec } from "./numerics";

/** KL coefficient of the score (the spec names none; TRL RLOOConfig's 0.05, the same as PPO's β). */
export const RLOO_DEFAULTS = { beta: 0.05 } as const;

/**
 * RLOO advantages A_i = R_i − (1/(G−1)) Σ_{j≠i} R_j within each group (Kool et al. 2019; Ahmadian et al.
 * 2024). A group whose scores are all equal gets exactly 0.
 * @param scores R [B] (usually rlooScores, KL included), finite. @param groupSize G ≥ 2, dividing B.
 * @throws RangeError when G < 2 (no other completion to form the baseline), B is not a multiple of G, or a
 * score   is not finite.
 */
export function rlooAdvantages(scores: Vec, groupSize: number): Float64Array {
  const B = scores.length;
  const G = groupSize;
  if (!Number.isInteger(G) || G < 2)
    throw new RangeError(`RLOO needs at least 2 completions per prompt (leave-one-out), got group size ${G}`);
  if (B === 0 || B % G !== 0)
    throw new RangeError(`batch of ${B} scores is not a whole number of groups of ${G}`);
  checkFinite("scores", scores);
  const out = new Float64Array(B);
  for (let from = 0; from < B; from += G) {
    let sum = 0;
    let equal = true;
    for (let i = from; i < from + G; i++) {
      sum += scores[i];
      equal &&= scores[i] === scores[from];
    }
    if (equal) continue;
    for (let i = from; i < from + G; i++) out[i] = scores[i] - (sum - scores[i]) / (G - 1);
  }
  return out;
}

/**
 * Score with the KL inside (spec: R_i ← R_i − β·Σ_t k1_t), k1_t = logπ_old(y_t) − logπ_ref(y_t) over the
 * completion's counted tokens.
 * @param scores R [B], finite. @param logp logπ_old [B, T] (the sampling policy, at τ). @param logpRef [B,
 * T].
 * @param beta β ≥ 0, default 0.05.
 * @returns R − β·KL [B].
 * @throws RangeError as klPerToken, or on a non-finite score or β < 0.
 */
export function rlooScores(
  scores: Vec,
  logp: Vec,
  logpRef: Vec,
  shape: TokenShape,
  beta: number = RLOO_DEFAULTS.beta,
): Float64Array {
  checkLength("scores", scores, shape.B);
  checkFinite("scores", scores);
  checkNumber("beta", beta, 0);
  const seqKl = rowSums(klPerToken(logp, logpRef, shape, "k1"), shape);
  return Float64Array.from(scores, (r, b) => r - beta * seqKl[b]);
}
