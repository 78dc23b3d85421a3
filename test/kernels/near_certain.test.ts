/**
 * Near-certain rows: one logit above the rest by a gap of 6–20, so a row's normaliser is S = 1 + r with r as
 * small as ~1e-15. f32 log(S) loses r (a log-prob of −2.6e-6 read 0 with one thread per row, an entropy of
 * 5e-5 nats read 5 % low, the exact KL had a ~2e-7 nats floor); the kernels now take log S = log1p(r). Every
 * GPU kernel that reports a log-prob, an entropy or a KL, and its CPU twin, is compared to a float64 reference
 * written here from the definitions (plain JS doubles, its own log1p sums), at several vocabulary widths (7 and
 * 257 do not divide the workgroup) and thread counts.
 */
import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { crossEntropy } from "../../src/kernels/cross_entropy";
import { entropy } from "../../src/kernels/entropy";
import { exactKl } from "../../src/kernels/exact_kl";
import { sample } from "../../src/kernels/sample";
import { softmax } from "../../src/kernels/softmax";
import { tokenLogprob, tokenLogprobBackward } from "../../src/kernels/token_logprob";
import { crossEntropyRef } from "../../src/reference/cross_entropy";
import { entropyRef } from "../../src/reference/entropy";
import { exactKlRef } from "../../src/reference/exact_kl";
import { sampleRef } from "../../src/reference/sample";
import { softmaxRef } from "../../src/reference/softmax";
import { tokenLogprobBackwardRef, tokenLogprobRef } from "../../src/reference/token_logprob";
import { Rng } from "../../src/util/rng";
import { kernelGpu } from "../helpers/gpu";

/** Logit gaps of the near-certain token over the rest's max, one row each. */
const GAPS = [6, 8, 10, 12, 14, 16, 18, 20];
/** Vocabulary widths: a lone token, widths not dividing the workgroup, and one wider than 256 threads. */
const VS = [1, 7, 64, 257];
const TAUS = [1, 0.5];
/** Threads per row: one (a serial f32 sum), a middle width, the widest. */
const THREADS = [1, 64, 256];
/** f32 sums of r's terms and log1p: a few ulps of r, far under these. */
const LOGP_RTOL = 1e-3;
const H_RTOL = 1e-2;
const KL_RTOL = 1e-2;

/** Logits [N, V] f32: noise 0.5·N(0, 1), one token per row (top[n]) GAPS[n] above the row's other logits. */
function nearCertain(rng: Rng, V: number): { x: Float32Array; top: Int32Array } {
  const N = GAPS.length;
  const x = new Float32Array(N * V);
  const top = new Int32Array(N);
  for (let n = 0; n < N; n++) {
    top[n] = rng.int(0, V - 1);
    let m = Number.NEGATIVE_INFINITY;
    for (let v = 0; v < V; v++) {
      x[n * V + v] = 0.5 * rng.normal();
      if (v !== top[n]) m = Math.max(m, x[n * V + v]);
    }
    x[n * V + top[n]] = (V === 1 ? 0 : m) + GAPS[n];
  }
  return { x, top };
}

/** Float64 row n: z_v = (x_v − x_t)/τ, r = Σ_{v ≠ t} e^{z_v}, log p_v = z_v − log1p(r) (t the unique max). */
function exactRow(x: ArrayLike<number>, n: number, V: number, t: number, tau: number) {
  const z = Array.from({ length: V }, (_, v) => (x[n * V + v] - x[n * V + t]) / tau);
  const r = z.reduce((a, zv, v) => (v === t ? a : a + Math.exp(zv)), 0);
  return { r, lp: z.map((zv) => zv - Math.log1p(r)) };
}

/** Expected per row: the top token's log-prob, 1 − p_top, entropy, KL(p ‖ q) to the reference row `y`. */
function expected(x: Float32Array, y: Float32Array, top: Int32Array, V: number, tau: number) {
  return Array.from(top, (t, n) => {
    const p = exactRow(x, n, V, t, tau);
    const q = exactRow(y, n, V, t, tau);
    let h = 0;
    let kl = 0;
    for (let v = 0; v < V; v++) {
      const pv = Math.exp(p.lp[v]);
      h -= pv * p.lp[v];
      kl += pv * (p.lp[v] - q.lp[v]);
    }
    return { logp: p.lp[t], oneMinusP: p.r / (1 + p.r), h, kl };
  });
}

/** |got − want| / |want| (0 = 0 exactly: a lone token is certain). */
function relErr(got: number, want: number): number {
  if (want === 0) return got === 0 ? 0 : Number.POSITIVE_INFINITY;
  return Math.abs(got - want) / Math.abs(want);
}

const worst = new Map<string, { err: number; at: string; rtol: number }>();

/** Record the worst relative error over the rows under `what` (asserted, after printing, per V). */
function check(what: string, label: string, got: ArrayLike<number>, want: number[], rtol: number): void {
  for (let n = 0; n < want.length; n++) {
    const err = relErr(got[n], want[n]);
    const w = worst.get(what);
    if (!w || !(err <= w.err))
      worst.set(what, { err, rtol, at: `${label} gap ${GAPS[n]}: got ${got[n]}, want ${want[n]}` });
  }
}

