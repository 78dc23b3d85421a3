/**
 * Kernel self-test: runs the kernels of a training step on small seeded random inputs and compares each with
 * its CPU twin: GPT forward and backward (selftest_layers.ts, selftest_model.ts: matmul, layer norm, GELU,
 * attention, embedding, cross-entropy, token log-probs and entropy with their gradients, gradient norm, AdamW), the
 * RL losses and their gradients (selftest_rl.ts: policy, value, DPO and Bradley–Terry losses, exact KL, sequence
 * log-probs) and generation (selftest_gen.ts: softmax, sample with its top-k filter, kv_append, decode_attention,
 * gather_rows, gen_bookkeep). Not
 * every shader: the unit tests (test/kernels/) cover all of them, at more shapes. The page shows the results
 * (adapter card), `npm run selftest` prints them in Node, and the e2e test asserts them. Cases stay small:
 * software adapters run this at page start.
 */
import type { GpuContext } from "../gpu/context";
import { Rng } from "../util/rng";
import { compareArrays, type Tolerance } from "./compare";
import { MATMUL_VARIANTS, withMatmulVariant } from "./matmul";
import type { Case } from "./selftest_case";
import { GEN_CASES } from "./selftest_gen";
import { LAYER_CASES } from "./selftest_layers";
import { MODEL_CASES } from "./selftest_model";
import { RL_LOSS_CASES } from "./selftest_rl";

export interface SelfTestResult {
  /** Kernel and variant, e.g. "matmul (Aᵀ·B)". */
  kernel: string;
  /** Problem size, e.g. "[70000×3]" or "M=33 N=17 K=45". */
  shape: string;
  /** Elements compared. */
  n: number;
  maxAbsError: number;
  worstIndex: number;
  /**
   * GPU and CPU-twin values of the worst element (largest error relative to its bound); absent in results kept
   * by an older page (gpu_checks_kept.ts).
   */
  worstGpu?: number;
  worstRef?: number;
  tolerance: Tolerance;
  ok: boolean;
  /** GPU time of the kernel in ms (timestamp-query or wall clock), for information only. */
  gpuMs: number;
}

/**
 * Every matmul case once per variant ("matmul (A·B) · tiled", "… · regtile"): training uses the variant the
 * worker's timing picked, which need not be this context's default, so both are checked against the twin.
 */
function perVariant(c: Case): Case[] {
  if (!c.kernel.startsWith("matmul ")) return [c];
  return MATMUL_VARIANTS.map((v) => ({
    ...c,
    kernel: `${c.kernel} · ${v}`,
    run(ctx, rng) {
      const t = c.run(ctx, rng);
      return { ...t, record: () => withMatmulVariant(ctx, v, t.record) };
    },
  }));
}

const CASES: Case[] = [...LAYER_CASES, ...MODEL_CASES, ...RL_LOSS_CASES, ...GEN_CASES].flatMap(perVariant);

/** The kernels the cases check: "matmul (A·B)" and "matmul (Aᵀ·Bᵀ)" are one kernel, matmul. */
export function kernelCount(results: readonly Pick<SelfTestResult, "kernel">[]): number {
  return new Set(results.map((r) => r.kernel.replace(/ \(.*$/, ""))).size;
}

/**
 * "47/47 checks of 34 kernels match their CPU twins" (the page's card and `npm run selftest`), with how many
 * disagree when some do.
 */
export function selfTestSummary(results: readonly SelfTestResult[]): string {
  const passed = results.filter((r) => r.ok).length;
  const of = `${passed}/${results.length} checks of ${kernelCount(results)} kernels match their CPU twins`;
  return passed === results.length ? of : `${of}; ${results.length - passed} disagree`;
}

/**
 * One failing (or passing) check with its worst element and that element's bound atol + rtol·|ref|, e.g.
 * "silu [37×130]: FAIL max|err| 3.10e-3 at [17] (gpu=0.52 ref=0.5231), bound 6.23e-6 (atol 1e-6 rtol 1e-5)".
 */
export function describeSelfTestResult(r: SelfTestResult): string {
  const { atol, rtol } = r.tolerance;
  const at = r.worstRef === undefined ? "" : ` (gpu=${r.worstGpu} ref=${r.worstRef})`;
  const bound =
    r.worstRef === undefined || !Number.isFinite(r.worstRef)
      ? ""
      : `, bound ${(atol + rtol * Math.abs(r.worstRef)).toExponential(2)}`;
  return `${r.kernel} ${r.shape}: ${r.ok ? "ok" : "FAIL"} max|err| ${r.maxAbsError.toExponential(2)} at [${r.worstIndex}]${at}${bound} (atol ${short(atol)} rtol ${short(rtol)})`;
}

/** 1e-6 rather than 0.000001. */
function short(x: number): string {
  return x === 0 || Math.abs(x) >= 1e-3 ? String(x) : x.toExponential();
}

/** How many checks the self-test runs and how many kernels they cover (the README quotes both). */
export function selfTestCounts(): { checks: number; kernels: number } {
  return { checks: CASES.length, kernels: kernelCount(CASES) };
}

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
      worstGpu: cmp.worstGpu,
      worstRef: cmp.worstRef,
      tolerance: c.tolerance,
      ok: cmp.ok,
      gpuMs: timing.ms,
    };
    results.push(r);
    onResult?.(r);
  }
  return results;
}
