import { describe, expect, it } from "vitest";
import { exactKl, exactKlBackward } from "../../src/kernels/exact_kl";
import { exactKlBackwardRef, exactKlRef } from "../../src/reference/exact_kl";
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
  stripedMask,
  WIDTHS,
  weighted,
} from "../helpers/vocab_rows";

/** Σ p(log p − log q) with |log p − log q| up to ~60 (τ = 0.5, independent logits): ~60·ε per term. */
const KL_TOL = { atol: 2e-5, rtol: 1e-5 };
/** dkl·p((log p − log q) − KL)/τ with |dkl| ≲ 3: p has ~1e-6 relative error, the bracket ~60·ε absolute. */
const GRAD_TOL = { atol: 2e-5, rtol: 1e-5 };
/** Float64 twin vs float64 central differences (h = 1e-6): truncation ~h², rounding ~ε·|L|/h ≈ 1e-9. */
const FD_TOL = { atol: 1e-7, rtol: 1e-6 };
/** The shared test vectors' tolerances: f32 GPU paths 1e-4, float64 paths 1e-6 (shared/README.md). */
const VECTOR_GPU_TOL = { atol: 0, rtol: 1e-4 };
const VECTOR_F64_TOL = { atol: 0, rtol: 1e-6 };

/** Reference logits: the policy's plus noise of size `spread` (0.3: a nearby policy; 3: an unrelated one). */
function nearby(rng: Rng, x: Float32Array, spread: number): Float32Array {
  return x.map((v) => v + spread * rng.normal());
}

