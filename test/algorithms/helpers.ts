/** Helpers for the algorithm-math tests: tolerant comparison and ragged → padded [B, T] batches. */
import { expect } from "vitest";
import { finiteDiffGrad } from "../helpers/finite_diff";

/** Default float64 tolerance of the shared vectors: 1e-6 relative (with a 1e-12 floor for zeros). */
export const REL = 1e-6;

/** |actual − expected| ≤ rel·|expected| + abs, with a message naming `what`. */
export function expectClose(actual: number, expected: number, what = "value", rel = REL, abs = 1e-12): void {
  const ok = Math.abs(actual - expected) <= rel * Math.abs(expected) + abs;
  expect(ok, `${what}: got ${actual}, expected ${expected}`).toBe(true);
}

/** expectClose on every entry. */
export function expectAllClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  what = "array",
  rel = REL,
  abs = 1e-12,
): void {
  expect(actual.length, `${what} length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expectClose(actual[i], expected[i], `${what}[${i}]`, rel, abs);
}

/**
 * Lay ragged rows into a [B, T] batch: row b's values start at slot offsets[b] (default 0); every other slot
 * holds `fill` (NaN by default, so a leak shows) and mask 0.
 */
export function padRows(
  rows: readonly (readonly number[])[],
  T: number,
  fill = Number.NaN,
  offsets: readonly number[] = [],
): { x: Float64Array; mask: Float64Array; B: number; T: number } {
  const B = rows.length;
  const x = new Float64Array(B * T).fill(fill);
  const mask = new Float64Array(B * T);
  rows.forEach((row, b) => {
    const o = offsets[b] ?? 0;
    if (o + row.length > T) throw new Error(`row ${b} does not fit in T = ${T}`);
    row.forEach((v, t) => {
      x[b * T + o + t] = v;
      mask[b * T + o + t] = 1;
    });
  });
  return { x, mask, B, T };
}

/** The counted entries of a [B, T] array, row by row (to compare batches with different padding). */
export function counted(x: ArrayLike<number>, mask: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) out.push(x[i]);
  return out;
}

/**
 * The analytic gradient matches float64 central differences of the loss (test/helpers/finite_diff.ts) to
 * 1e-6 relative + 1e-8 absolute (the differences' own error is ~1e-10 on O(1) losses).
 */
export function expectGradMatchesFd(
  loss: (x: Float64Array) => number,
  x: ArrayLike<number>,
  analytic: ArrayLike<number>,
  what: string,
): void {
  expectAllClose(analytic, finiteDiffGrad(loss, x), what, 1e-6, 1e-8);
}
