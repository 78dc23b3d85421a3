/** CPU twin of src/shaders/gather_rows.wgsl: out[i, :] = x[offset + i·stride, :]. */
export function gatherRowsRef(
  x: ArrayLike<number>,
  cols: number,
  rows: number,
  stride: number,
  offset: number,
): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++)
    for (let c = 0; c < cols; c++) out[i * cols + c] = x[(offset + i * stride) * cols + c];
  return out;
}
