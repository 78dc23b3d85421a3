/** CPU twin of src/shaders/grad_norm.wgsl. */

/** √(Σ_i g_i²) over the flat buffer, in float64 (0 for an empty buffer). */
export function gradNormRef(grads: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < grads.length; i++) sum += grads[i] * grads[i];
  return Math.sqrt(sum);
}
