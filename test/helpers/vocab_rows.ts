/** Inputs and checks shared by the vocabulary-row kernel tests (softmax, token_logprob, entropy, exact_kl, CE). */
import { expect } from "vitest";
import type { Rng } from "../../src/util/rng";

/** [N, V]: one token, odd sizes, V = 1, a row above 256 (the widest workgroup) and a 1000-word vocabulary. */
export const ROW_SHAPES: readonly [number, number][] = [
  [1, 1],
  [3, 5],
  [65, 257],
  [2, 1000],
];

/** Workgroup widths the tests run: the software-adapter choice and the widest one. */
export const WIDTHS = [1, 256] as const;

/** Logits [N·V] ~ 3·N(0, 1) (softmax spreads from near-uniform to near-one-hot), as f32. */
export function randomLogits(rng: Rng, n: number, scale = 3): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = scale * rng.normal();
  return out;
}

/** Targets [N] in [0, V). */
export function randomTargets(rng: Rng, N: number, V: number): Int32Array {
  return Int32Array.from({ length: N }, () => rng.int(0, V - 1));
}

/** Mask [N] of 0/1 with every `period`-th row (from `offset`) masked out. */
export function stripedMask(N: number, period = 3, offset = 1): Float32Array {
  return Float32Array.from({ length: N }, (_, n) => (n % period === offset % period ? 0 : 1));
}

/** Overwrite every logit of the rows where mask is 0 with NaN / ±Inf (they must never be read). */
export function poisonMaskedRows(logits: Float32Array, V: number, rowIsMasked: (n: number) => boolean): void {
  const junk = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (let i = 0; i < logits.length; i++) if (rowIsMasked(Math.floor(i / V))) logits[i] = junk[i % 3];
}

/** Float64 central differences of f at x: ∂f/∂x_i ≈ (f(x + h e_i) − f(x − h e_i)) / 2h. */
export function centralDiff(f: (x: Float64Array) => number, x: ArrayLike<number>, h = 1e-6): Float64Array {
  const xs = Float64Array.from(x);
  const g = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x0 = xs[i];
    xs[i] = x0 + h;
    const up = f(xs);
    xs[i] = x0 - h;
    const down = f(xs);
    xs[i] = x0;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

/** Σ w_n·y_n: the scalar whose gradient a backward pass with upstream w computes. */
export function weighted(y: ArrayLike<number>, w: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i] * w[i];
  return s;
}

/** Expect every element to be exactly +0 or −0 (masked outputs: no NaN, no leak). */
export function expectAllZero(label: string, a: ArrayLike<number>): void {
  const bad = Array.from(a).findIndex((v) => v !== 0);
  expect(bad, `${label}: element ${bad} is ${a[bad]}, expected 0`).toBe(-1);
}

/** Expect two f32 arrays to hold the same bits (determinism). */
export function expectSameBits(label: string, a: Float32Array, b: Float32Array): void {
  expect(a.length, `${label}: lengths`).toBe(b.length);
  expect(a.length, `${label}: nothing to compare`).toBeGreaterThan(0);
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  const bad = ua.findIndex((v, i) => v !== ub[i]);
  expect(bad, `${label}: element ${bad} differs between runs (${a[bad]} vs ${b[bad]})`).toBe(-1);
}
