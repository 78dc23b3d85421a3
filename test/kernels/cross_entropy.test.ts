import { describe, expect, it } from "vitest";
import { crossEntropy } from "../../src/kernels/cross_entropy";
import { crossEntropyRef } from "../../src/reference/cross_entropy";
import { tokenLogprobRef } from "../../src/reference/token_logprob";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";
import {
  centralDiff,
  expectAllZero,
  expectSameBits,
  poisonMaskedRows,
  ROW_SHAPES,
  randomLogits,
  randomTargets,
  WIDTHS,
} from "../helpers/vocab_rows";

/** Losses up to ~30 nats (logits ~3·N(0,1)): f32 rounding of log S − (x_t − m) ≈ 30·ε ≈ 2e-6. */
const LOSS_TOL = { atol: 1e-5, rtol: 1e-6 };
/** (p − onehot)·scale with scale ≤ 1: p has ~1e-6 relative error. */
const GRAD_TOL = { atol: 1e-6, rtol: 1e-5 };
/** Float64 twin vs float64 central differences (h = 1e-6): truncation ~h², rounding ~ε·|L|/h ≈ 1e-9. */
const FD_TOL = { atol: 1e-7, rtol: 1e-6 };

/** Targets with ignored rows (−1, −100) and one out-of-range (V) row when N allows; scale = 1/#kept. */
function targetsAndScale(rng: Rng, N: number, V: number): { t: Int32Array; scale: number } {
  const t = randomTargets(rng, N, V);
  if (N > 5) {
    t[1] = -1;
    t[3] = -100;
    t[5] = V;
  }
  const kept = t.filter((v) => v >= 0 && v < V).length;
  return { t, scale: 1 / Math.max(kept, 1) };
}

