/** CPU twin of src/shaders/matmul.wgsl. */

export interface MatmulShape {
  batch: number;
  M: number;
  N: number;
  K: number;
  transA?: boolean;
  transB?: boolean;
}

/**
 * C[b] = op(A[b]) · op(B[b]) in float64. A is [batch, M, K] ([batch, K, M] when transA), B is [batch, K, N]
 * ([batch, N, K] when transB), C is [batch, M, N]; all row-major. `c0` is added (accumulation), `bias` [N] is
 * added to every row.
 */
export function matmulRef(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  s: MatmulShape,
  c0?: ArrayLike<number> | null,
  bias?: ArrayLike<number> | null,
): Float64Array {
  const { batch, M, N, K } = s;
  const out = new Float64Array(batch * M * N);
  for (let z = 0; z < batch; z++) {
    const oa = z * M * K;
    const ob = z * K * N;
    for (let m = 0; m < M; m++)
      for (let n = 0; n < N; n++) {
        let acc = 0;
        for (let k = 0; k < K; k++) {
          const av = s.transA ? a[oa + k * M + m] : a[oa + m * K + k];
          const bv = s.transB ? b[ob + n * K + k] : b[ob + k * N + n];
          acc += av * bv;
        }
        const i = z * M * N + m * N + n;
        out[i] = acc + (c0 ? c0[i] : 0) + (bias ? bias[n] : 0);
      }
  }
  return out;
}