/** Run every kernel on one set of rows; returns per row (GPU, twin) of each quantity. */
async function runAll(
  ctx: GpuContext,
  x: Float32Array,
  y: Float32Array,
  top: Int32Array,
  V: number,
  tau: number,
  width: number,
) {
  const N = top.length;
  const logits = ctx.tensor([N, V], "f32", "logits", x);
  const ref = ctx.tensor([N, V], "f32", "ref", y);
  const targets = ctx.tensor([N], "i32", "targets", top);
  const ones = ctx.tensor([N], "f32", "ones", new Float32Array(N).fill(1));
  const logp = ctx.tensor([N], "f32", "logp");
  const dlogits = ctx.tensor([N, V], "f32", "dlogits");
  const logsm = ctx.tensor([N, V], "f32", "logsm");
  const H = ctx.tensor([N], "f32", "H");
  const kl = ctx.tensor([N], "f32", "kl");
  const loss = ctx.tensor([N], "f32", "loss");
  const dce = ctx.tensor([N, V], "f32", "dce");
  const tokens = ctx.tensor([N], "i32", "tokens");
  const slogp = ctx.tensor([N], "f32", "slogp");
  const done = ctx.tensor([N], "u32", "done", new Uint32Array(N));
  tokenLogprob(ctx, logp, logits, targets, { tau, width });
  tokenLogprobBackward(ctx, dlogits, logits, targets, ones, { tau, width });
  softmax(ctx, logsm, logits, { tau, log: true, width });
  entropy(ctx, H, logits, { tau, width });
  exactKl(ctx, kl, logits, ref, { tau, width });
  if (tau === 1) crossEntropy(ctx, loss, dce, logits, targets, { scale: 1, width });
  sample(ctx, tokens, slogp, logits, done, { temperature: tau, greedy: true, width });
  const at = (a: ArrayLike<number>) => Array.from(top, (t, n) => a[n * V + t]);
  const gpu = {
    logp: await ctx.read(logp),
    grad: at(await ctx.read(dlogits)).map((g) => g * tau),
    logsm: at(await ctx.read(logsm)),
    H: await ctx.read(H),
    kl: await ctx.read(kl),
    ce: Array.from(await ctx.read(loss), (l) => -l),
    dce: at(await ctx.read(dce)).map((g) => -g),
    slogp: await ctx.read(slogp),
  };
  expect(Array.from(await ctx.read(tokens))).toEqual(Array.from(top));
  const ce = crossEntropyRef(x, N, V, top, 1);
  const twin = {
    logp: tokenLogprobRef(x, N, V, top, null, tau),
    grad: at(tokenLogprobBackwardRef(x, N, V, top, null, new Float64Array(N).fill(1), tau)).map(
      (g) => g * tau,
    ),
    logsm: at(softmaxRef(x, N, V, true, tau)),
    H: entropyRef(x, N, V, null, tau),
    kl: exactKlRef(x, y, N, V, null, tau),
    ce: Array.from(ce.loss, (l) => -l),
    dce: at(ce.dlogits).map((g) => -g),
    slogp: sampleRef(x, N, V, { temperature: tau, topK: 1, seed: 0, step: 0, padId: 0 }).logp,
  };
  return { gpu, twin };
}

describe("vocabulary-row kernels near certainty (log S = log1p(r))", () => {
  for (const V of VS)
    it(`log-prob, 1 − p, entropy and exact KL of a near-certain token match float64, V = ${V}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(1000 + V);
      const { x, top } = nearCertain(rng, V);
      const y = x.slice(); // the reference: the top logit 1 lower, so KL ~ r
      for (let n = 0; n < top.length; n++) y[n * V + top[n]] -= 1;
      for (const tau of TAUS) {
        const want = expected(x, y, top, V, tau);
        const logpWant = want.map((w) => w.logp);
        const gradWant = want.map((w) => w.oneMinusP);
        for (const width of THREADS) {
          const { gpu, twin } = await runAll(ctx, x, y, top, V, tau, width);
          for (const [side, got] of [
            ["GPU", gpu],
            ["twin", twin],
          ] as const) {
            const label = `${side} V=${V} τ=${tau} threads=${width}`;
            check(`${side} token_logprob`, label, got.logp, logpWant, LOGP_RTOL);
            check(`${side} token_logprob_backward 1 − p`, label, got.grad, gradWant, LOGP_RTOL);
            check(`${side} log-softmax`, label, got.logsm, logpWant, LOGP_RTOL);
            check(`${side} sample logp`, label, got.slogp, logpWant, LOGP_RTOL);
            check(
              `${side} entropy`,
              label,
              got.H,
              want.map((w) => w.h),
              H_RTOL,
            );
            check(
              `${side} exact_kl`,
              label,
              got.kl,
              want.map((w) => w.kl),
              KL_RTOL,
            );
            if (tau === 1) {
              check(`${side} cross_entropy −loss`, label, got.ce, logpWant, LOGP_RTOL);
              check(`${side} cross_entropy 1 − p`, label, got.dce, gradWant, LOGP_RTOL);
            }
          }
        }
      }
      const lines = [...worst].map(
        ([what, w]) => `${what}: worst relative error ${w.err.toExponential(2)} (${w.at})`,
      );
      console.log(lines.join("\n"));
      const failed = [...worst].filter(([, w]) => !(w.err <= w.rtol)).map(([what]) => what);
      worst.clear();
      expect(failed, lines.join("\n")).toEqual([]);
    });
});
