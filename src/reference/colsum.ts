/**
 * CPU twin of src/shaders/colsum.wgsl (float64): the bias gradient of a linear layer y = x·W + b, whose
 * ∂L/∂b[c] = Σ_n ∂L/∂y[n, c] (b is broadcast over the N = B·T rows).
 */

/** dbias[c] = dbias0[c] + Σ_n dout[n, c] for dout [N, C]. */
export function colsumRef(
  dout: ArrayLike<number>,
  N: number,
  C: number,
  dbias0?: ArrayLike<number>,
): Float64Array {
  const dbias = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    let acc = dbias0 ? dbias0[c] : 0;
    for (let n = 0; n < N; n++) acc += dout[n * C + c];
    dbias[c] = acc;
  }
  return dbias;
}
