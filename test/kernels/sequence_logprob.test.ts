import { describe, expect, it } from "vitest";
import { maskFromLengths } from "../../src/algorithms/math/masked";
import type { GpuContext } from "../../src/gpu/context";
import { reduceRows } from "../../src/kernels/reduce";
import { sequenceLogprob, sequenceLogprobBackward } from "../../src/kernels/sequence_logprob";
import { tokenLogprob } from "../../src/kernels/token_logprob";
import { sequenceLogprobBackwardRef, sequenceLogprobRef } from "../../src/reference/sequence_logprob";
import { Rng } from "../../src/util/rng";
import { dot, finiteDiffGrad, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { expectAllZero, randomLogits, randomTargets } from "../helpers/vocab_rows";

/** f32 sequential sums of ≤ 13 log-probs in (−5, 0) vs float64: ≲ 13·ulp(65) ≈ 1e-4 worst, far less typical. */
const SUM_TOL = { atol: 2e-5, rtol: 1e-6 };
/** One f32 division (mean) or a copy (backward). */
const EXACTISH = { atol: 1e-7, rtol: 1e-6 };
/** Float64 twin vs central differences (h = 1e-6): the loss is linear in logp, so rounding only, ~ε·|L|/h ≲ 1e-8. */
const FD_TOL = { atol: 1e-7, rtol: 1e-6 };

/** [R, T]: one slot, odd sizes, R = 64 (one full workgroup), R = 130 (three, the last partial). */
const SHAPES: [number, number][] = [
  [1, 1],
  [7, 13],
  [64, 9],
  [130, 5],
];

/** Random masks with prompt offsets and lengths 0..T (a few empty rows), log-probs with NaN/±∞ where masked. */
function batch(rng: Rng, R: number, T: number) {
  const offsets = Array.from({ length: R }, () => rng.int(0, Math.min(2, T)));
  const lengths = offsets.map((o) => rng.int(0, T - o));
  const mask = Float32Array.from(maskFromLengths(R, T, lengths, offsets));
  const junk = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  const logp = rng.uniform(R * T, -5, 0).map((v, i) => (mask[i] === 0 ? junk[i % 3] : v));
  return { mask, logp, lengths };
}

async function forward(
  ctx: GpuContext,
  R: number,
  T: number,
  logp: Float32Array,
  mask: Float32Array,
  mean: boolean,
) {
  const out = ctx.tensor([R], "f32", "out");
  const lengths = ctx.tensor([R], "f32", "lengths");
  const tl = ctx.tensor([R, T], "f32", "logp", logp);
  sequenceLogprob(ctx, out, lengths, tl, ctx.tensor([R, T], "f32", "mask", mask), { mean });
  return { out: await ctx.read(out), lengths: await ctx.read(lengths), lengthsTensor: lengths };
}

describe("sequence_logprob vs CPU twin", () => {
  for (const mean of [false, true])
    it(`forward (${mean ? "per-token mean" : "sum"}) and backward, NaN/±∞ in masked slots`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(91);
      for (const [R, T] of SHAPES) {
        const { mask, logp, lengths } = batch(rng, R, T);
        const gpu = await forward(ctx, R, T, logp, mask, mean);
        const twin = sequenceLogprobRef(logp, mask, R, T, mean);
        expectClose(`out [${R}×${T}] mean=${mean}`, gpu.out, twin.out, SUM_TOL);
        expectClose(`lengths [${R}×${T}]`, gpu.lengths, lengths, { atol: 0, rtol: 0 });
        // Backward: g NaN on empty rows (never read there).
        const g = rng.uniform(R, -1, 1).map((v, r) => (lengths[r] === 0 ? Number.NaN : v));
        const dlogp = ctx.tensor([R, T], "f32", "dlogp", new Float32Array(R * T).fill(7));
        sequenceLogprobBackward(
          ctx,
          dlogp,
          ctx.tensor([R], "f32", "g", g),
          ctx.tensor([R, T], "f32", "m", mask),
          {
            mean,
            lengths: gpu.lengthsTensor,
          },
        );
        const d = await ctx.read(dlogp);
        expectClose(
          `dlogp [${R}×${T}] mean=${mean}`,
          d,
          sequenceLogprobBackwardRef(g, mask, R, T, mean),
          EXACTISH,
        );
        expectAllZero(
          "masked dlogp",
          Array.from(d).filter((_, i) => mask[i] === 0),
        );
      }
    });

  it("equals reduceRows over tokenLogprob's output (tokenLogprob writes 0 on masked rows)", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(92);
    const [R, T, V] = [5, 6, 11];
    const { mask } = batch(rng, R, T);
    const logits = ctx.tensor([R * T, V], "f32", "logits", randomLogits(rng, R * T * V));
    const targets = ctx.tensor([R * T], "i32", "targets", randomTargets(rng, R * T, V));
    const m = ctx.tensor([R, T], "f32", "mask", mask);
    const logp = ctx.tensor([R, T], "f32", "logp");
    tokenLogprob(ctx, logp, logits, targets, { tau: 0.8, mask: m });
    const viaReduce = ctx.tensor([R], "f32", "reduce");
    reduceRows(ctx, "sum", viaReduce, logp);
    const out = ctx.tensor([R], "f32", "out");
    sequenceLogprob(ctx, out, ctx.tensor([R], "f32", "len"), logp, m);
    expectClose("sequenceLogprob vs reduceRows", await ctx.read(out), await ctx.read(viaReduce), SUM_TOL);
  });

  it("twin counts mask ≠ 0 as the kernel does (0.5, 2, −1 count), checks sizes as the wrapper", async () => {
    const ctx = await kernelGpu();
    const [R, T] = [3, 4];
    const mask = Float32Array.from([1, 0.5, 0, 2, -1, 0, 0, 0, 0, 0, 0, 0]);
    const logp = Float32Array.from([-1, -2, Number.NaN, -3, -4, 5, 5, 5, 5, 5, 5, 5]);
    const lengths = Float32Array.from([3, 1, 0]);
    for (const mean of [false, true]) {
      const gpu = await forward(ctx, R, T, logp, mask, mean);
      const twin = sequenceLogprobRef(logp, mask, R, T, mean);
      expectClose(`lengths mean=${mean}`, gpu.lengths, lengths, { atol: 0, rtol: 0 });
      expectClose(`twin lengths mean=${mean}`, twin.lengths, lengths, { atol: 0, rtol: 0 });
      expectClose(`out mean=${mean}`, gpu.out, twin.out, EXACTISH);
      const g = Float32Array.from([0.5, -2, Number.NaN]);
      const dlogp = ctx.tensor([R, T], "f32", "dlogp");
      const m = ctx.tensor([R, T], "f32", "m", mask);
      sequenceLogprobBackward(ctx, dlogp, ctx.tensor([R], "f32", "g", g), m, {
        mean,
        lengths: gpu.lengthsTensor,
      });
      const twinD = sequenceLogprobBackwardRef(g, mask, R, T, mean);
      expectClose(`dlogp mean=${mean}`, await ctx.read(dlogp), twinD, EXACTISH);
    }
    expect(() => sequenceLogprobRef(logp, mask.subarray(1), R, T)).toThrow(RangeError);
    expect(() => sequenceLogprobRef(logp.subarray(1), mask, R, T)).toThrow(RangeError);
    expect(() => sequenceLogprobRef(logp, mask, R, 0)).toThrow(RangeError);
    expect(() => sequenceLogprobBackwardRef([1, 2], mask, R, T)).toThrow(RangeError);
    expect(() => sequenceLogprobBackwardRef([1, 2, 3], mask.subarray(1), R, T)).toThrow(RangeError);
  });

  it("rejects mismatched sizes, mean without lengths, and aliasing", async () => {
    const ctx = await kernelGpu();
    const logp = ctx.tensor([2, 3], "f32", "logp");
    const mask = ctx.tensor([2, 3], "f32", "mask");
    const r = () => ctx.tensor([2], "f32", "r");
    expect(() => sequenceLogprob(ctx, ctx.tensor([3]), r(), logp, mask)).toThrow(/out/);
    expect(() => sequenceLogprob(ctx, r(), r(), logp, ctx.tensor([5]))).toThrow(/mask/);
    expect(() => sequenceLogprob(ctx, logp.reshape([6]).view([2]), r(), logp, mask)).toThrow(/shares/);
    expect(() => sequenceLogprobBackward(ctx, logp, r(), mask, { mean: true })).toThrow(/lengths/);
    expect(() => sequenceLogprobBackward(ctx, logp, ctx.tensor([3]), mask)).toThrow(/g /);
  });
});

describe("sequence_logprob twin gradient", () => {
  for (const mean of [false, true])
    it(`backward twin = ∂(Σ g·out)/∂logp by float64 central differences (${mean ? "mean" : "sum"})`, () => {
      const rng = new Rng(93);
      const [R, T] = [6, 7];
      const { mask, lengths } = batch(rng, R, T);
      // Finite in every slot: the differences step masked slots too, where the gradient must be 0.
      const logp = rng.uniform(R * T, -5, 0);
      const g = rng.uniform(R, -1, 1);
      const loss = (x: Float64Array) => dot(sequenceLogprobRef(x, mask, R, T, mean).out, g);
      const label = `FD [${R}×${T}] mean=${mean} lengths ${lengths.join(",")}`;
      expectClose(
        label,
        sequenceLogprobBackwardRef(g, mask, R, T, mean),
        finiteDiffGrad(loss, logp),
        FD_TOL,
        TWIN_VS_FD,
      );
    });
});
