/**
 * pass@k, the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained on Code",
 * eq. 1 and its numerically stable form in their Figure 3): from n samples of which c are correct,
 *   pass@k = 1 − C(n−c, k) / C(n, k) = 1 − Π_{i=n−c+1}^{n} (1 − k/i),
 * the probability that a random k-subset of the n samples holds at least one correct one. Averaged over
 * prompts it estimates the chance that k fresh samples solve a prompt, without the bias of "any of the first
 * k correct".
 */

/**
 * pass@k for one prompt. Result in [0, 1]; 1 when n − c < k (every k-subset holds a correct sample).
 * @throws RangeError unless n, c, k are integers with 0 ≤ c ≤ n and 1 ≤ k ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n)
    throw new RangeError(`pass@k needs integers 0 ≤ c ≤ n and 1 ≤ k ≤ n (n=${n}, c=${c}, k=${k})`);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/**
 * Mean pass@k over prompts, each given as [n, c].
 * @throws RangeError on an empty list or as {@link passAtK}.
 */
export function meanPassAtK(counts: readonly (readonly [number, number])[], k: number): number {
  if (counts.length === 0) throw new RangeError("meanPassAtK needs at least one prompt");
  let s = 0;
  for (const [n, c] of counts) s += passAtK(n, c, k);
  return s / counts.length;
}
