/**
 * Start-up kernel selection: time each variant of a kernel on a representative problem once and keep the fastest
 * (what is fastest on SwiftShader — register tiles, no barriers — is not what is fastest on a real GPU). A pick is
 * kept per adapter and shape for the life of the page/process and, when a {@link AutotuneStore} is given, across
 * visits (the lab keeps it in IndexedDB: src/lab/kernel_choice.ts), so a page load times the kernels only once per
 * adapter and the same seed trains with the same kernel on the next visit.
 */
import type { GpuContext } from "../gpu/context";
import type { AdapterReport } from "../gpu/device";
import { MATMUL_VARIANTS, type MatmulVariant, matmul, setMatmulVariant } from "./matmul";

/** An autotune problem: C[M×N] = A[M×K]·B[K×N]. */
export interface MatmulShape3 {
  M: number;
  N: number;
  K: number;
}

export interface AutotuneResult {
  matmul: {
    variant: MatmulVariant;
    /** Milliseconds per call of each variant on `shape` (GPU time where timestamp-query exists). */
    ms: Record<MatmulVariant, number>;
    shape: MatmulShape3;
  };
  /** "timed" now; "memory" from this process (page or worker); "saved" from the store (an earlier timing). */
  from: "timed" | "memory" | "saved";
}

/** A persistent cache of picks (get resolves undefined when it has none or cannot read; set may fail silently). */
export interface AutotuneStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: AutotuneResult): Promise<void>;
}

/**
 * Bump when a variant's shader or the timing method changes, so saved picks are timed again.
 * (1: tiled 16×16 shared-memory tiles vs regtile 4×4 register blocks; timePerCall with repeats. 2, 6 Dec:
 * tiled reads transposed operands along their rows into padded tiles.)
 */
export const AUTOTUNE_VERSION = 2;

/** The default problem: a `tiny` QKV projection over 256 tokens. */
export const DEFAULT_AUTOTUNE_SHAPE: MatmulShape3 = { M: 256, N: 384, K: 128 };

const memo = new Map<string, AutotuneResult>();

/** Forget this process's picks (tests). */
export function clearAutotuneMemo(): void {
  memo.clear();
}

/** The cache key: version, the adapter's identity (vendor, architecture, device, description) and the shape. */
export function autotuneKey(adapter: AdapterReport, shape: MatmulShape3): string {
  const id = [adapter.vendor, adapter.architecture, adapter.device, adapter.description, adapter.name];
  return `v${AUTOTUNE_VERSION}|${id.join("|")}|${shape.M}x${shape.N}x${shape.K}`;
}

/** A stored value that is a pick of this version's variants for `shape`, or null. */
function validSaved(v: unknown, shape: MatmulShape3): AutotuneResult | null {
  const m = (v as Partial<AutotuneResult> | null)?.matmul;
  if (!m || !MATMUL_VARIANTS.includes(m.variant) || !m.ms || !m.shape) return null;
  if (m.shape.M !== shape.M || m.shape.N !== shape.N || m.shape.K !== shape.K) return null;
  if (!MATMUL_VARIANTS.every((k) => Number.isFinite(m.ms[k]) && m.ms[k] >= 0)) return null;
  return { matmul: { variant: m.variant, ms: { ...m.ms }, shape: { ...shape } }, from: "saved" };
}

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

/** Time every matmul variant on `shape` (compiled outside the timing) and return the fastest. */
async function timeVariants(ctx: GpuContext, { M, N, K }: MatmulShape3): Promise<AutotuneResult> {
  const a = ctx.tensor([M, K], "f32", "autotune.A", new Float32Array(M * K).fill(0.5));
  const b = ctx.tensor([K, N], "f32", "autotune.B", new Float32Array(K * N).fill(0.25));
  const c = ctx.tensor([M, N], "f32", "autotune.C");
  const ms = {} as Record<MatmulVariant, number>;
  try {
    for (const variant of MATMUL_VARIANTS) {
      const record = () => matmul(ctx, c, a, b, { batch: 1, M, N, K, variant });
      record(); // compile outside the timing
      await ctx.finish();
      ms[variant] = await timePerCall(ctx, record);
    }
  } finally {
    for (const t of [a, b, c]) t.destroy();
  }
  const variant = MATMUL_VARIANTS.reduce((best, v) => (ms[v] < ms[best] ? v : best));
  return { matmul: { variant, ms, shape: { M, N, K } }, from: "timed" };
}

/**
 * Pick the fastest matmul variant for this adapter on an (M, N, K) typical of the model (default
 * {@link DEFAULT_AUTOTUNE_SHAPE}) and make it the context's default: from this process's earlier pick, else
 * `store`'s (a value that is not a valid pick for this shape is ignored), else timed now and saved to `store`.
 * A store that throws is treated as empty (reads) or ignored (writes). @throws GPU errors as the context raises them.
 */
export async function autotune(
  ctx: GpuContext,
  shape: MatmulShape3 = DEFAULT_AUTOTUNE_SHAPE,
  store?: AutotuneStore,
): Promise<AutotuneResult> {
  const key = autotuneKey(ctx.adapter, shape);
  let result: AutotuneResult | null = memo.get(key) ?? null;
  if (result) result = { ...result, from: "memory" };
  if (!result && store) result = validSaved(await store.get(key).catch(() => undefined), shape);
  if (!result) {
    result = await timeVariants(ctx, shape);
    await store?.set(key, result).catch(() => undefined);
  }
  memo.set(key, result);
  setMatmulVariant(ctx, result.matmul.variant);
  return result;
}
