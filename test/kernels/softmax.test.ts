import { describe, expect, it } from "vitest";
import { softmax } from "../../src/kernels/softmax";
import { softmaxRef } from "../../src/reference/softmax";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { expectSameBits, ROW_SHAPES, randomLogits, WIDTHS } from "../helpers/vocab_rows";

/** Probabilities: exp has a few ulps of relative error and the f32 sum ~√V·ε; p ≤ 1 so atol bounds tiny p. */
const PROB_TOL = { atol: 1e-6, rtol: 1e-5 };
/** Log-probs reach −60 at τ = 0.5 (logits ~3·N(0,1)): f32 rounding of z ≈ 60·ε ≈ 4e-6 absolute. */
const LOG_TOL = { atol: 2e-5, rtol: 1e-6 };
/** Exact cases ([v, v] → −ln 2; [1000, 0] → [1, 0]): the f32 nearest value, to one ulp. */
const EXACT_TOL = { atol: 0, rtol: 2e-7 };

describe("softmax vs CPU twin", () => {
  for (const log of [false, true])
    for (const width of WIDTHS)
      it(`${log ? "log-softmax" : "softmax"}, width ${width}, τ ∈ {1, 0.5, 2}`, async () => {
        const ctx = await kernelGpu();
        const rng = new Rng(21);
        for (const [N, V] of ROW_SHAPES)
          for (const tau of [1, 0.5, 2]) {
            const x = randomLogits(rng, N * V);
            const out = ctx.tensor([N, V], "f32", "out");
            softmax(ctx, out, ctx.tensor([N, V], "f32", "logits", x), { tau, log, width });
            const label = `${log ? "log" : ""}softmax[${N}×${V}] τ=${tau} w=${width}`;
            expectClose(label, await ctx.read(out), softmaxRef(x, N, V, log, tau), log ? LOG_TOL : PROB_TOL);
          }
      });

  it("uses the adapter's default width and is bit-identical run to run", async () => {
    const ctx = await kernelGpu();
    const [N, V] = [65, 257];
    const x = randomLogits(new Rng(22), N * V);
    const logits = ctx.tensor([N, V], "f32", "logits", x);
    const a = ctx.tensor([N, V], "f32", "a");
    const b = ctx.tensor([N, V], "f32", "b");
    softmax(ctx, a, logits, { tau: 0.7 });
    softmax(ctx, b, logits, { tau: 0.7 });
    const ra = await ctx.read(a);
    expectClose("softmax default width", ra, softmaxRef(x, N, V, false, 0.7), PROB_TOL);
    expectSameBits("softmax rerun", ra, await ctx.read(b));
  });
});

describe("softmax edge cases", () => {
  for (const width of WIDTHS)
    it(`log-softmax of [v, v] is −ln 2 up to v = 1e20, at τ = 1 and 0.5 (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const vs = [0, 1, -7.5, 1e4, 1e10, 1e20, -1e20];
      const x = Float32Array.from(vs.flatMap((v) => [v, v]));
      for (const tau of [1, 0.5]) {
        const out = ctx.tensor([vs.length, 2], "f32", "out");
        softmax(ctx, out, ctx.tensor([vs.length, 2], "f32", "logits", x), { tau, log: true, width });
        expectClose(
          `log-softmax [v, v] τ=${tau}`,
          await ctx.read(out),
          x.map(() => -Math.LN2),
          EXACT_TOL,
        );
      }
    });

  for (const width of WIDTHS)
    it(`softmax of [1000, 0] is [1, 0]; rows of −∞ give zeros (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const ninf = Number.NEGATIVE_INFINITY;
      // rows: [1000, 0], [0, 1000], [−∞, −∞], [−∞, 3]
      const x = Float32Array.from([1000, 0, 0, 1000, ninf, ninf, ninf, 3]);
      const logits = ctx.tensor([4, 2], "f32", "logits", x);
      const p = ctx.tensor([4, 2], "f32", "p");
      const lp = ctx.tensor([4, 2], "f32", "lp");
      softmax(ctx, p, logits, { tau: 1, width });
      softmax(ctx, lp, logits, { tau: 1, log: true, width });
      expectClose("softmax edge", await ctx.read(p), [1, 0, 0, 1, 0, 0, 0, 1], EXACT_TOL);
      expectClose("log-softmax edge", await ctx.read(lp), [0, -1000, -1000, 0, 0, 0, ninf, 0], EXACT_TOL);
      expectClose("twin", softmaxRef(x, 4, 2, true, 1), [0, -1000, -1000, 0, 0, 0, ninf, 0], EXACT_TOL);
    });

  it("rejects bad temperatures, widths and shapes", async () => {
    const ctx = await kernelGpu();
    const x = ctx.tensor([2, 3], "f32", "x");
    const out = ctx.tensor([2, 3], "f32", "out");
    expect(() => softmax(ctx, out, x, { tau: 0 })).toThrow(/temperature/);
    expect(() => softmax(ctx, out, x, { tau: Number.NaN })).toThrow(/temperature/);
    expect(() => softmax(ctx, out, x, { tau: 1, width: 3 })).toThrow(/width/);
    expect(() => softmax(ctx, ctx.tensor([5]), x, { tau: 1 })).toThrow(/out/);
    expect(() => softmax(ctx, x, x, { tau: 1 })).toThrow(/shares a GPU buffer/);
  });
});
