/**
 * Best-of-n sampling: selection, the usual analytic KL bound, and the KL estimated from samples
 * (../shared/docs/algorithms.md, "Best-of-n").
 *
 * Sources: Stiennon et al. 2020, "Learning to summarize from human feedback" (the log n − (n−1)/n formula,
 * used since by Gao et al. 2022 and others); Beirami et al. 2024, "Theoretical guarantees on the best-of-n
 * alignment policy" (arXiv 2401.01879): §2 derives the best-of-n probability mass function from the reward
 * CDF, Thm. 3.1 shows the formula is only an upper bound. Units: nats.
 */
import { checkFinite, type Vec } from "./numerics";

/**
 * log n − (n − 1)/n, the usual KL(π_BoN ‖ π_ref) formula, an upper bound on the true KL (Beirami et al. 2024,
 * Thm. 3.1):
 * 0 for n = 1, grows like log n.
 * @throws RangeError unless n is a positive integer.
 */
export function bestOfNKlBound(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  return Math.log(n) - (n - 1) / n;
}

/**
 * Index of the best completion of each group of n, [B/n] (indices into scores). Ties go to the first: since
 * the n samples are i.i.d., that is a uniformly random choice among the tied ones, the tie rule
 * bestOfNKlEstimate assumes.
 * @param scores [B], B = (number of prompts)·n, laid out prompt by prompt; finite.
 * @throws RangeError when n is not a positive integer dividing B, or a score is not finite.
 */
export function bestOfNSelect(scores: Vec, n: number): Int32Array {
  if (!Number.isInteger(n) || n < 1 || scores.length === 0 || scores.length % n !== 0)
    throw new RangeError(`${scores.length} scores are not a whole number of groups of n = ${n}`);
  checkFinite("scores", scores);
  const out = new Int32Array(scores.length / n);
  for (let g = 0; g < out.length; g++) {
    let best = g * n;
    for (let i = g * n + 1; i < (g + 1) * n; i++) if (scores[i] > scores[best]) best = i;
    out[g] = best;
  }
  return out;
}

/**
 * KL(π_BoN ‖ π_ref) estimated from the scores of N samples of π_ref (plug-in of Beirami et al. 2024's §2
 * PMF): with distinct score levels s_1 < … < s_K of empirical probabilities q_k and CDF F_k, best-of-n puts
 * mass p_k = F_k^n − F_{k−1}^n on level k, and KL = Σ_k p_k log(p_k/q_k). Best-of-n changes only how likely
 * each score level is (within a level, with ties broken uniformly, completions keep their reference
 * proportions), so this is the exact KL for the empirical score distribution. With all N scores distinct it
 * tends to the bound as N → ∞; ties (e.g. a right/wrong score) make it much smaller than the bound.
 * @param refScores scores of samples from π_ref [N], finite, N ≥ 1. @param n ≥ 1.
 * @throws RangeError on an empty or non-finite score array, or n not a positive integer.
 */
export function bestOfNKlEstimate(refScores: Vec, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const N = refScores.length;
  if (N === 0) throw new RangeError("bestOfNKlEstimate needs at least one reference score");
  checkFinite("refScores", refScores);
  const sorted = Float64Array.from(refScores).sort();
  let kl = 0;
  let below = 0; // samples with a lower score
  for (let i = 0; i < N; ) {
    let j = i;
    while (j < N && sorted[j] === sorted[i]) j++;
    const q = (j - i) / N;
    const p = (j / N) ** n - (below / N) ** n;
    if (p > 0) kl += p * Math.log(p / q);
    below = j;
    i = j;
  }
  return Math.max(0, kl);
}

/**
 * E_x KL(π_BoN(·|x) ‖ π_ref(·|x)) estimated from a batch: {@link bestOfNKlEstimate} on each prompt's own n
 * scores, averaged over prompts. Best-of-n picks within a prompt's group, so pooling every prompt's scores
 * would mix prompts and overstate the KL (half the prompts always solved and half never: the true KL is 0,
 * the pooled estimate is not). With N = n samples per prompt the plug-in is biased low for continuous scores
 * (n = 4, all distinct: 0.590 against the bound 0.636) and exact for the empirical distribution of each
 * group.
 * @param scores [B], B = (number of prompts)·n, laid out prompt by prompt (as {@link bestOfNSelect}); finite.
 * @throws RangeError when n is not a positive integer dividing B, or a score is not finite.
 */
export function bestOfNKlPerPrompt(scores: Vec, n: number): number {
  if (!Number.isInteger(n) || n < 1 || scores.length === 0 || scores.length % n !== 0)
    throw new RangeError(`${scores.length} scores are not a whole number of groups of n = ${n}`);
  const groups = scores.length / n;
  let sum = 0;
  for (let g = 0; g < groups; g++)
    sum += bestOfNKlEstimate(
      Array.from({ length: n }, (_, i) => scores[g * n + i]),
      n,
    );
  return sum / groups;
}
