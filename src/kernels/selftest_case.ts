/**
 * One self-test case (src/kernels/selftest.ts) and the input helpers the cases share.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
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
