/**
 * Seeded random numbers (pure-rand's xoroshiro128+): the same seed gives the same stream on every machine.
 * Used for test inputs, prompt order and initialisation; the GPU sampler has its own counter-based RNG.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus, xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";

/** murmur3's 32-bit finaliser: every input bit flips each output bit with probability ≈ 1/2. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * `new Rng(seed)` starts pure-rand's generator from the state (−1, ~seed, seed, 0): its first draw is 1 − seed/2²⁶
 * and streams of nearby seeds stay correlated for hundreds of draws. That is kept for what shipped files were
 * made with (task splits, prompt order, initialisation, data builds). A stream keyed by a counter (a step, a
 * pair id) must come from {@link Rng.mixed}. One exception, kept: PPO's minibatch shuffle (ppo.ts) draws from
 * `new Rng(stepSeed(…))`; its first draw (the row put last) cycles with the step, harmless because a step's rows
 * are fresh samples, and changing it would change every logged PPO run the lessons quote.
 */
export class Rng {
  private readonly gen;
  constructor(
    readonly seed: number,
    state?: readonly number[],
  ) {
    this.gen = state ? xoroshiro128plusFromState(state) : xoroshiro128plus(seed | 0);
  }

  /**
   * A stream whose whole 128-bit state is hashed from `seed` (fmix32 over a Weyl sequence), so seeds that differ
   * by one, or by a step counter, give independent streams from the first draw on.
   */
  static mixed(seed: number): Rng {
    let w = seed | 0;
    // fmix32 is a bijection and the four Weyl words differ, so the state is never all zero (a fixed point).
    const state = [0, 1, 2, 3].map(() => fmix32((w = (w + 0x9e3779b9) | 0)));
    return new Rng(seed, state);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return uniformFloat64(this.gen);
  }

  /** Uniform integer in [lo, hi] (both included). */
  int(lo: number, hi: number): number {
    return uniformInt(this.gen, lo, hi);
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** n values uniform in [lo, hi). */
  uniform(n: number, lo = -1, hi = 1): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * this.float();
    return out;
  }
}