describe("cross_entropy vs CPU twin", () => {
  for (const width of WIDTHS)
    it(`loss and fused gradient (overwrite and accumulate), width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(61);
      for (const [N, V] of ROW_SHAPES) {
        const x = randomLogits(rng, N * V);
        const { t, scale } = targetsAndScale(rng, N, V);
        const prior = randomLogits(rng, N * V, 1);
        const logits = ctx.tensor([N, V], "f32", "logits", x);
        const targets = ctx.tensor([N], "i32", "targets", t);
        const loss = ctx.tensor([N], "f32", "loss");
        const loss2 = ctx.tensor([N], "f32", "loss2");
        const dlogits = ctx.tensor([N, V], "f32", "dlogits", prior);
        const acc = ctx.tensor([N, V], "f32", "acc", prior);
        crossEntropy(ctx, loss, dlogits, logits, targets, { scale, width });
        crossEntropy(ctx, loss2, acc, logits, targets, { scale, width, accumulate: true });
        const ref = crossEntropyRef(x, N, V, t, scale);
        const label = `[${N}×${V}] w=${width}`;
        expectClose(`loss${label}`, await ctx.read(loss), ref.loss, LOSS_TOL);
        expectClose(`loss(acc)${label}`, await ctx.read(loss2), ref.loss, LOSS_TOL);
        expectClose(`dlogits${label}`, await ctx.read(dlogits), ref.dlogits, GRAD_TOL);
        const added = ref.dlogits.map((v, i) => v + prior[i]);
        expectClose(`dlogits+=${label}`, await ctx.read(acc), added, GRAD_TOL);
      }
    });

  it("runs at the default width, bit-identical run to run", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(62);
    const [N, V] = [65, 257];
    const x = randomLogits(rng, N * V);
    const { t, scale } = targetsAndScale(rng, N, V);
    const logits = ctx.tensor([N, V], "f32", "logits", x);
    const targets = ctx.tensor([N], "i32", "targets", t);
    const [la, lb] = [ctx.tensor([N], "f32", "la"), ctx.tensor([N], "f32", "lb")];
    const [da, db] = [ctx.tensor([N, V], "f32", "da"), ctx.tensor([N, V], "f32", "db")];
    crossEntropy(ctx, la, da, logits, targets, { scale });
    crossEntropy(ctx, lb, db, logits, targets, { scale });
    const ref = crossEntropyRef(x, N, V, t, scale);
    const [ra, rd] = [await ctx.read(la), await ctx.read(da)];
    expectClose("loss default width", ra, ref.loss, LOSS_TOL);
    expectClose("dlogits default width", rd, ref.dlogits, GRAD_TOL);
    expectSameBits("loss rerun", ra, await ctx.read(lb));
    expectSameBits("dlogits rerun", rd, await ctx.read(db));
  });
});

describe("cross_entropy gradients and consistency", () => {
  it("twin gradient matches float64 finite differences of scale·Σ loss", () => {
    const rng = new Rng(63);
    for (const [N, V, scale] of [
      [1, 1, 1],
      [3, 5, 1 / 3],
      [7, 9, 0.25],
    ]) {
      const x = Float64Array.from(randomLogits(rng, N * V));
      const { t } = targetsAndScale(rng, N, V);
      const sumLoss = (xs: Float64Array) =>
        scale * crossEntropyRef(xs, N, V, t, scale).loss.reduce((a, b) => a + b);
      const fd = centralDiff(sumLoss, x);
      expectClose(`FD [${N}×${V}] scale=${scale}`, crossEntropyRef(x, N, V, t, scale).dlogits, fd, FD_TOL);
    }
  });

  it("loss is −logp at τ = 1 (the token_logprob twin)", () => {
    const rng = new Rng(64);
    const [N, V] = [9, 17];
    const x = randomLogits(rng, N * V);
    const { t } = targetsAndScale(rng, N, V);
    const logp = tokenLogprobRef(x, N, V, t, null, 1);
    expectClose(
      "CE vs −logp",
      crossEntropyRef(x, N, V, t, 1).loss,
      logp.map((v) => -v),
      {
        atol: 0,
        rtol: 1e-15,
      },
    );
  });
});

describe("cross_entropy ignored rows", () => {
  for (const width of WIDTHS)
    it(`ignored rows holding NaN/±Inf give exactly 0 loss and 0 gradient (width ${width})`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(65);
      const [N, V] = [7, 33];
      const x = randomLogits(rng, N * V);
      const t = randomTargets(rng, N, V);
      for (const n of [0, 2, 4, 6]) t[n] = n === 4 ? V + 3 : -1;
      poisonMaskedRows(x, V, (n) => t[n] < 0 || t[n] >= V);
      const logits = ctx.tensor([N, V], "f32", "logits", x);
      const targets = ctx.tensor([N], "i32", "targets", t);
      const loss = ctx.tensor([N], "f32", "loss", new Float32Array(N).fill(Number.NaN));
      const dlogits = ctx.tensor([N, V], "f32", "dlogits", new Float32Array(N * V).fill(Number.NaN));
      const acc = ctx.tensor([N, V], "f32", "acc", new Float32Array(N * V).fill(0.25));
      crossEntropy(ctx, loss, dlogits, logits, targets, { scale: 1 / 3, width });
      crossEntropy(ctx, ctx.tensor([N]), acc, logits, targets, { scale: 1 / 3, width, accumulate: true });
      const l = await ctx.read(loss);
      const g = await ctx.read(dlogits);
      const ga = await ctx.read(acc);
      for (const n of [0, 2, 4, 6]) {
        expectAllZero(`loss[${n}]`, [l[n]]);
        expectAllZero(`dlogits row ${n}`, g.subarray(n * V, (n + 1) * V));
        expect(Array.from(ga.subarray(n * V, (n + 1) * V)).every((v) => v === 0.25)).toBe(true);
      }
      const ref = crossEntropyRef(x, N, V, t, 1 / 3);
      expectClose("loss vs twin", l, ref.loss, LOSS_TOL);
      expectClose("dlogits vs twin", g, ref.dlogits, GRAD_TOL);
    });

  it("all −∞ rows give 0; a −∞ target logit gives +∞ loss and a finite gradient", async () => {
    const ctx = await kernelGpu();
    const ninf = Number.NEGATIVE_INFINITY;
    const x = Float32Array.from([ninf, ninf, ninf, 1, 2, ninf, 1000, 0, 0]);
    const t = [1, 2, 0];
    const loss = ctx.tensor([3], "f32", "loss");
    const dlogits = ctx.tensor([3, 3], "f32", "dlogits");
    const logits = ctx.tensor([3, 3], "f32", "logits", x);
    crossEntropy(ctx, loss, dlogits, logits, ctx.tensor([3], "i32", "t", t), { scale: 1 });
    const ref = crossEntropyRef(x, 3, 3, t, 1);
    expectClose("edge loss twin", ref.loss, [0, Number.POSITIVE_INFINITY, 0], { atol: 0, rtol: 0 });
    expectClose("edge loss", await ctx.read(loss), ref.loss, LOSS_TOL);
    const g = await ctx.read(dlogits);
    expect(g.every(Number.isFinite)).toBe(true);
    expectClose("edge dlogits", g, ref.dlogits, GRAD_TOL);
  });

  it("rejects wrong dtypes, sizes, scales and in-place gradients", async () => {
    const ctx = await kernelGpu();
    const logits = ctx.tensor([2, 3], "f32", "logits");
    const t = ctx.tensor([2], "i32", "t");
    const loss = ctx.tensor([2], "f32", "loss");
    const d = ctx.tensor([2, 3], "f32", "d");
    expect(() => crossEntropy(ctx, loss, d, logits, ctx.tensor([2], "u32"), { scale: 1 })).toThrow(/i32/);
    expect(() => crossEntropy(ctx, ctx.tensor([3]), d, logits, t, { scale: 1 })).toThrow(/loss/);
    expect(() => crossEntropy(ctx, loss, d, logits, t, { scale: Number.NaN })).toThrow(/scale/);
    expect(() => crossEntropy(ctx, loss, logits, logits, t, { scale: 1 })).toThrow(/shares/);
  });
});