describe("exact_kl vs CPU twin", () => {
  for (const width of WIDTHS)
    it(`forward and backward (overwrite and accumulate), masked, width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(51);
      for (const [N, V] of ROW_SHAPES)
        for (const [tau, spread] of [
          [1, 0.3],
          [0.5, 3],
          [2, 1],
        ]) {
          const x = randomLogits(rng, N * V);
          const y = nearby(rng, x, spread);
          const m = stripedMask(N);
          const dkl = randomLogits(rng, N, 1);
          const prior = randomLogits(rng, N * V, 1);
          const policy = ctx.tensor([N, V], "f32", "policy", x);
          const reference = ctx.tensor([N, V], "f32", "reference", y);
          const mask = ctx.tensor([N], "f32", "mask", m);
          const kl = ctx.tensor([N], "f32", "kl");
          const dpolicy = ctx.tensor([N, V], "f32", "dpolicy", prior);
          const acc = ctx.tensor([N, V], "f32", "acc", prior);
          const dk = ctx.tensor([N], "f32", "dkl", dkl);
          const opts = { tau, mask, width };
          exactKl(ctx, kl, policy, reference, opts);
          exactKlBackward(ctx, dpolicy, policy, reference, dk, opts);
          exactKlBackward(ctx, acc, policy, reference, dk, { ...opts, accumulate: true });
          const label = `[${N}×${V}] τ=${tau} spread=${spread} w=${width}`;
          expectClose(`kl${label}`, await ctx.read(kl), exactKlRef(x, y, N, V, m, tau), KL_TOL);
          const g = exactKlBackwardRef(x, y, N, V, m, dkl, tau);
          expectClose(`dpolicy${label}`, await ctx.read(dpolicy), g, GRAD_TOL);
          expectClose(
            `dpolicy+=${label}`,
            await ctx.read(acc),
            g.map((v, i) => v + prior[i]),
            GRAD_TOL,
          );
        }
    });

  it("runs unmasked at the default width, bit-identical run to run; KL(p ‖ p) is exactly 0", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(52);
    const [N, V] = [65, 257];
    const x = randomLogits(rng, N * V);
    const y = nearby(rng, x, 1);
    const policy = ctx.tensor([N, V], "f32", "policy", x);
    const a = ctx.tensor([N], "f32", "a");
    const b = ctx.tensor([N], "f32", "b");
    const self = ctx.tensor([N], "f32", "self");
    exactKl(ctx, a, policy, ctx.tensor([N, V], "f32", "reference", y), { tau: 0.7 });
    exactKl(ctx, b, policy, ctx.tensor([N, V], "f32", "reference", y), { tau: 0.7 });
    exactKl(ctx, self, policy, ctx.tensor([N, V], "f32", "copy", x), { tau: 0.7 });
    const ra = await ctx.read(a);
    expectClose("kl default width", ra, exactKlRef(x, y, N, V, null, 0.7), KL_TOL);
    expectSameBits("kl rerun", ra, await ctx.read(b));
    expectAllZero("KL(p ‖ p)", await ctx.read(self));
  });
});

describe("exact_kl gradients and spec", () => {
  it("twin gradient matches float64 finite differences (policy logits only)", () => {
    const rng = new Rng(53);
    for (const [N, V, tau] of [
      [1, 1, 1],
      [3, 5, 0.7],
      [4, 9, 2],
    ]) {
      const x = Float64Array.from(randomLogits(rng, N * V));
      const y = Float64Array.from(nearby(rng, Float32Array.from(x), 1));
      const m = stripedMask(N, 3, 1);
      const w = randomLogits(rng, N, 1);
      const fd = centralDiff((xs) => weighted(exactKlRef(xs, y, N, V, m, tau), w), x);
      expectClose(`FD [${N}×${V}] τ=${tau}`, exactKlBackwardRef(x, y, N, V, m, w, tau), fd, FD_TOL);
    }
  });

  it("matches the shared test vector exact_kl_full_vocab", async () => {
    const c = vectorCase("exact_kl_full_vocab");
    const {
      logits_policy: lp,
      logits_ref: lr,
      temperature,
    } = c.inputs as {
      logits_policy: number[];
      logits_ref: number[];
      temperature: number;
    };
    const ctx = await kernelGpu();
    const V = lp.length;
    const out = ctx.tensor([1], "f32", "kl");
    exactKl(ctx, out, ctx.tensor([1, V], "f32", "p", lp), ctx.tensor([1, V], "f32", "r", lr), {
      tau: temperature,
    });
    const twin = exactKlRef(Float64Array.from(lp), Float64Array.from(lr), 1, V, null, temperature);
    expectClose("vector (twin)", twin, [c.expected], VECTOR_F64_TOL);
    expectClose("vector (GPU)", await ctx.read(out), [c.expected], VECTOR_GPU_TOL);
  });
});

describe("exact_kl masking and infinities", () => {
  for (const width of WIDTHS)
    it(`masked rows holding NaN/±Inf give exactly 0 and 0 gradient (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(55);
      const [N, V] = [7, 33];
      const m = stripedMask(N, 2, 0);
      const x = randomLogits(rng, N * V);
      const y = nearby(rng, x, 1);
      poisonMaskedRows(x, V, (n) => m[n] === 0);
      poisonMaskedRows(y, V, (n) => m[n] === 0);
      const dkl = randomLogits(rng, N, 1);
      for (let n = 0; n < N; n++) if (m[n] === 0) dkl[n] = Number.NaN;
      const policy = ctx.tensor([N, V], "f32", "policy", x);
      const reference = ctx.tensor([N, V], "f32", "reference", y);
      const mask = ctx.tensor([N], "f32", "mask", m);
      const kl = ctx.tensor([N], "f32", "kl");
      const dpolicy = ctx.tensor([N, V], "f32", "dpolicy", new Float32Array(N * V).fill(Number.NaN));
      const acc = ctx.tensor([N, V], "f32", "acc", new Float32Array(N * V).fill(0.25));
      const dk = ctx.tensor([N], "f32", "dkl", dkl);
      exactKl(ctx, kl, policy, reference, { tau: 0.7, mask, width });
      exactKlBackward(ctx, dpolicy, policy, reference, dk, { tau: 0.7, mask, width });
      exactKlBackward(ctx, acc, policy, reference, dk, { tau: 0.7, mask, width, accumulate: true });
      const k = await ctx.read(kl);
      const g = await ctx.read(dpolicy);
      const ga = await ctx.read(acc);
      for (let n = 0; n < N; n++) {
        const row = (a: Float32Array) => a.subarray(n * V, (n + 1) * V);
        if (m[n] === 0) {
          expectAllZero(`kl[${n}]`, [k[n]]);
          expectAllZero(`dpolicy row ${n}`, row(g));
          expect(
            Array.from(row(ga)).every((v) => v === 0.25),
            `accumulate row ${n} untouched`,
          ).toBe(true);
        } else expect(row(g).every(Number.isFinite) && row(ga).every(Number.isFinite)).toBe(true);
      }
      expectClose("live rows vs twin", k, exactKlRef(x, y, N, V, m, 0.7), KL_TOL);
      expectClose("grads vs twin", g, exactKlBackwardRef(x, y, N, V, m, dkl, 0.7), GRAD_TOL);
    });

  for (const width of WIDTHS)
    it(`q = 0 where p > 0 gives +∞ (zero gradient); p = 0 entries add 0 (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const ninf = Number.NEGATIVE_INFINITY;
      const inf = Number.POSITIVE_INFINITY;
      // row 0: q has −∞ where p > 0 → +∞.     row 1: p and q both −∞ at entry 2 → KL over entries 0, 1.
      // row 2: reference all −∞ → +∞.           row 3: policy all −∞ → 0.
      // row 4: p −∞ where q > 0 → finite.
      const x = Float32Array.from([1, 2, 0, 1, 2, ninf, 1, 2, 0, ninf, ninf, ninf, 1, 2, ninf]);
      const y = Float32Array.from([1, ninf, 0, 0, 1, ninf, ninf, ninf, ninf, 1, 2, 3, 0, 1, 2]);
      const policy = ctx.tensor([5, 3], "f32", "policy", x);
      const reference = ctx.tensor([5, 3], "f32", "reference", y);
      const kl = ctx.tensor([5], "f32", "kl");
      const dpolicy = ctx.tensor([5, 3], "f32", "dpolicy");
      const ones = ctx.tensor([5], "f32", "ones", [1, 1, 1, 1, 1]);
      exactKl(ctx, kl, policy, reference, { tau: 0.7, width });
      exactKlBackward(ctx, dpolicy, policy, reference, ones, { tau: 0.7, width });
      const row1 = exactKlRef(
        Float64Array.from([1, 2, 0, 1]),
        Float64Array.from([0, 1, 0, 1]),
        2,
        2,
        null,
        0.7,
      );
      const row4 = exactKlRef(Float64Array.from([1, 2]), Float64Array.from([0, 1]), 1, 2, null, 0.7);
      const twin = exactKlRef(x, y, 5, 3, null, 0.7);
      const expected = [inf, row1[0], inf, 0, twin[4]];
      expect(twin[4]).toBeGreaterThan(row4[0]); // q's mass on entry 2 (where p = 0) lowers log q elsewhere
      expectClose("KL with infinities (twin)", twin, expected, { atol: 0, rtol: 0 });
      expectClose("KL with infinities (GPU)", await ctx.read(kl), expected, KL_TOL);
      const g = await ctx.read(dpolicy);
      expect(g.every(Number.isFinite), `finite gradients: ${g}`).toBe(true);
      expectAllZero("rows 0, 2, 3 gradient", [...g.subarray(0, 3), ...g.subarray(6, 12)]);
      expectClose(
        "gradients vs twin",
        g,
        exactKlBackwardRef(x, y, 5, 3, null, [1, 1, 1, 1, 1], 0.7),
        GRAD_TOL,
      );
    });

  it("rejects mismatched reference, sizes and temperatures", async () => {
    const ctx = await kernelGpu();
    const policy = ctx.tensor([2, 3], "f32", "policy");
    const kl = ctx.tensor([2], "f32", "kl");
    expect(() => exactKl(ctx, kl, policy, ctx.tensor([2, 4]), { tau: 1 })).toThrow(/reference/);
    expect(() => exactKl(ctx, ctx.tensor([3]), policy, ctx.tensor([2, 3]), { tau: 1 })).toThrow(/kl/);
    expect(() => exactKl(ctx, kl, policy, ctx.tensor([2, 3]), { tau: 0 })).toThrow(/temperature/);
    expect(() => exactKlBackward(ctx, policy, policy, ctx.tensor([2, 3]), kl, { tau: 1 })).toThrow(/shares/);
  });
});
