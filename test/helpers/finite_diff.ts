/**
 * Float64 central finite differences, for checking a CPU twin's analytic gradient: ∂f/∂x[i] ≈
 * (f(x + h·eᵢ) − f(x − h·eᵢ)) / 2h. With h = 1e-6 the truncation error is O(h²·f''') ≈ 1e-12 and the rounding
 * error ≈ ε·|f| / h ≈ 1e-10·|f|, so twins agree with it to ~1e-8 on O(1) losses.
 */

/** Default step: small truncation error, rounding error still far below test tolerances. */
export const FD_STEP = 1e-6;

/** ∂f/∂x by central differences; `x` is copied, `f` sees a Float64Array it must not keep. */
export function finiteDiffGrad(
  f: (x: Float64Array) => number,
  x: ArrayLike<number>,
  h = FD_STEP,
): Float64Array {
  const xs = Float64Array.from(x);
  const grad = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x0 = xs[i];
    xs[i] = x0 + h;
    const up = f(xs);
    xs[i] = x0 - h;
    const down = f(xs);
    xs[i] = x0;
    grad[i] = (up - down) / (2 * h);
  }
  return grad;
}

/** Σ a[i]·b[i] in float64: the scalar loss L = Σ out ⊙ dout whose gradient a backward pass computes. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** True when two float32 arrays hold the same bits (NaN payloads and ±0 included). */
export function sameBits(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return ua.every((v, i) => v === ub[i]);
}

/** Names of the two sides when a CPU twin's gradient is compared with {@link finiteDiffGrad} (expectClose's sides). */
export const TWIN_VS_FD = ["twin", "fd"] as const;
