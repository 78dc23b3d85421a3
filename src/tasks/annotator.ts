/**
 * Simulated annotators (AlpacaFarm, Dubois et al. 2023): a preference label comes from the task's gold scorer,
 * then is flipped with probability `flipRate`. AlpacaFarm's simulated annotators disagree with the majority
 * about 25% of the time, and that label noise is what lets reward over-optimisation appear; 0.25 is the
 * default here.
 *
 * For two completions a, b of one prompt with gold scores g_a, g_b:
 * - g_a ≠ g_b: the gold winner is the higher one; with probability `flipRate` the label is flipped
 *   (`flipped = true`) and the lower one wins;
 * - g_a = g_b (a tie, e.g. two wrong sums): the winner is a fair coin; `tie = true`, `flipped = false`
 *   (flipping a coin toss changes nothing, so ties are not counted as flips).
 * Every random draw comes from the caller's Rng (one `float()` per call, two on a tie), so a run is
 * reproducible from its seed.
 */
import type { Rng } from "../util/rng";
import type { Task } from "./task";

/** Default label-flip rate (AlpacaFarm's ~25% annotator noise). */
export const DEFAULT_FLIP_RATE = 0.25;

/** The outcome of one comparison. */
export interface Preference {
  /** Which completion the annotator prefers. */
  winner: "a" | "b";
  /** The label disagrees with the gold order (never on a tie). */
  flipped: boolean;
  /** The gold scores were equal; the winner was a coin toss. */
  tie: boolean;
  /** Gold scores of a and b. */
  goldA: number;
  goldB: number;
}

export interface Annotator {
  readonly flipRate: number;
  /** Compare completions `a` and `b` of `prompt`. */
  prefer(prompt: string, a: string, b: string, rng: Rng): Preference;
}

/**
 * Label a pair from gold scores already computed (the core of {@link SimulatedAnnotator.prefer}).
 * @throws RangeError if flipRate is not in [0, 1] or a score is NaN.
 */
export function preferByGold(goldA: number, goldB: number, flipRate: number, rng: Rng): Preference {
  checkFlipRate(flipRate);
  if (Number.isNaN(goldA) || Number.isNaN(goldB)) throw new RangeError("gold scores must not be NaN");
  if (goldA === goldB) {
    const winner = rng.float() < 0.5 ? "a" : "b";
    return { winner, flipped: false, tie: true, goldA, goldB };
  }
  const flipped = rng.float() < flipRate;
  const goldWinner = goldA > goldB ? "a" : "b";
  const winner = flipped ? (goldWinner === "a" ? "b" : "a") : goldWinner;
  return { winner, flipped, tie: false, goldA, goldB };
}

function checkFlipRate(flipRate: number): void {
  if (!(flipRate >= 0 && flipRate <= 1)) throw new RangeError(`flipRate ${flipRate} must be in [0, 1]`);
}

/** An annotator that labels by the task's gold scorer with label noise. */
export class SimulatedAnnotator implements Annotator {
  /**
   * @param task whose `gold` decides.
   * @param flipRate probability in [0, 1] that a non-tied label is flipped; default 0.25.
   * @throws RangeError if flipRate is outside [0, 1].
   */
  constructor(
    readonly task: Pick<Task, "gold">,
    readonly flipRate = DEFAULT_FLIP_RATE,
  ) {
    checkFlipRate(flipRate);
  }

  prefer(prompt: string, a: string, b: string, rng: Rng): Preference {
    return preferByGold(this.task.gold(prompt, a), this.task.gold(prompt, b), this.flipRate, rng);
  }
}
