/**
 * How varied a step's sampled completions are within their groups: the "samples stop varying" side of entropy
 * collapse (Cui et al. 2025, arXiv:2505.22617; DAPO, Yu et al. 2025, arXiv:2503.14476 §3.1), which token entropy
 * shows only on average. Our diagnostic, not a TRL metric.
 */

/**
 * `completions/distinct_frac`: over groups of G consecutive completions (the G samples of one prompt), the mean
 * share of distinct completions, |{distinct token sequences}| / G. In [1/G, 1]: 1 when every sample in every group
 * differs, 1/G when each group's samples are all the same sequence (a collapsed policy).
 * @param completions [B] token sequences (EOS included when emitted), B a multiple of G.
 * @throws RangeError when G < 1 or B is not a positive multiple of G.
 */
export function distinctFraction(completions: readonly (readonly number[])[], G: number): number {
  const B = completions.length;
  if (!Number.isInteger(G) || G < 1 || B === 0 || B % G !== 0)
    throw new RangeError(`distinctFraction: ${B} completions do not make groups of ${G}`);
  let sum = 0;
  for (let g = 0; g < B; g += G) {
    const seen = new Set<string>();
    for (let i = g; i < g + G; i++) seen.add(completions[i].join(","));
    sum += seen.size / G;
  }
  return sum / (B / G);
}
