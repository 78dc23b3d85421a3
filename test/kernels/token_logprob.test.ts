import { describe, expect, it } from "vitest";
import { tokenLogprob, tokenLogprobBackward } from "../../src/kernels/token_logprob";
import { tokenLogprobBackwardRef, tokenLogprobRef } from "../../src/reference/token_logprob";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { vectorCase } from "../helpers/vectors";
import {
  centralDiff,
  expectAllZero,
  expectSameBits,
  poisonMaskedRows,
  ROW_SHAPES,
  randomLogits,
  randomTargets,
  stripedMask,
  WIDTHS,
  weighted,
} from "../helpers/vocab_rows";

/** Log-probs down to ~−60 (τ = 0.5, logits ~3·N(0,1)): f32 rounding of z/τ − log S ≈ 60·ε ≈ 4e-6. */
const LOGP_TOL = { atol: 2e-5, rtol: 1e-6 };
/** dlogp·(onehot − p)/τ with |dlogp| ≲ 3, τ ≥ 0.5: p has ~1e-6 relative error, so ≲ 6e-6 absolute. */
const GRAD_TOL = { atol: 1e-5, rtol: 1e-5 };
/** Float64 twin vs float64 central differences (h = 1e-6): truncation ~h², rounding ~ε·|L|/h ≈ 1e-9. */
const FD_TOL = { atol: 1e-7, rtol: 1e-6 };
/** The shared test vectors' tolerance for f32 GPU paths (shared/README.md). */
const VECTOR_GPU_TOL = { atol: 0, rtol: 1e-4 };
/** …and for float64 paths. */
const VECTOR_F64_TOL = { atol: 0, rtol: 1e-6 };

/** Targets with a few out-of-range entries (−1, V) that must behave like masked rows. */
function targetsWithStrays(rng: Rng, N: number, V: number): Int32Array {
  const t = randomTargets(rng, N, V);
  if (N > 4) {
    t[2] = -1;
    t[4] = V;
  }
  return t;
}

