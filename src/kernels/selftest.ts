/**
 * Kernel self-test: runs each kernel on seeded random inputs and compares it with its CPU twin. The page
 * shows the results (adapter card), `npm run selftest` prints them in Node, and the e2e test asserts them.
 */
import type { GpuContext } from "../gpu/context";
import { elementwiseRef } from "../reference/elementwise";
import { matmulRef } from "../reference/matmul";
import { reduceRowsRef } from "../reference/reduce";
import { Rng } from "../util/rng";
import { compareArrays, type Tolerance } from "./compare";
import { elementwise } from "./elementwise";
import { matmul } from "./matmul";
import { reduceRows } from "./reduce";

export interface SelfTestResult {
  /** Kernel and variant, e.g. "matmul (Aᵀ·B)". */
  kernel: string;
  /** Problem size, e.g. "[70000×3]" or "M=33 N=17 K=45". */
  shape: string;
  /** Elements compared. */
  n: number;
  maxAbsError: number;
  worstIndex: number;
  tolerance: Tolerance;
  ok: boolean;
  /** GPU time of the kernel in ms (timestamp-query or wall clock), for information only. */
  gpuMs: number;
}

/** f32 inputs with float64 twins: sums and products carry ~1e-6 relative rounding per term. */
const ELEMENTWISE_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };
/** A sum of C terms in f32 (tree order) vs float64: error grows ~√C·ε·Σ|x|. */
const REDUCE_TOL: Tolerance = { atol: 1e-4, rtol: 1e-5 };
/** K-term dot products in f32: ~K·ε relative to Σ|a·b|, so an absolute term for near-zero outputs. */
const MATMUL_TOL: Tolerance = { atol: 1e-4, rtol: 1e-4 };

interface Case {
  kernel: string;
  shape: string;
  tolerance: Tolerance;
  run(
    ctx: GpuContext,
    rng: Rng,
  ): { record: () => void; read: () => Promise<ArrayLike<number>>; ref: ArrayLike<number> };
}

const CASES: Case[] = [
  {
    kernel: "elementwise (axpy)",
    shape: "[1000]",
    tolerance: ELEMENTWISE_TOL,
    run(ctx, rng) {
      const a = rng.uniform(1000);
      const b = rng.uniform(1000);
      const ta = ctx.tensor([1000], "f32", "a", a);
      const tb = ctx.tensor([1000], "f32", "b", b);
      const out = ctx.tensor([1000], "f32", "out");
      return {
        record: () => elementwise(ctx, "axpy", out, ta, tb, 0.5),
        read: () => ctx.read(out),
        ref: elementwiseRef("axpy", a, b, 0.5),
      };
    },
  },
  {
    kernel: "reduce_rows (sum)",
    shape: "[4×300]",
    tolerance: REDUCE_TOL,
    run(ctx, rng) {
      const x = rng.uniform(4 * 300);
      const tx = ctx.tensor([4, 300], "f32", "x", x);
      const out = ctx.tensor([4], "f32", "out");
      return {
        record: () => reduceRows(ctx, "sum", out, tx),
        read: () => ctx.read(out),
        ref: reduceRowsRef("sum", x, 4, 300),
      };
    },
  },
  {
    kernel: "reduce_rows (max)",
    shape: "[70000×3]",
    tolerance: REDUCE_TOL,
    run(ctx, rng) {
      const x = rng.uniform(70000 * 3);
      const tx = ctx.tensor([70000, 3], "f32", "x", x);
      const out = ctx.tensor([70000], "f32", "out");
      return {
        record: () => reduceRows(ctx, "max", out, tx),
        read: () => ctx.read(out),
        ref: reduceRowsRef("max", x, 70000, 3),
      };
    },
  },
  {
    kernel: "matmul (A·B)",
    shape: "M=33 N=17 K=45",
    tolerance: MATMUL_TOL,
    run(ctx, rng) {
      const s = { batch: 1, M: 33, N: 17, K: 45 };
      const a = rng.uniform(33 * 45);
      const b = rng.uniform(45 * 17);
      const ta = ctx.tensor([33, 45], "f32", "A", a);
      const tb = ctx.tensor([45, 17], "f32", "B", b);
      const c = ctx.tensor([33, 17], "f32", "C");
      return { record: () => matmul(ctx, c, ta, tb, s), read: () => ctx.read(c), ref: matmulRef(a, b, s) };
    },
  },
  {
    kernel: "matmul (Aᵀ·Bᵀ)",
    shape: "batch=2 M=20 N=31 K=7",
    tolerance: MATMUL_TOL,
    run(ctx, rng) {
      const s = { batch: 2, M: 20, N: 31, K: 7, transA: true, transB: true };
      const a = rng.uniform(2 * 20 * 7);
      const b = rng.uniform(2 * 7 * 31);
      const ta = ctx.tensor([2, 7, 20], "f32", "A", a);
      const tb = ctx.tensor([2, 31, 7], "f32", "B", b);
      const c = ctx.tensor([2, 20, 31], "f32", "C");
      return { record: () => matmul(ctx, c, ta, tb, s), read: () => ctx.read(c), ref: matmulRef(a, b, s) };
    },
  },
];

/** Run every case (seeded, so results are reproducible); `onResult` sees each result as it lands. */
export async function runSelfTest(
  ctx: GpuContext,
  onResult?: (r: SelfTestResult) => void,
  seed = 1234,
): Promise<SelfTestResult[]> {
  const rng = new Rng(seed);
  const results: SelfTestResult[] = [];
  for (const c of CASES) {
    const { record, read, ref } = c.run(ctx, rng);
    const timing = await ctx.time(record);
    const cmp = compareArrays(await read(), ref, c.tolerance);
    const r: SelfTestResult = {
      kernel: c.kernel,
      shape: c.shape,
      n: cmp.n,
      maxAbsError: cmp.maxAbsError,
      worstIndex: cmp.worstIndex,
      tolerance: c.tolerance,
      ok: cmp.ok,
      gpuMs: timing.ms,
    };
    results.push(r);
    onResult?.(r);
  }
  return results;
}
