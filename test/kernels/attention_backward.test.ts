import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import type { AttentionShape } from "../../src/kernels/attention";
import { attentionBackward } from "../../src/kernels/attention_backward";
import { attentionRef } from "../../src/reference/attention";
import { attentionBackwardRef } from "../../src/reference/attention_backward";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { leftPadMask } from "../helpers/masks";

/** Twin vs central differences in float64 (h = 1e-6): truncation ~h², cancellation ~ε·|L|/h; seen ≤ 7e-10. */
const FD_TOL = { atol: 1e-8, rtol: 1e-6 };
/** f32 hs-term dots, a T-term row sum and a T-term gather per output vs float64, values O(1); seen ≤ 5e-7. */
const TOL = { atol: 5e-6, rtol: 5e-5 };
/** Padding positions must get exactly zero gradients; reruns must be bit-identical. */
const EXACT = { atol: 0, rtol: 0 };

/** Shapes from the brief with left-padding counts per batch row (T = a fully padded row). */
const CASES: { s: AttentionShape; pads: number[] }[] = [
  { s: { B: 1, T: 1, C: 4, H: 1 }, pads: [0] },
  { s: { B: 2, T: 7, C: 12, H: 3 }, pads: [0, 3] },
  { s: { B: 3, T: 33, C: 32, H: 2 }, pads: [5, 0, 33] },
];

/** L = Σ out ⊙ w for the float64 forward twin. */
function loss(qkv: Float64Array, mask: Float32Array, w: ArrayLike<number>, s: AttentionShape): number {
  const { out } = attentionRef(qkv, mask, s);
  let L = 0;
  for (let i = 0; i < out.length; i++) L += out[i] * w[i];
  return L;
}

async function runGpu(
  ctx: GpuContext,
  s: AttentionShape,
  inputs: { dout: Float32Array; qkv: Float32Array; P: Float32Array },
  width: number,
): Promise<{ dqkv: Float32Array; dS: Float32Array }> {
  const { B, T, C, H } = s;
  const dqkv = ctx.tensor([B, T, 3 * C], "f32", "dqkv", new Float32Array(B * T * 3 * C).fill(Number.NaN));
  const dS = ctx.tensor([B, H, T, T], "f32", "dS", new Float32Array(B * H * T * T).fill(Number.NaN));
  attentionBackward(
    ctx,
    dqkv,
    dS,
    ctx.tensor([B, T, C], "f32", "dout", inputs.dout),
    ctx.tensor([B, T, 3 * C], "f32", "qkv", inputs.qkv),
    ctx.tensor([B, H, T, T], "f32", "P", inputs.P),
    { ...s, width },
  );
  return { dqkv: await ctx.read(dqkv), dS: await ctx.read(dS) };
}

/** Random qkv and dout, with P from the forward twin rounded to f32 (the GPU and the twin see the same P). */
function inputs(rng: Rng, s: AttentionShape, mask: Float32Array) {
  const qkv = rng.uniform(s.B * s.T * 3 * s.C);
  const dout = rng.uniform(s.B * s.T * s.C);
  const P = Float32Array.from(attentionRef(qkv, mask, s).P);
  return { qkv, dout, P };
}

