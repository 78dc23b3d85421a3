/**
 * The performance card's measurement: fp32 matmul throughput of the engine's own matmul kernel (the op that
 * takes ~80 % of a training step) on this adapter. C = A·B with n×n×n, repeated until the timed batch lasts at
 * least `minMs` (so timer resolution does not matter on a fast GPU) or `maxReps` is reached (so a software
 * adapter is not kept busy for long), then timed `samples` times: the median is reported (one sample swung
 * 0.09–0.47 GFLOP/s between loads of one page on a shared software adapter). 2·n³ FLOP per matmul.
 */
import type { GpuContext } from "../gpu/context";
import { matmul, matmulVariant } from "./matmul";

export interface MatmulThroughput {
  /** 10⁹ floating-point operations per second (2·n³ per matmul). */
  gflops: number;
  n: number;
  reps: number;
  /** Duration of the timed batch, ms: the median of `samples` timings. */
  ms: number;
  /** How many times the batch was timed. */
  samples: number;
  /** "timestamp-query" (GPU time) or "wall-clock" (submit to done). */
  source: string;
  variant: string;
}

/**
 * Measure. Defaults: n = 256, minMs = 40, maxReps = 64, samples = 3. Starts with 2 reps and multiplies by 4
 * until the batch is long enough. @throws RangeError when n < 1; GPU errors as the context raises them.
 */
export async function measureMatmulThroughput(
  ctx: GpuContext,
  o: { n?: number; minMs?: number; maxReps?: number; samples?: number } = {},
): Promise<MatmulThroughput> {
  const n = o.n ?? 256;
  const minMs = o.minMs ?? 40;
  const maxReps = o.maxReps ?? 64;
  const samples = Math.max(1, Math.floor(o.samples ?? 3));
  if (!(n >= 1)) throw new RangeError(`matmul throughput: n must be ≥ 1, got ${n}`);
  const fill = (seed: number) => Float32Array.from({ length: n * n }, (_, i) => ((i * seed) % 17) / 17 - 0.5);
  const a = ctx.tensor([n, n], "f32", "perf.A", fill(7));
  const b = ctx.tensor([n, n], "f32", "perf.B", fill(11));
  const c = ctx.tensor([n, n], "f32", "perf.C");
  try {
    const shape = { batch: 1, M: n, N: n, K: n };
    matmul(ctx, c, a, b, shape); // warm-up: pipeline creation is not throughput
    await ctx.finish();
    const batch = (reps: number) =>
      ctx.time(() => {
        for (let r = 0; r < reps; r++) matmul(ctx, c, a, b, shape);
      });
    let reps = 2;
    let t = await batch(reps);
    while (t.ms < minMs && reps < maxReps) {
      reps = Math.min(maxReps, reps * 4);
      t = await batch(reps);
    }
    const times = [t.ms];
    while (times.length < samples) times.push((await batch(reps)).ms);
    times.sort((x, y) => x - y);
    const ms = Math.max(times[Math.floor((times.length - 1) / 2)], 1e-3);
    return {
      gflops: (2 * n ** 3 * reps) / (ms * 1e6),
      n,
      reps,
      ms,
      samples,
      source: t.source,
      variant: matmulVariant(ctx),
    };
  } finally {
    a.destroy();
    b.destroy();
    c.destroy();
  }
}
