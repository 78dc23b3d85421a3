/**
 * Preference pairs from the current policy (online DPO, ORPO) and their layout. Two completions are sampled
 * per prompt (rows i and i + B of a rollout); the simulated annotator (AlpacaFarm, Dubois et al. 2023) prefers
 * the higher gold score (ties: a coin) and flips the label with the configured rate.
 */
import { Rng } from "../util/rng";
import type { Rollout } from "./rollout";
import { stepSeed } from "./run";
import { layoutSequences, type SequenceBatch } from "./sequences";

/** A preference pair: completions up to and including EOS. */
export interface PreferencePair {
  prompt: number[];
  chosen: number[];
  rejected: number[];
}

/**
 * The simulated annotator's random stream for step `step` (1-based) of a run on `seed`: the same for every pair
 * learner (online DPO, ORPO), so runs of either on one seed label the same sampled pairs alike.
 */
export function annotatorRng(seed: number, step: number): Rng {
  return Rng.mixed(stepSeed(seed ^ 0x68e31da4, step));
}

/**
 * Label the B pairs (row i vs row i + B) of a rollout of 2B completions; `flips[i]`: pair i's label was flipped;
 * `ties`: pairs whose two completions have the same gold score (their order is a coin: two wrong sums, or the
 * same text, are common on arithmetic).
 */
export function labelPairs(
  r: Rollout,
  flipRate: number,
  rng: Rng,
): { pairs: PreferencePair[]; flipped: number; flips: boolean[]; ties: number } {
  const B = r.completions.length / 2;
  const pairs: PreferencePair[] = [];
  const flips: boolean[] = [];
  let flipped = 0;
  let ties = 0;
  for (let i = 0; i < B; i++) {
    const a = r.completions[i];
    const b = r.completions[i + B];
    const tie = r.gold[i] === r.gold[i + B];
    if (tie) ties++;
    let aWins = tie ? rng.float() < 0.5 : r.gold[i] > r.gold[i + B];
    // The flip draw is taken on a tie too (a coin flipped is still a coin), but a tie is never counted as a
    // flip: the gold scorer prefers neither (as src/tasks/annotator.ts).
    const draw = rng.float() < flipRate;
    if (draw) aWins = !aWins;
    const flip = draw && !tie;
    if (flip) flipped++;
    flips.push(flip);
    pairs.push({ prompt: r.prompts[i], chosen: aWins ? a : b, rejected: aWins ? b : a });
  }
  return { pairs, flipped, flips, ties };
}

/**
 * The annotator's metrics for a step of B labelled pairs, `ties` of them gold ties: `annotator/flipped`, the
 * share of the pairs the gold prefers one of whose label was flipped (a tie's label means nothing, so it is left
 * out of both counts: with a third of the pairs tied, dividing by all of them read 0.18 at a rate of 0.25; absent
 * when every pair tied), and `annotator/ties`, the share of pairs that were gold ties (ordered by a coin).
 */
export function annotatorMetrics(flipped: number, ties: number, B: number): Record<string, number> {
  return {
    // Left out when every pair tied: there was nothing to flip (a 0 would pull the chart's mean down).
    ...(B - ties > 0 && { "annotator/flipped": flipped / (B - ties) }),
    "annotator/ties": B > 0 ? ties / B : 0,
  };
}

/** Rows: the B chosen completions, then the B rejected ones (TRL's concatenated batch), truncated to S. */
export function layoutPairs(
  pairs: readonly PreferencePair[],
  P: number,
  S: number,
  padId: number,
): SequenceBatch {
  const rows = [...pairs.map((p) => p.chosen), ...pairs.map((p) => p.rejected)];
  const flat = new Int32Array(rows.length * S).fill(padId);
  rows.forEach((c, i) => {
    flat.set(c.slice(0, S), i * S);
  });
  const prompts = [...pairs.map((p) => p.prompt), ...pairs.map((p) => p.prompt)];
  return layoutSequences(
    prompts,
    flat,
    rows.map((c) => Math.min(c.length, S)),
    P,
    S,
    padId,
  );
}
