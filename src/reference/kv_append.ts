/** CPU twin of src/shaders/kv_append.wgsl: copy T tokens' k and v from qkv [B, T, 3C] into [B, H, Tmax, hs] caches. */

export interface KvShape {
  B: number;
  /** Heads; C = H·hs. */
  H: number;
  /** Head size. */
  hs: number;
  /** Cache length (positions per sequence). */
  Tmax: number;
}

/**
 * In place: kcache[b, h, pos + t, d] = qkv[b, t, C + h·hs + d], vcache[...] = qkv[b, t, 2C + h·hs + d] for t < T.
 * Other cache entries are left as they are.
 */
export function kvWriteRef(
  kcache: Float64Array | Float32Array,
  vcache: Float64Array | Float32Array,
  qkv: ArrayLike<number>,
  s: KvShape,
  T: number,
  pos: number,
): void {
  const C = s.H * s.hs;
  for (let b = 0; b < s.B; b++)
    for (let t = 0; t < T; t++)
      for (let h = 0; h < s.H; h++)
        for (let d = 0; d < s.hs; d++) {
          const src = (b * T + t) * 3 * C + h * s.hs + d;
          const dst = ((b * s.H + h) * s.Tmax + pos + t) * s.hs + d;
          kcache[dst] = qkv[src + C];
          vcache[dst] = qkv[src + 2 * C];
        }
}