describe("token_logprob vs CPU twin", () => {
  for (const width of WIDTHS)
    it(`forward and backward (overwrite and accumulate), masked, width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(31);
      for (const [N, V] of ROW_SHAPES)
        for (const tau of [1, 0.5]) {
          const x = randomLogits(rng, N * V);
          const t = targetsWithStrays(rng, N, V);
          const m = stripedMask(N);
          const dlogp = randomLogits(rng, N, 1);
          const prior = randomLogits(rng, N * V, 1);
          const logits = ctx.tensor([N, V], "f32", "logits", x);
          const targets = ctx.tensor([N], "i32", "targets", t);
          const mask = ctx.tensor([N], "f32", "mask", m);
          const logp = ctx.tensor([N], "f32", "logp");
          const dlogits = ctx.tensor([N, V], "f32", "dlogits", prior);
          const acc = ctx.tensor([N, V], "f32", "acc", prior);
          const dl = ctx.tensor([N], "f32", "dlogp", dlogp);
          const opts = { tau, mask, width };
          tokenLogprob(ctx, logp, logits, targets, opts);
          tokenLogprobBackward(ctx, dlogits, logits, targets, dl, opts);
          tokenLogprobBackward(ctx, acc, logits, targets, dl, { ...opts, accumulate: true });
          const label = `[${N}×${V}] τ=${tau} w=${width}`;
          expectClose(`logp${label}`, await ctx.read(logp), tokenLogprobRef(x, N, V, t, m, tau), LOGP_TOL);
          const g = tokenLogprobBackwardRef(x, N, V, t, m, dlogp, tau);
          expectClose(`dlogits${label}`, await ctx.read(dlogits), g, GRAD_TOL);
          expectClose(
            `dlogits+=${label}`,
            await ctx.read(acc),
            g.map((v, i) => v + prior[i]),
            GRAD_TOL,
          );
        }
    });

  it("runs unmasked at the default width, bit-identical run to run", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(32);
    const [N, V] = [65, 257];
    const x = randomLogits(rng, N * V);
    const t = randomTargets(rng, N, V);
    const logits = ctx.tensor([N, V], "f32", "logits", x);
    const targets = ctx.tensor([N], "i32", "targets", t);
    const a = ctx.tensor([N], "f32", "a");
    const b = ctx.tensor([N], "f32", "b");
    tokenLogprob(ctx, a, logits, targets, { tau: 0.7 });
    tokenLogprob(ctx, b, logits, targets, { tau: 0.7 });
    const ra = await ctx.read(a);
    expectClose("logp default width", ra, tokenLogprobRef(x, N, V, t, null, 0.7), LOGP_TOL);
    expectSameBits("logp rerun", ra, await ctx.read(b));
  });
});

describe("token_logprob gradients", () => {
  it("twin gradient matches float64 finite differences", () => {
    const rng = new Rng(33);
    for (const [N, V, tau] of [
      [1, 1, 1],
      [3, 5, 0.7],
      [4, 9, 2],
    ]) {
      const x = Float64Array.from(randomLogits(rng, N * V));
      const t = randomTargets(rng, N, V);
      const m = stripedMask(N, 3, 1);
      const w = randomLogits(rng, N, 1);
      const fd = centralDiff((xs) => weighted(tokenLogprobRef(xs, N, V, t, m, tau), w), x);
      expectClose(`FD [${N}×${V}] τ=${tau}`, tokenLogprobBackwardRef(x, N, V, t, m, w, tau), fd, FD_TOL);
    }
  });
});

describe("token_logprob temperature (../shared/docs/algorithms.md, Notation)", () => {
  it("log-prob at τ = 0.5 is log softmax(logits / 0.5), not the τ = 1 value", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(34);
    const [N, V] = [3, 5];
    const x = randomLogits(rng, N * V, 1);
    const t = randomTargets(rng, N, V);
    const logits = ctx.tensor([N, V], "f32", "logits", x);
    const targets = ctx.tensor([N], "i32", "targets", t);
    const half = ctx.tensor([N], "f32", "half");
    const one = ctx.tensor([N], "f32", "one");
    tokenLogprob(ctx, half, logits, targets, { tau: 0.5 });
    tokenLogprob(ctx, one, logits, targets, { tau: 1 });
    const doubled = x.map((v) => 2 * v); // exact in f32
    const gHalf = await ctx.read(half);
    const gOne = await ctx.read(one);
    expectClose(
      "GPU τ=0.5 vs twin(2·logits, τ=1)",
      gHalf,
      tokenLogprobRef(doubled, N, V, t, null, 1),
      LOGP_TOL,
    );
    expectClose(
      "twin τ=0.5 vs twin(2·logits, τ=1)",
      tokenLogprobRef(x, N, V, t, null, 0.5),
      tokenLogprobRef(doubled, N, V, t, null, 1),
      VECTOR_F64_TOL,
    );
    expectClose("GPU τ=1 vs twin", gOne, tokenLogprobRef(x, N, V, t, null, 1), LOGP_TOL);
    for (let n = 0; n < N; n++) expect(Math.abs(gHalf[n] - gOne[n])).toBeGreaterThan(1e-3);
  });

  it("matches the shared test vector logprob_uses_temperature", async () => {
    const c = vectorCase("logprob_uses_temperature");
    const {
      logits: l,
      token,
      temperature,
    } = c.inputs as { logits: number[]; token: number; temperature: number };
    const ctx = await kernelGpu();
    const x = Float32Array.from(l);
    const out = ctx.tensor([1], "f32", "logp");
    tokenLogprob(
      ctx,
      out,
      ctx.tensor([1, l.length], "f32", "logits", x),
      ctx.tensor([1], "i32", "t", [token]),
      {
        tau: temperature,
      },
    );
    const twin = tokenLogprobRef(Float64Array.from(l), 1, l.length, [token], null, temperature);
    expectClose("vector (twin)", twin, [c.expected], VECTOR_F64_TOL);
    expectClose("vector (GPU)", await ctx.read(out), [c.expected], VECTOR_GPU_TOL);
  });
});

describe("token_logprob masking", () => {
  for (const width of WIDTHS)
    it(`masked rows holding NaN/±Inf give exactly 0 and 0 gradient (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(35);
      const [N, V] = [7, 33];
      const m = stripedMask(N, 2, 0); // rows 0, 2, 4, 6 masked
      const x = randomLogits(rng, N * V);
      poisonMaskedRows(x, V, (n) => m[n] === 0);
      const t = randomTargets(rng, N, V);
      const dlogp = randomLogits(rng, N, 1);
      for (let n = 0; n < N; n++) if (m[n] === 0) dlogp[n] = Number.NaN;
      const logits = ctx.tensor([N, V], "f32", "logits", x);
      const targets = ctx.tensor([N], "i32", "targets", t);
      const mask = ctx.tensor([N], "f32", "mask", m);
      const logp = ctx.tensor([N], "f32", "logp");
      const dlogits = ctx.tensor([N, V], "f32", "dlogits", new Float32Array(N * V).fill(Number.NaN));
      const acc = ctx.tensor([N, V], "f32", "acc", new Float32Array(N * V).fill(0.25));
      const dl = ctx.tensor([N], "f32", "dlogp", dlogp);
      tokenLogprob(ctx, logp, logits, targets, { tau: 0.7, mask, width });
      tokenLogprobBackward(ctx, dlogits, logits, targets, dl, { tau: 0.7, mask, width });
      tokenLogprobBackward(ctx, acc, logits, targets, dl, { tau: 0.7, mask, width, accumulate: true });
      const lp = await ctx.read(logp);
      const g = await ctx.read(dlogits);
      const ga = await ctx.read(acc);
      for (let n = 0; n < N; n++) {
        const row = (a: Float32Array) => a.subarray(n * V, (n + 1) * V);
        if (m[n] === 0) {
          expectAllZero(`logp[${n}]`, [lp[n]]);
          expectAllZero(`dlogits row ${n}`, row(g));
          expect(
            Array.from(row(ga)).every((v) => v === 0.25),
            `accumulate row ${n} untouched`,
          ).toBe(true);
        } else {
          expect(Number.isFinite(lp[n]) && lp[n] < 0).toBe(true);
          expect(row(g).every(Number.isFinite) && row(ga).every(Number.isFinite)).toBe(true);
        }
      }
      expectClose("live rows vs twin", lp, tokenLogprobRef(x, N, V, t, m, 0.7), LOGP_TOL);
      const twinGrad = tokenLogprobBackwardRef(x, N, V, t, m, dlogp, 0.7);
      expectClose("masked-row grads vs twin", g, twinGrad, GRAD_TOL);
    });

  it("all −∞ rows and out-of-range targets give 0; a −∞ target logit gives −∞", async () => {
    const ctx = await kernelGpu();
    const ninf = Number.NEGATIVE_INFINITY;
    const x = Float32Array.from([ninf, ninf, ninf, 1, 2, ninf, 1, 2, 3, 1, 2, 3]);
    const t = [1, 2, -1, 3];
    const logits = ctx.tensor([4, 3], "f32", "logits", x);
    const targets = ctx.tensor([4], "i32", "t", t);
    const logp = ctx.tensor([4], "f32", "logp");
    const dlogits = ctx.tensor([4, 3], "f32", "dlogits");
    tokenLogprob(ctx, logp, logits, targets, { tau: 1 });
    tokenLogprobBackward(ctx, dlogits, logits, targets, ctx.tensor([4], "f32", "d", [1, 1, 1, 1]), {
      tau: 1,
    });
    const expected = [0, ninf, 0, 0];
    expectClose("edge logp", await ctx.read(logp), expected, { atol: 0, rtol: 0 });
    expectClose("edge logp twin", tokenLogprobRef(x, 4, 3, t, null, 1), expected, { atol: 0, rtol: 0 });
    const g = await ctx.read(dlogits);
    expectClose("edge dlogits", g, tokenLogprobBackwardRef(x, 4, 3, t, null, [1, 1, 1, 1], 1), GRAD_TOL);
    expect(g.every(Number.isFinite)).toBe(true);
  });

  it("rejects wrong dtypes, sizes and temperatures", async () => {
    const ctx = await kernelGpu();
    const logits = ctx.tensor([2, 3], "f32", "logits");
    const t = ctx.tensor([2], "i32", "t");
    const out = ctx.tensor([2], "f32", "out");
    expect(() => tokenLogprob(ctx, out, logits, ctx.tensor([2], "f32", "tf"), { tau: 1 })).toThrow(/i32/);
    expect(() => tokenLogprob(ctx, out, logits, t, { tau: 1, mask: ctx.tensor([3]) })).toThrow(/mask/);
    expect(() => tokenLogprob(ctx, out, logits, t, { tau: -1 })).toThrow(/temperature/);
    expect(() => tokenLogprobBackward(ctx, logits, logits, t, out, { tau: 1 })).toThrow(/shares/);
    expect(() => tokenLogprobBackward(ctx, ctx.tensor([5]), logits, t, out, { tau: 1 })).toThrow(/dlogits/);
  });
});
