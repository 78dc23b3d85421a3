/**
 * CPU twins of src/shaders/gelu.wgsl and gelu_backward.wgsl (float64). GPT-2's tanh approximation of GELU:
 * Hendrycks & Gimpel 2016, "Gaussian Error Linear Units", §2: gelu(x) ≈ 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
 */

/** √(2/π). */
export const GELU_K = Math.sqrt(2 / Math.PI);
/** The cubic coefficient of the tanh approximation. */
export const GELU_A = 0.044715;

/** gelu(x) for one value. */
export function geluScalar(x: number): number {
  return 0.5 * x * (1 + Math.tanh(GELU_K * (x + GELU_A * x * x * x)));
}

/** d gelu / dx for one value: 0.5·(1 + t) + 0.5·x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²), t = tanh(u). */
export function geluGradScalar(x: number): number {
  const t = Math.tanh(GELU_K * (x + GELU_A * x * x * x));
  const sech2 = 1 - t * t;
  // For |x| ≳ 10, t = ±1 exactly and sech² = 0; skip the product so x² overflow cannot make 0·∞.
  const tail = sech2 === 0 ? 0 : 0.5 * x * sech2 * GELU_K * (1 + 3 * GELU_A * x * x);
  return 0.5 * (1 + t) + tail;
}

/** out[i] = gelu(x[i]). */
export function geluRef(x: ArrayLike<number>): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = geluScalar(x[i]);
  return out;
}

/** dx[i] = dout[i] · gelu'(x[i]), plus dx0[i] when given (the accumulate option). */
export function geluBackwardRef(
  dout: ArrayLike<number>,
  x: ArrayLike<number>,
  dx0?: ArrayLike<number>,
): Float64Array {
  const dx = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) dx[i] = dout[i] * geluGradScalar(x[i]) + (dx0 ? dx0[i] : 0);
  return dx;
}
