/**
 * CPU twins of src/shaders/layernorm.wgsl, layernorm_backward.wgsl and layernorm_param_grad.wgsl: plain float64
 * loops, the source of truth in tests. Shapes: x [N, C] (N = B·T rows), weight and bias [C], mean and rstd [N].
 * Source: Ba et al. 2016, "Layer Normalization", eq. 4; the backward follows karpathy/llm.c `layernorm_backward`.
 */

/** What the forward pass returns and saves for the backward pass. */
export interface LayernormForward {
  /** [N, C] normalised, scaled and shifted rows. */
  out: Float64Array;
  /** [N] row means. */
  mean: Float64Array;
  /** [N] 1 / sqrt(biased variance + eps). */
  rstd: Float64Array;
}

/**
 * out[n, c] = (x[n, c] − mean[n]) · rstd[n] · weight[c] + bias[c], with mean[n] = Σ_c x[n, c] / C and
 * rstd[n] = 1 / sqrt(Σ_c (x[n, c] − mean[n])² / C + eps) (biased variance, as PyTorch and GPT-2).
 */
export function layernormRef(
  x: ArrayLike<number>,
  weight: ArrayLike<number>,
  bias: ArrayLike<number>,
  N: number,
  C: number,
  eps = 1e-5,
): LayernormForward {
  const out = new Float64Array(N * C);
  const mean = new Float64Array(N);
  const rstd = new Float64Array(N);
  for (let n = 0; n < N; n++) {
    const o = n * C;
    let m = 0;
    for (let c = 0; c < C; c++) m += x[o + c];
    m /= C;
    let v = 0;
    for (let c = 0; c < C; c++) v += (x[o + c] - m) ** 2;
    v /= C;
    const s = 1 / Math.sqrt(v + eps);
    for (let c = 0; c < C; c++) out[o + c] = (x[o + c] - m) * s * weight[c] + bias[c];
    mean[n] = m;
    rstd[n] = s;
  }
  return { out, mean, rstd };
}

/** Gradients of a loss L with respect to the layer norm's input and parameters. */
export interface LayernormGrads {
  /** [N, C] ∂L/∂x. */
  dx: Float64Array;
  /** [C] ∂L/∂weight = Σ_n dout[n, c] · norm[n, c]. */
  dweight: Float64Array;
  /** [C] ∂L/∂bias = Σ_n dout[n, c]. */
  dbias: Float64Array;
}

/**
 * Backward of {@link layernormRef} given dout = ∂L/∂out and the saved mean/rstd. With norm = (x − mean)·rstd and
 * g = dout·weight: dx = rstd · (g − mean_c(g) − norm · mean_c(g·norm)). Returns fresh gradients (no accumulation).
 */
export function layernormBackwardRef(
  dout: ArrayLike<number>,
  x: ArrayLike<number>,
  weight: ArrayLike<number>,
  mean: ArrayLike<number>,
  rstd: ArrayLike<number>,
  N: number,
  C: number,
): LayernormGrads {
  const dx = new Float64Array(N * C);
  const dweight = new Float64Array(C);
  const dbias = new Float64Array(C);
  for (let n = 0; n < N; n++) {
    const o = n * C;
    let gMean = 0;
    let gNormMean = 0;
    for (let c = 0; c < C; c++) {
      const norm = (x[o + c] - mean[n]) * rstd[n];
      const g = dout[o + c] * weight[c];
      gMean += g;
      gNormMean += g * norm;
      dweight[c] += dout[o + c] * norm;
      dbias[c] += dout[o + c];
    }
    gMean /= C;
    gNormMean /= C;
    for (let c = 0; c < C; c++) {
      const norm = (x[o + c] - mean[n]) * rstd[n];
      const g = dout[o + c] * weight[c];
      dx[o + c] = rstd[n] * (g - gMean - norm * gNormMean);
    }
  }
  return { dx, dweight, dbias };
}