describe("attention backward", () => {
  it("twin matches float64 central differences of the forward twin", () => {
    const rng = new Rng(31);
    const fdCases: { s: AttentionShape; pads: number[] }[] = [
      { s: { B: 1, T: 1, C: 4, H: 1 }, pads: [0] },
      { s: { B: 1, T: 3, C: 4, H: 2 }, pads: [0] },
      { s: { B: 2, T: 5, C: 6, H: 3 }, pads: [2, 5] },
    ];
    for (const { s, pads } of fdCases) {
      const mask = leftPadMask(s.T, pads);
      const qkv = Float64Array.from(rng.uniform(s.B * s.T * 3 * s.C), (x) => 2 * x);
      const w = rng.uniform(s.B * s.T * s.C);
      const { P } = attentionRef(qkv, mask, s);
      const { dqkv } = attentionBackwardRef(w, qkv, P, s);
      const fd = new Float64Array(qkv.length);
      const h = 1e-6;
      for (let i = 0; i < qkv.length; i++) {
        const x = qkv[i];
        qkv[i] = x + h;
        const up = loss(qkv, mask, w, s);
        qkv[i] = x - h;
        const down = loss(qkv, mask, w, s);
        qkv[i] = x;
        fd[i] = (up - down) / (2 * h);
      }
      expectClose(`twin vs FD B=${s.B} T=${s.T} C=${s.C} H=${s.H} pads=${pads}`, dqkv, fd, FD_TOL);
    }
  });

  for (const width of [1, 64])
    it(`GPU matches the twin at ${CASES.length} shapes with left padding, width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(32);
      for (const { s, pads } of CASES) {
        const mask = leftPadMask(s.T, pads);
        const inp = inputs(rng, s, mask);
        const gpu = await runGpu(ctx, s, inp, width);
        const ref = attentionBackwardRef(inp.dout, inp.qkv, inp.P, s);
        const label = `B=${s.B} T=${s.T} C=${s.C} H=${s.H} w=${width}`;
        expectClose(`dqkv ${label}`, gpu.dqkv, ref.dqkv, TOL);
        expectClose(`dS ${label}`, gpu.dS, ref.dS, TOL);
      }
    });

  it("gives exact zero gradients at padding positions, even with NaN garbage there", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(33);
    const s = { B: 2, T: 7, C: 12, H: 3 };
    const pads = [4, 1];
    const mask = leftPadMask(s.T, pads);
    const inp = inputs(rng, s, mask);
    const isPad = (i: number) => mask[Math.floor(i / (3 * s.C))] === 0;
    for (let i = 0; i < inp.qkv.length; i++) if (isPad(i)) inp.qkv[i] = Number.NaN;
    const ref = attentionBackwardRef(inp.dout, inp.qkv, inp.P, s);
    for (const width of [1, 8]) {
      const gpu = await runGpu(ctx, s, inp, width);
      expectClose(`dqkv with NaN padding w=${width}`, gpu.dqkv, ref.dqkv, TOL);
      const pad = gpu.dqkv.filter((_, i) => isPad(i));
      expectClose(`dqkv at padding w=${width}`, pad, new Float32Array(pad.length), EXACT);
    }
  });

  it("is deterministic: the same inputs give bit-identical gradients", async () => {
    const ctx = await kernelGpu();
    const s = { B: 3, T: 33, C: 32, H: 2 };
    const inp = inputs(new Rng(34), s, leftPadMask(s.T, [5, 0, 12]));
    const a = await runGpu(ctx, s, inp, 32);
    const b = await runGpu(ctx, s, inp, 32);
    expectClose("dqkv run-to-run", b.dqkv, a.dqkv, EXACT);
  });

  it("rejects bad shapes and widths with RangeErrors", async () => {
    const ctx = await kernelGpu();
    const s = { B: 1, T: 2, C: 4, H: 2 };
    const dqkv = ctx.tensor([1, 2, 12]);
    const dS = ctx.tensor([1, 2, 2, 2]);
    const dout = ctx.tensor([1, 2, 4]);
    expect(() => attentionBackward(ctx, dqkv, dS, dout, dqkv, dS, { ...s, C: 5 })).toThrow(/not divisible/);
    expect(() => attentionBackward(ctx, dqkv, ctx.tensor([4]), dout, dqkv, dS, s)).toThrow(/dS/);
    expect(() => attentionBackward(ctx, dqkv, dS, dqkv, dqkv, dS, s)).toThrow(/dout/);
    expect(() => attentionBackward(ctx, dqkv, dS, dout, dqkv, dS, { ...s, width: 512 })).toThrow(/width/);
  });
});
