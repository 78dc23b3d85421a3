/** Padding masks for attention tests. */

/** A [B, T] f32 mask (1 real, 0 padding) with `pads[b]` padding positions at the start of row b. */
export function leftPadMask(T: number, pads: readonly number[]): Float32Array {
  const m = new Float32Array(pads.length * T);
  pads.forEach((p, b) => {
    for (let t = p; t < T; t++) m[b * T + t] = 1;
  });
  return m;
}
