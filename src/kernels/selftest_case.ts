/**
 * One self-test case (src/kernels/selftest.ts) and the input helpers the cases share.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import type { GenState } from "../reference/gen_bookkeep";
import type { Rng } from "../util/rng";
import type { Tolerance } from "./compare";

export interface Case {
  kernel: string;
  shape: string;
  tolerance: Tolerance;
  run(
    ctx: GpuContext,
    rng: Rng,
  ): { record: () => void; read: () => Promise<ArrayLike<number>>; ref: ArrayLike<number> };
}

/** Read several tensors and lay them end to end, for a case that checks more than one output of a kernel. */
export async function readAll(ctx: GpuContext, tensors: readonly Tensor[]): Promise<Float64Array> {
  return concat(await Promise.all(tensors.map((t) => ctx.read(t))));
}

/** Arrays laid end to end (the CPU twin's side of {@link readAll}). */
export function concat(parts: readonly ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Logits ~ 3·N(0, 1) as f32 (softmax rows from near-uniform to near-one-hot), as the vocab-row tests use. */
export function randomLogits(rng: Rng, n: number, scale = 3): Float32Array {
  return Float32Array.from({ length: n }, () => scale * rng.normal());
}

/** Targets [N] in [0, V), with rows 1 and 3 ignored (−1, −100) as padding is in training. */
export function randomTargets(rng: Rng, N: number, V: number): Int32Array {
  const t = Int32Array.from({ length: N }, () => rng.int(0, V - 1));
  t[1] = -1;
  t[3] = -100;
  return t;
}

/** A [B, T] f32 mask (1 real, 0 padding) with `pads[b]` left-padding positions in row b. */
export function leftPadMask(T: number, pads: readonly number[]): Float32Array {
  const m = new Float32Array(pads.length * T);
  pads.forEach((p, b) => {
    m.fill(1, b * T + p, (b + 1) * T);
  });
  return m;
}

/**
 * Junk where decode attention must not read a [B, H, Tmax, hs] K or V cache: 1e30 at positions ≥ L, NaN in row
 * b's first pad[b] (padding) positions. Mutates `caches`.
 */
export function poisonCaches(
  caches: readonly Float32Array[],
  shape: { B: number; H: number; Tmax: number; hs: number },
  L: number,
  pad: readonly number[],
): void {
  const { B, H, Tmax, hs } = shape;
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let t = 0; t < Tmax; t++)
        if (t >= L || t < pad[b])
          for (let d = 0; d < hs; d++) {
            const i = ((b * H + h) * Tmax + t) * hs + d;
            for (const c of caches) c[i] = t >= L ? 1e30 : Number.NaN;
          }
}

/** The generation bookkeeping's state for B rows of S steps, zeroed: on the CPU (its twin's) and on the GPU. */
export function genStates(ctx: GpuContext, B: number, S: number) {
  const st: GenState = {
    done: new Uint32Array(B),
    lengths: new Uint32Array(B),
    outTokens: new Int32Array(B * S),
    outLogp: new Float32Array(B * S),
  };
  const g = {
    // Read and updated every step: zeros to start, as generate.ts fills them (the outputs are written whole).
    done: ctx.tensor([B], "u32", "done", st.done),
    lengths: ctx.tensor([B], "u32", "lengths", st.lengths),
    outTokens: ctx.tensor([B, S], "i32", "outTokens"),
    outLogp: ctx.tensor([B, S], "f32", "outLogp"),
  };
  return { st, g };
}
