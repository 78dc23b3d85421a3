/** CPU twin of src/shaders/fill.wgsl. */

/** n copies of `value` (float64; the GPU stores it rounded to the tensor's dtype). */
export function fillRef(n: number, value: number): Float64Array {
  return new Float64Array(n).fill(value);
}
