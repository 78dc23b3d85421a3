/**
 * CPU twin of src/shaders/softmax.wgsl, and the row log-softmax every vocabulary-row twin builds on
 * (token_logprob, entropy, exact_kl, cross_entropy). Plain float64 loops.
 *
 * Temperature rule (../shared/docs/algorithms.md, "Notation"): every distribution is softmax(logits / τ). Rows are
 * max-shifted before dividing by τ: z_v = (x_v − max x) / τ, so huge equal logits ([1e20, 1e20]) stay exact.
 */

/** Logits as the twins accept them: the f32 values uploaded to the GPU, or float64 for finite differences. */
export type Logits = Float32Array | Float64Array;

/** @throws RangeError unless τ is a finite number > 0. */
export function checkTau(tau: number): void {
  if (!(tau > 0) || !Number.isFinite(tau))
    throw new RangeError(`temperature τ must be finite and > 0, got ${tau}`);
}

/**
 * log softmax(x[row, :] / τ) in float64, or null when the row is all −∞ (no distribution: callers write zeros).
 * Logits must be finite or −∞. log S is log1p(r), S = 1 + r (r: the e^{z_v} below the max plus the max's ties
 * − 1), the form the kernels use so that a near-certain entry's log-prob (−2.6e-6) keeps its digits.
 */
export function logSoftmaxRow(
  x: ArrayLike<number>,
  row: number,
  V: number,
  tau: number,
): Float64Array | null {
  const base = row * V;
  let m = Number.NEGATIVE_INFINITY;
  for (let v = 0; v < V; v++) m = Math.max(m, x[base + v]);
  if (m === Number.NEGATIVE_INFINITY) return null;
  // S = Σ_v e^{z_v} = 1 + r: r = the entries below the max + (ties of the max − 1), as the kernels sum it.
  let rest = 0;
  let ties = 0;
  for (let v = 0; v < V; v++) {
    if (x[base + v] === m) ties++;
    else rest += Math.exp((x[base + v] - m) / tau);
  }
  const logS = Math.log1p(rest + (ties - 1));
  const out = new Float64Array(V);
  for (let v = 0; v < V; v++) out[v] = (x[base + v] - m) / tau - logS;
  return out;
}

/**
 * out[n, v] = softmax(logits[n, :] / τ)[v] (log = false) or its log (log = true), for logits [N, V].
 * A row of all −∞ gives zeros.
 */
export function softmaxRef(logits: Logits, N: number, V: number, log: boolean, tau: number): Float64Array {
  checkTau(tau);
  const out = new Float64Array(N * V);
  for (let n = 0; n < N; n++) {
    const lp = logSoftmaxRow(logits, n, V, tau);
    if (!lp) continue;
    for (let v = 0; v < V; v++) out[n * V + v] = log ? lp[v] : Math.exp(lp[v]);
  }
  return out;
}
