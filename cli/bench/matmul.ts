/** Matmul GFLOP/s per variant vs TF.js's WebGPU matMul on the same device. */
import type { GpuContext } from "../../src/gpu/context";
import { MATMUL_VARIANTS, matmul } from "../../src/kernels/matmul";
import { Rng } from "../../src/util/rng";
import type { Tf } from "./tfjs-peer";

export interface MatmulRow {
  shape: string;
  gflops: Record<string, number>;
  /** The faster of our variants / TF.js. */
  ratio: number;
  /** `picked` (the variant the autotune picked, which training uses) / TF.js. */
  pickedRatio: number;
}

/** Wall time per call over `reps` calls, after one warm-up (sync by a 1-element readback / finish). */
async function perCall(run: () => void, sync: () => Promise<void>, reps: number): Promise<number> {
  run();
  await sync();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) run();
  await sync();
  return (performance.now() - t0) / reps;
}

/** `picked`: the variant the autotune picked (src/kernels/autotune.ts), which training uses. */
export async function benchMatmul(
  ctx: GpuContext,
  tf: Tf,
  shapes: [number, number, number][],
  reps: number,
  picked: (typeof MATMUL_VARIANTS)[number],
): Promise<MatmulRow[]> {
  const rows: MatmulRow[] = [];
  const rng = new Rng(0);
  for (const [M, N, K] of shapes) {
    const flop = 2 * M * N * K;
    const a = rng.uniform(M * K);
    const b = rng.uniform(K * N);
    const ta = ctx.tensor([M, K], "f32", "A", a);
    const tb = ctx.tensor([K, N], "f32", "B", b);
    const tc = ctx.tensor([M, N], "f32", "C");
    const gflops: Record<string, number> = {};
    for (const variant of MATMUL_VARIANTS) {
      const ms = await perCall(
        () => matmul(ctx, tc, ta, tb, { batch: 1, M, N, K, variant }),
        () => ctx.finish(),
        reps,
      );
      gflops[variant] = flop / ms / 1e6;
    }
    const xa = tf.tensor2d(a, [M, K]);
    const xb = tf.tensor2d(b, [K, N]);
    let last: ReturnType<Tf["matMul"]> | null = null;
    const ms = await perCall(
      () => {
        last?.dispose();
        last = tf.matMul(xa, xb);
      },
      async () => {
        await last?.data();
      },
      reps,
    );
    gflops.tfjs = flop / ms / 1e6;
    (last as ReturnType<Tf["matMul"]> | null)?.dispose();
    xa.dispose();
    xb.dispose();
    for (const t of [ta, tb, tc]) t.destroy();
    const best = Math.max(...MATMUL_VARIANTS.map((v) => gflops[v]));
    rows.push({
      shape: `${M}×${N}×${K}`,
      gflops,
      ratio: best / gflops.tfjs,
      pickedRatio: gflops[picked] / gflops.tfjs,
    });
  }
  return rows;
}
