/**
 * Scalar float64 helpers shared by the algorithm math: stable softplus / log-sigmoid / sigmoid, log(1 − eˣ),
 * and plain means and standard deviations. Every function here is total on ±∞ (no NaN from an infinite
 * argument) unless its docstring says otherwise.
 */

/** Numbers as the math accepts them: GPU readbacks (Float32Array), Float64Array or plain arrays. */
export type Vec = ArrayLike<number>;

/**
 * softplus(x) = log(1 + eˣ), computed as max(x, 0) + log1p(e^−|x|) so it never overflows.
 * softplus(−∞) = 0, softplus(+∞) = +∞; NaN in, NaN out.
 */
export function softplus(x: number): number {
  return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
}

/**
 * log σ(z) = −softplus(−z) (../shared/docs/algorithms.md, "DPO family": the stable form). Range (−∞, 0];
 * logSigmoid(+∞) = 0, logSigmoid(−∞) = −∞.
 */
export function logSigmoid(z: number): number {
  return -softplus(-z);
}

/** σ(z) = 1 / (1 + e^−z) without overflow: σ(+∞) = 1, σ(−∞) = 0. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * log(1 − eˣ) for x ≤ 0, the `log1p(−exp(x))` of ORPO's log-odds, in the accurate two-branch form
 * (Mächler 2012, "Accurately computing log(1 − exp(−|a|))"): log(−expm1(x)) for x > −ln 2, log1p(−eˣ)
 * otherwise. log1mexp(0) = −∞, log1mexp(−∞) = 0; x > 0 gives NaN (no real value), so callers check first.
 */
export function log1mexp(x: number): number {
  return x > -Math.LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
}

/** Arithmetic mean of x[0..n). @throws RangeError when x is empty. */
export function mean(x: Vec): number {
  if (x.length === 0) throw new RangeError("mean of an empty array");
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

/**
 * Standard deviation of x[from..from+n) about its mean, two-pass. `sample` = true divides by n − 1 (Bessel;
 * torch.std's default, which TRL's GRPO uses), false by n. A single value gives 0 either way.
 * @throws RangeError when n < 1.
 */
export function std(x: Vec, sample: boolean, from = 0, n = x.length - from): number {
  if (n < 1) throw new RangeError("std of an empty range");
  if (n === 1) return 0;
  let s = 0;
  for (let i = from; i < from + n; i++) s += x[i];
  const m = s / n;
  let ss = 0;
  for (let i = from; i < from + n; i++) ss += (x[i] - m) * (x[i] - m);
  return Math.sqrt(ss / (sample ? n - 1 : n));
}

/** @throws RangeError naming `what` unless every entry is finite. */
export function checkFinite(what: string, x: Vec): void {
  for (let i = 0; i < x.length; i++)
    if (!Number.isFinite(x[i])) throw new RangeError(`${what}[${i}] must be finite, got ${x[i]}`);
}

/** @throws RangeError naming `what` unless x.length = n. */
export function checkLength(what: string, x: Vec, n: number): void {
  if (x.length !== n) throw new RangeError(`${what} must have length ${n}, got ${x.length}`);
}

/** @throws RangeError naming `what` unless x is a finite number ≥ `min` (strictly > when `open`). */
export function checkNumber(what: string, x: number, min = Number.NEGATIVE_INFINITY, open = false): void {
  if (!Number.isFinite(x) || (open ? !(x > min) : !(x >= min)))
    throw new RangeError(`${what} must be a finite number ${open ? ">" : "≥"} ${min}, got ${x}`);
}
