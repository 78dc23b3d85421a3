/**
 * KV-cache writes for generation (src/shaders/kv_append.wgsl); CPU twin: src/reference/kv_append.ts.
 * `kvFill` stores a whole prompt (prefill), `kvAppend` the newest token; both copy k and v out of the fused
 * qkv projection, so the model never splits it.
 *
 * A generation loop, per layer l (prompts of length P, left-padded; mask [B, Tmax]: 0 on each row's padding,
 * 1 everywhere else, including the positions still to be generated):
 *   prefill:   full forward of the prompt → qkv [B, P, 3C];  kvFill(ctx, k[l], v[l], qkv)
 *              first token: sample(...) on the prompt's last-position logits, step = P
 *   L = P+1 …: forward the newest token → qkv [B, 3C];        kvAppend(ctx, k[l], v[l], qkv, L)
 *              decodeAttention(ctx, att, qkv, k[l], v[l], mask, L)  (q read straight from qkv)
 *              … → logits [B, V];  sample(ctx, tokens, logp, logits, done, { step: L, ... })
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/kv_append.wgsl?raw";

/**
 * Kernel handle of {@link kvFill} and {@link kvAppend} (256 threads a workgroup); plain data: each GpuContext
 * compiles it on first dispatch and keeps it; nothing to destroy.
 */
export const kvAppendKernel = defineKernel({
  name: "kv_append",
  source,
  bindings: ["uniform", "read-only-storage", "storage", "storage"],
  workgroupSize: [256],
});

/** [B, H, Tmax, hs] of a cache tensor, checked against its partner. */
function cacheShape(fn: string, kcache: Tensor, vcache: Tensor): [number, number, number, number] {
  if (kcache.shape.length !== 4 || kcache.dtype !== "f32")
    throw new RangeError(`${fn}: kcache ${kcache} must be [B, H, Tmax, hs] f32`);
  if (vcache.dtype !== "f32" || vcache.shape.join() !== kcache.shape.join())
    throw new RangeError(`${fn}: vcache ${vcache} must match kcache ${kcache}`);
  const [B, H, Tmax, hs] = kcache.shape;
  return [B, H, Tmax, hs];
}

function kvWrite(
  fn: string,
  ctx: GpuContext,
  kcache: Tensor,
  vcache: Tensor,
  qkv: Tensor,
  T: number,
  pos: number,
) {
  const [B, H, Tmax, hs] = cacheShape(fn, kcache, vcache);
  const C = H * hs;
  if (qkv.dtype !== "f32" || qkv.size !== B * T * 3 * C)
    throw new RangeError(`${fn}: qkv ${qkv} must be [${B}, ${T}, ${3 * C}] f32 (B, T, 3C with C = H·hs)`);
  if (!Number.isInteger(pos) || pos < 0 || pos + T > Tmax)
    throw new RangeError(`${fn}: positions ${pos}…${pos + T - 1} do not fit a cache of ${Tmax}`);
  const n = B * T * C;
  ctx.dispatch(kvAppendKernel, {
    bindings: [
      params(["u32", n], ["u32", T], ["u32", C], ["u32", hs], ["u32", Tmax], ["u32", pos]),
      qkv,
      kcache,
      vcache,
    ],
    workgroups: Math.ceil(n / kvAppendKernel.invocations),
  });
}

/**
 * Record the prefill of the caches: kcache[b, h, t, :] = k of token t, vcache likewise, for t < T.
 * Shapes: qkv [B, T, 3C] f32 (q | k | v column blocks, head h = columns h·hs … (h+1)·hs − 1 of each block),
 * kcache and vcache [B, H, Tmax, hs] f32 with C = H·hs and T ≤ Tmax. Positions ≥ T are left untouched.
 * Left-padded prompts are stored as they are; the key mask of decodeAttention hides the padding.
 * @throws RangeError if the caches differ, qkv does not hold B·T·3C values, or T > Tmax.
 */
export function kvFill(ctx: GpuContext, kcache: Tensor, vcache: Tensor, qkv: Tensor): void {
  const [B, H, , hs] = cacheShape("kvFill", kcache, vcache);
  const T = B * H * hs === 0 ? 0 : qkv.size / (B * 3 * H * hs);
  if (!Number.isInteger(T)) throw new RangeError(`kvFill: qkv ${qkv} is not [${B}, T, ${3 * H * hs}]`);
  kvWrite("kvFill", ctx, kcache, vcache, qkv, T, 0);
}

/**
 * Record the cache write of one decode step: the new token's k and v go to position L − 1 (L = the sequence
 * length including the new token), ready for `decodeAttention(..., L)`.
 * Shapes: qkv [B, 3C] f32 (the new token's fused projection), kcache and vcache [B, H, Tmax, hs] f32.
 * @throws RangeError if the caches differ, qkv does not hold B·3C values, or L is not in 1 … Tmax.
 */
export function kvAppend(ctx: GpuContext, kcache: Tensor, vcache: Tensor, qkv: Tensor, L: number): void {
  if (!Number.isInteger(L) || L < 1) throw new RangeError(`kvAppend: length L must be ≥ 1, got ${L}`);
  kvWrite("kvAppend", ctx, kcache, vcache, qkv, 1, L - 1);
}
