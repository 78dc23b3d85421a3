import { describe, expect, it } from "vitest";
import { entropy, entropyBackward } from "../../src/kernels/entropy";
import { entropyBackwardRef, entropyRef } from "../../src/reference/entropy";
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

/** H ≤ log V ≈ 7 nats, a sum of V f32 terms e^z·z with a few ulps each: ≲ 1e-6 absolute. */
const H_TOL = { atol: 1e-5, rtol: 1e-5 };
/** dH·p(log p + H)/τ with |dH| ≲ 3, τ ≥ 0.5: p log p has ~1e-6 relative error. */
const GRAD_TOL = { atol: 1e-5, rtol: 1e-5 };
/** Float64 twin vs float64 central differences (h = 1e-6): truncation ~h², rounding ~ε·|L|/h ≈ 1e-9. */
const FD_TOL = { atol: 1e-7, rtol: 1e-6 };
/** The shared test vectors' tolerances: f32 GPU paths 1e-4, float64 paths 1e-6 (shared/README.md). */
const VECTOR_GPU_TOL = { atol: 0, rtol: 1e-4 };
const VECTOR_F64_TOL = { atol: 0, rtol: 1e-6 };

describe("entropy vs CPU twin", () => {
  for (const width of WIDTHS)
    it(`forward and backward (overwrite and accumulate), masked, width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(41);
      for (const [N, V] of ROW_SHAPES)
        for (const tau of [1, 0.5, 2]) {
          const x = randomLogits(rng, N * V);
          const m = stripedMask(N);
          const dH = randomLogits(rng, N, 1);
          const prior = randomLogits(rng, N * V, 1);
          const logits = ctx.tensor([N, V], "f32", "logits", x);
          const mask = ctx.tensor([N], "f32", "mask", m);
          const H = ctx.tensor([N], "f32", "H");
          const dlogits = ctx.tensor([N, V], "f32", "dlogits", prior);
          const acc = ctx.tensor([N, V], "f32", "acc", prior);
          const dh = ctx.tensor([N], "f32", "dH", dH);
          const opts = { tau, mask, width };
          entropy(ctx, H, logits, opts);
          entropyBackward(ctx, dlogits, logits, dh, opts);
          entropyBackward(ctx, acc, logits, dh, { ...opts, accumulate: true });
          const label = `[${N}×${V}] τ=${tau} w=${width}`;
          expectClose(`H${label}`, await ctx.read(H), entropyRef(x, N, V, m, tau), H_TOL);
          const g = entropyBackwardRef(x, N, V, m, dH, tau);
          expectClose(`dlogits${label}`, await ctx.read(dlogits), g, GRAD_TOL);
          expectClose(
            `dlogits+=${label}`,
            await ctx.read(acc),
            g.map((v, i) => v + prior[i]),
            GRAD_TOL,
          );
        }
    });

  it("runs unmasked at the default width, bit-identical run to run; uniform rows give log V", async () => {
    const ctx = await kernelGpu();
    const [N, V] = [65, 257];
    const x = randomLogits(new Rng(42), N * V);
    x.fill(0.5, 0, V); // row 0 uniform: H = log V
    const logits = ctx.tensor([N, V], "f32", "logits", x);
    const a = ctx.tensor([N], "f32", "a");
    const b = ctx.tensor([N], "f32", "b");
    entropy(ctx, a, logits, { tau: 0.7 });
    entropy(ctx, b, logits, { tau: 0.7 });
    const ra = await ctx.read(a);
    expectClose("H default width", ra, entropyRef(x, N, V, null, 0.7), H_TOL);
    expectClose("H uniform row", [ra[0]], [Math.log(V)], { atol: 0, rtol: 1e-6 });
    expectSameBits("H rerun", ra, await ctx.read(b));
  });
});

describe("entropy gradients and spec", () => {
  it("twin gradient matches float64 finite differences", () => {
    const rng = new Rng(43);
    for (const [N, V, tau] of [
      [1, 1, 1],
      [3, 5, 0.7],
      [4, 9, 2],
    ]) {
      const x = Float64Array.from(randomLogits(rng, N * V));
      const m = stripedMask(N, 3, 1);
      const w = randomLogits(rng, N, 1);
      const fd = centralDiff((xs) => weighted(entropyRef(xs, N, V, m, tau), w), x);
      expectClose(`FD [${N}×${V}] τ=${tau}`, entropyBackwardRef(x, N, V, m, w, tau), fd, FD_TOL);
    }
  });

  it("matches the shared test vector entropy_with_temperature", async () => {
    const c = vectorCase("entropy_with_temperature");
    const { logits: l, temperature } = c.inputs as { logits: number[]; temperature: number };
    const ctx = await kernelGpu();
    const out = ctx.tensor([1], "f32", "H");
    entropy(ctx, out, ctx.tensor([1, l.length], "f32", "logits", l), { tau: temperature });
    expectClose(
      "vector (twin)",
      entropyRef(Float64Array.from(l), 1, l.length, null, temperature),
      [c.expected],
      VECTOR_F64_TOL,
    );
    expectClose("vector (GPU)", await ctx.read(out), [c.expected], VECTOR_GPU_TOL);
  });
});

describe("entropy masking and edge cases", () => {
  for (const width of WIDTHS)
    it(`masked rows holding NaN/±Inf give exactly 0 and 0 gradient (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(45);
      const [N, V] = [7, 33];
      const m = stripedMask(N, 2, 0);
      const x = randomLogits(rng, N * V);
      poisonMaskedRows(x, V, (n) => m[n] === 0);
      const dH = randomLogits(rng, N, 1);
      for (let n = 0; n < N; n++) if (m[n] === 0) dH[n] = Number.NaN;
      const logits = ctx.tensor([N, V], "f32", "logits", x);
      const mask = ctx.tensor([N], "f32", "mask", m);
      const H = ctx.tensor([N], "f32", "H");
      const dlogits = ctx.tensor([N, V], "f32", "dlogits", new Float32Array(N * V).fill(Number.NaN));
      const acc = ctx.tensor([N, V], "f32", "acc", new Float32Array(N * V).fill(0.25));
      const dh = ctx.tensor([N], "f32", "dH", dH);
      entropy(ctx, H, logits, { tau: 0.7, mask, width });
      entropyBackward(ctx, dlogits, logits, dh, { tau: 0.7, mask, width });
      entropyBackward(ctx, acc, logits, dh, { tau: 0.7, mask, width, accumulate: true });
      const h = await ctx.read(H);
      const g = await ctx.read(dlogits);
      const ga = await ctx.read(acc);
      for (let n = 0; n < N; n++) {
        const row = (a: Float32Array) => a.subarray(n * V, (n + 1) * V);
        if (m[n] === 0) {
          expectAllZero(`H[${n}]`, [h[n]]);
          expectAllZero(`dlogits row ${n}`, row(g));
          expect(
            Array.from(row(ga)).every((v) => v === 0.25),
            `accumulate row ${n} untouched`,
          ).toBe(true);
        } else expect(row(g).every(Number.isFinite) && row(ga).every(Number.isFinite)).toBe(true);
      }
      expectClose("live rows vs twin", h, entropyRef(x, N, V, m, 0.7), H_TOL);
      expectClose("grads vs twin", g, entropyBackwardRef(x, N, V, m, dH, 0.7), GRAD_TOL);
    });

  it("all −∞ rows give 0; −∞ entries (p = 0) add 0; one-hot rows give 0", async () => {
    const ctx = await kernelGpu();
    const ninf = Number.NEGATIVE_INFINITY;
    // rows: all −∞; [−∞, 1, 1] (H = ln 2); [1000, 0, 0] (H ≈ 0); [0, 0, 0] (ln 3)
    const x = Float32Array.from([ninf, ninf, ninf, ninf, 1, 1, 1000, 0, 0, 0, 0, 0]);
    const logits = ctx.tensor([4, 3], "f32", "logits", x);
    const H = ctx.tensor([4], "f32", "H");
    const dlogits = ctx.tensor([4, 3], "f32", "dlogits");
    entropy(ctx, H, logits, { tau: 1 });
    entropyBackward(ctx, dlogits, logits, ctx.tensor([4], "f32", "dH", [1, 1, 1, 1]), { tau: 1 });
    const expected = [0, Math.LN2, 0, Math.log(3)];
    expectClose("edge H", await ctx.read(H), expected, { atol: 1e-7, rtol: 1e-6 });
    expectClose("edge H twin", entropyRef(x, 4, 3, null, 1), expected, { atol: 1e-12, rtol: 1e-12 });
    const g = await ctx.read(dlogits);
    expect(g.every(Number.isFinite)).toBe(true);
    expectClose("edge dlogits", g, entropyBackwardRef(x, 4, 3, null, [1, 1, 1, 1], 1), GRAD_TOL);
  });

  it("rejects wrong sizes and temperatures", async () => {
    const ctx = await kernelGpu();
    const logits = ctx.tensor([2, 3], "f32", "logits");
    const H = ctx.tensor([2], "f32", "H");
    expect(() => entropy(ctx, ctx.tensor([3]), logits, { tau: 1 })).toThrow(/H/);
    expect(() => entropy(ctx, H, logits, { tau: 1, mask: ctx.tensor([2], "i32") })).toThrow(/f32/);
    expect(() => entropy(ctx, H, logits, { tau: Number.POSITIVE_INFINITY })).toThrow(/temperature/);
    expect(() => entropyBackward(ctx, ctx.tensor([2, 2]), logits, H, { tau: 1 })).toThrow(/dlogits/);
  });
});
