/**
 * Seeded random numbers (pure-rand's xoroshiro128+): the same seed gives the same stream on every machine.
 * Used for test inputs, prompt order and initialisation; the GPU sampler has its own counter-based RNG.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

export class Rng {
  private readonly gen;
  constructor(readonly seed: number) {
    this.gen = xoroshiro128plus(seed | 0);
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
