/**
 * Win-rate evaluation (AlpacaFarm, Dubois et al. 2023): on each held-out prompt, model A's completion wins
 * (1), ties (½) or loses (0) against model B's by a scorer (the gold scorer, or the simulated annotator's
 * preference). The win rate is the mean outcome, with a 95% normal-approximation confidence interval on it:
 * over the prompts, for these two checkpoints only. It says nothing of how much another training seed of either
 * run would differ (the lab's win-rate view says so beside it: src/ui/lab/WinRate.tsx).
 */

export interface WinRate {
  /** Mean outcome in [0, 1] (ties count ½). */
  winRate: number;
  /** 95% confidence interval, clipped to [0, 1]. */
  ci95: [number, number];
  n: number;
  wins: number;
  ties: number;
  losses: number;
}

/**
 * Win rate of A over B from paired scores (same prompts, same order).
 * @throws RangeError on empty or unequal lengths or a non-finite score.
 */
export function winRate(scoresA: ArrayLike<number>, scoresB: ArrayLike<number>): WinRate {
  const n = scoresA.length;
  if (n === 0 || scoresB.length !== n)
    throw new RangeError(`winRate needs paired scores, got ${n} and ${scoresB.length}`);
  let wins = 0;
  let ties = 0;
  const outcomes = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = scoresA[i];
    const b = scoresB[i];
    if (!Number.isFinite(a) || !Number.isFinite(b))
      throw new RangeError(`score ${i} is not finite (${a}, ${b})`);
    outcomes[i] = a > b ? 1 : a === b ? 0.5 : 0;
    if (a > b) wins++;
    else if (a === b) ties++;
  }
  const mean = outcomes.reduce((s, v) => s + v, 0) / n;
  const variance = n > 1 ? outcomes.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return {
    winRate: mean,
    ci95: [Math.max(0, mean - half), Math.min(1, mean + half)],
    n,
    wins,
    ties,
    losses: n - wins - ties,
  };
}
