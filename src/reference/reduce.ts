/** CPU twin of src/shaders/reduce_rows.wgsl. */

export type ReduceOp = "sum" | "max";

/** out[r] = sum or max over x[r, 0..cols); an empty row gives 0 (sum) or −∞ (max). Float64 arithmetic. */
export function reduceRowsRef(op: ReduceOp, x: ArrayLike<number>, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let acc = op === "sum" ? 0 : Number.NEGATIVE_INFINITY;
    for (let c = 0; c < cols; c++) {
      const v = x[r * cols + c];
      acc = op === "sum" ? acc + v : Math.max(acc, v);
    }
    out[r] = acc;
  }
  return out;
}
