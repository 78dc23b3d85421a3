/**
 * Start-up kernel selection: time each variant of a kernel on a representative problem once per context and
 * keep the fastest (what is fastest on SwiftShader — register tiles, no barriers — is not what is fastest on a
 * real GPU). Results are cached per adapter name for the life of the page/process.
 */
import type { GpuContext } from "../gpu/context";
import { MATMUL_VARIANTS, type MatmulVariant, matmul, setMatmulVariant } from "./matmul";

export interface AutotuneResult {
  matmul: { variant: MatmulVariant; ms: Record<MatmulVariant, number> };
}

const byAdapter = new Map<string, AutotuneResult>();

/** Median of `reps` timings of `record` (GPU time where timestamp-query exists). */
export async function timeMedian(
  ctx: Pick<GpuContext, "time">,
  record: () => void,
  reps = 3,
): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) ms.push((await ctx.time(record)).ms);
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)];
}

/**
 * Below this a timing is not trusted: browsers quantize GPU timestamps (Chrome and Dawn to 100 µs by default), so
 * a short kernel reads 0 or one quantum (on an H200 both matmul variants of the autotune shape read 0 and 0.066 ms,
 * 2026-12-04, and the pick was a coin toss).
 */
export const MIN_TRUSTED_MS = 1;
/** Most back-to-back calls one timing records when a single call is too short to time. */
export const MAX_REPEATS = 64;

/**
 * Milliseconds per call of `record`: one call timed (median of 3); when that is under MIN_TRUSTED_MS, `repeats`
 * calls recorded back to back in one timing (enough for ~2 × MIN_TRUSTED_MS at the first reading, at most
 * MAX_REPEATS) and divided by their number. A software adapter's slow kernels are timed once, as before.
 */
export async function timePerCall(ctx: Pick<GpuContext, "time">, record: () => void): Promise<number> {
  const once = await timeMedian(ctx, record);
  if (once >= MIN_TRUSTED_MS) return once;
  const repeats = Math.min(MAX_REPEATS, Math.ceil((2 * MIN_TRUSTED_MS) / Math.max(once, 0.01)));
  const all = await timeMedian(ctx, () => {
    for (let i = 0; i < repeats; i++) record();
  });
  return all / repeats;
}

/**
 * Pick the fastest matmul variant for this adapter on an (M, N, K) typical of the model (default 256×384×128,
 * a `tiny` QKV projection over 256 tokens) and make it the context's default.
 */
export async function autotune(ctx: GpuContext, shape = { M: 256, N: 384, K: 128 }): Promise<AutotuneResult> {
  const cached = byAdapter.get(ctx.adapter.name);
  if (cached) {
    setMatmulVariant(ctx, cached.matmul.variant);
    return cached;
  }
  const { M, N, K } = shape;
  const a = ctx.tensor([M, K], "f32", "autotune.A", new Float32Array(M * K).fill(0.5));
  const b = ctx.tensor([K, N], "f32", "autotune.B", new Float32Array(K * N).fill(0.25));
  const c = ctx.tensor([M, N], "f32", "autotune.C");
  const ms = {} as Record<MatmulVariant, number>;
  for (const variant of MATMUL_VARIANTS) {
    const record = () => matmul(ctx, c, a, b, { batch: 1, M, N, K, variant });
    record(); // compile outside the timing
    await ctx.finish();
    ms[variant] = await timePerCall(ctx, record);
  }
  for (const t of [a, b, c]) t.destroy();
  const variant = MATMUL_VARIANTS.reduce((best, v) => (ms[v] < ms[best] ? v : best));
  const result = { matmul: { variant, ms } };
  byAdapter.set(ctx.adapter.name, result);
  setMatmulVariant(ctx, variant);
  return result;
}
