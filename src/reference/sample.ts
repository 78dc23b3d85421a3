/**
 * CPU twin of src/shaders/sample.wgsl: batched temperature / top-k sampling with a counter-based RNG.
 *
 * The RNG is integer-exact on both sides (PCG hash, Math.imul and >>> 0 here, u32 arithmetic in WGSL), so the
 * uniform draw u of row b is bit-identical on the GPU and here. Everything else is float64: the GPU computes
 * the same inverse CDF in float32, so the two draw the same token whenever no cumulative-probability boundary
 * lies within ~1e-5 of u; {@link SampleRefResult.margin} reports that distance so tests can skip razor-thin
 * cases.
 */

/**
 * PCG hash, the "pcg" of Jarzynski & Olano, "Hash Functions for GPU Rendering" (JCGT 2020): one round of a PCG
 * LCG step followed by the RXS-M-XS output permutation. u32 in, u32 out, a bijection.
 */
export function pcgHash(v: number): number {
  const state = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/**
 * The random u32 of row b at (seed, step): pcg(pcg(seed ^ pcg(step)) + pcg(b)), addition mod 2³².
 * Distinct steps of one seed and distinct rows of one step never collide (pcg is a bijection); b is hashed before
 * the addition so that two steps can never reproduce a shifted copy of each other's batch.
 */
export function sampleHash(seed: number, step: number, b: number): number {
  const y = pcgHash((seed ^ pcgHash(step >>> 0)) >>> 0);
  return pcgHash((y + pcgHash(b >>> 0)) >>> 0);
}

/** The uniform draw of row b: the hash's top 24 bits / 2²⁴, in [0, 1 − 2⁻²⁴]; exact in float32. */
export function sampleUniform(seed: number, step: number, b: number): number {
  return (sampleHash(seed, step, b) >>> 8) / 16777216;
}

/** Order of the logits for top-k: larger logit first, ties broken by lower index. */
function topKMask(x: ArrayLike<number>, off: number, V: number, topK: number): boolean[] {
  const keep = new Array<boolean>(V).fill(topK === 0 || topK >= V);
  if (topK === 0 || topK >= V) return keep;
  const order = Array.from({ length: V }, (_, i) => i);
  order.sort((i, j) => x[off + j] - x[off + i] || i - j);
  for (let r = 0; r < topK; r++) keep[order[r]] = true;
  return keep;
}

export interface SampleRefOptions {
  /** Temperature τ > 0: the distribution is softmax(logits / τ). */
  temperature: number;
  /** Keep the k largest logits (ties → lower index); 0 or ≥ V keeps all. */
  topK: number;
  /** RNG seed and step counter (u32). */
  seed: number;
  step: number;
  /** Token id written for finished rows. */
  padId: number;
  /** done[b] ≠ 0: row b is finished (optional, default none). */
  done?: ArrayLike<number>;
}

export interface SampleRefResult {
  /** Sampled token per row (padId for finished rows). */
  tokens: Int32Array;
  /**
   * log softmax(logits/τ)[token] over the FULL vocabulary (0 for finished rows); log S as log1p of the sum of
   * every e but the argmax's, as the kernel computes it (exact to float64 for a near-certain token).
   */
  logp: Float64Array;
  /** The uniform draw per row. */
  u: Float64Array;
  /**
   * Per row: the distance, in probability units of the (top-k) distribution, from u to the nearest cumulative
   * boundary (0, each kept token's cumulative probability, 1). GPU and twin agree when it is ≳ 1e-5.
   * +∞ for finished rows (no draw is used).
   */
  margin: Float64Array;
}

/**
 * Sample one token per row of logits [B, V]: p = softmax(logits/τ) restricted to the top-k set and
 * renormalised; token = the first kept index i (ascending) whose cumulative probability exceeds u.
 * Float64 throughout except the uniform draw, which is exact.
 */
export function sampleRef(
  logits: ArrayLike<number>,
  B: number,
  V: number,
  o: SampleRefOptions,
): SampleRefResult {
  const tokens = new Int32Array(B);
  const logp = new Float64Array(B);
  const u = new Float64Array(B);
  const margin = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    const off = b * V;
    u[b] = sampleUniform(o.seed, o.step, b);
    if (o.done && o.done[b] !== 0) {
      tokens[b] = o.padId;
      logp[b] = 0;
      margin[b] = Number.POSITIVE_INFINITY;
      continue;
    }
    const keep = topKMask(logits, off, V, o.topK);
    let m = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < V; i++) m = Math.max(m, logits[off + i] / o.temperature);
    const e = new Float64Array(V);
    let rest = 0; // r = Σ e over every token but the first argmax (whose e is 1): log S = log1p(r)
    let sumKept = 0;
    let argmax = -1;
    for (let i = 0; i < V; i++) {
      e[i] = Math.exp(logits[off + i] / o.temperature - m);
      if (argmax < 0 && logits[off + i] / o.temperature === m) argmax = i;
      else rest += e[i];
      if (keep[i]) sumKept += e[i];
    }
    let token = -1;
    let lastKept = -1;
    let cum = 0;
    let mg = u[b];
    for (let i = 0; i < V; i++) {
      if (!keep[i]) continue;
      if (e[i] > 0) lastKept = i;
      cum += e[i] / sumKept;
      mg = Math.min(mg, Math.abs(cum - u[b]));
      if (token < 0 && cum > u[b]) token = i;
    }
    if (token < 0) token = lastKept; // u above the rounded total: the last kept token
    tokens[b] = token;
    logp[b] = logits[off + token] / o.temperature - m - Math.log1p(rest);
    margin[b] = mg;
  }
  return { tokens, logp, u, margin };
}
