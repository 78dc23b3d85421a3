import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { type AttentionShape, attentionForward } from "../../src/kernels/attention";
import { attentionRef } from "../../src/reference/attention";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { leftPadMask } from "../helpers/masks";

/** hs-term f32 dot products, one exp (a few ulps) and a T-term sum, inputs in [−1, 1): seen ≤ 7e-8. */
const TOL = { atol: 2e-6, rtol: 2e-5 };
/** Padding queries must be exactly zero; so must P for hidden keys (they are written, not computed). */
const EXACT = { atol: 0, rtol: 0 };

/** Shapes from the brief, each with left-padding counts per batch row (T = a fully padded row). */
const CASES: { s: AttentionShape; pads: number[] | null }[] = [
  { s: { B: 1, T: 1, C: 4, H: 1 }, pads: [0] },
  { s: { B: 2, T: 7, C: 12, H: 3 }, pads: [0, 3] },
  { s: { B: 3, T: 33, C: 32, H: 2 }, pads: [5, 0, 33] },
  { s: { B: 2, T: 9, C: 8, H: 4 }, pads: null },
];

function label(s: AttentionShape, width: number): string {
  return `B=${s.B} T=${s.T} C=${s.C} H=${s.H} w=${width}`;
}

async function runGpu(
  ctx: GpuContext,
  s: AttentionShape,
  qkv: ArrayLike<number>,
  mask: ArrayLike<number> | null,
  width: number,
): Promise<{ out: Float32Array; P: Float32Array }> {
  const { B, T, C, H } = s;
  const out = ctx.tensor([B, T, C], "f32", "out");
  const P = ctx.tensor([B, H, T, T], "f32", "P");
  const tq = ctx.tensor([B, T, 3 * C], "f32", "qkv", qkv);
  const tm = mask ? ctx.tensor([B, T], "f32", "mask", mask) : null;
  attentionForward(ctx, out, P, tq, tm, { ...s, width });
  return { out: await ctx.read(out), P: await ctx.read(P) };
}

describe("attention forward vs CPU twin", () => {
  for (const width of [1, 64])
    it(`matches the twin at ${CASES.length} shapes with left padding, width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(21);
      for (const { s, pads } of CASES) {
        const qkv = rng.uniform(s.B * s.T * 3 * s.C);
        const mask = pads && leftPadMask(s.T, pads);
        const gpu = await runGpu(ctx, s, qkv, mask, width);
        const ref = attentionRef(qkv, mask, s);
        expectClose(`out ${label(s, width)}`, gpu.out, ref.out, TOL);
        expectClose(`P ${label(s, width)}`, gpu.P, ref.P, TOL);
      }
    });

  it("gives exact zeros for padding queries and ignores NaN garbage in padding positions", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(22);
    const s = { B: 2, T: 7, C: 12, H: 3 };
    const pads = [4, 1];
    const mask = leftPadMask(s.T, pads);
    const qkv = rng.uniform(s.B * s.T * 3 * s.C);
    for (let i = 0; i < qkv.length; i++) if (mask[Math.floor(i / (3 * s.C))] === 0) qkv[i] = Number.NaN;
    for (const width of [1, 8]) {
      const gpu = await runGpu(ctx, s, qkv, mask, width);
      const ref = attentionRef(qkv, mask, s);
      expectClose(`out NaN padding w=${width}`, gpu.out, ref.out, TOL);
      expectClose(`P NaN padding w=${width}`, gpu.P, ref.P, TOL);
      const padOut: number[] = [];
      const padP: number[] = [];
      for (let b = 0; b < s.B; b++)
        for (let t = 0; t < pads[b]; t++) {
          padOut.push(...gpu.out.subarray((b * s.T + t) * s.C, (b * s.T + t + 1) * s.C));
          for (let h = 0; h < s.H; h++) {
            const row = ((b * s.H + h) * s.T + t) * s.T;
            padP.push(...gpu.P.subarray(row, row + s.T));
          }
        }
      expectClose(`out of padding queries w=${width}`, padOut, new Float32Array(padOut.length), EXACT);
      expectClose(`P rows of padding queries w=${width}`, padP, new Float32Array(padP.length), EXACT);
    }
  });

  it("gives the same outputs for real tokens when the left padding widens", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(23);
    const C = 8;
    const H = 2;
    const real = 5;
    const tokens = rng.uniform(real * 3 * C); // the real tokens' q, k, v
    const run = async (pad: number, width: number) => {
      const T = pad + real;
      const qkv = rng.uniform(T * 3 * C, -5, 5); // padding positions hold unrelated values
      qkv.set(tokens, pad * 3 * C);
      const gpu = await runGpu(ctx, { B: 1, T, C, H }, qkv, leftPadMask(T, [pad]), width);
      return gpu.out.subarray(pad * C);
    };
    for (const width of [1, 16]) {
      const narrow = await run(1, width);
      expectClose(`pad 1 vs pad 4, w=${width}`, await run(4, width), narrow, TOL);
      expectClose(`pad 1 vs pad 0, w=${width}`, await run(0, width), narrow, TOL);
    }
  });

  it("is deterministic: the same inputs give bit-identical outputs", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(24);
    const s = { B: 3, T: 33, C: 32, H: 2 };
    const qkv = rng.uniform(s.B * s.T * 3 * s.C);
    const mask = leftPadMask(s.T, [5, 0, 12]);
    const a = await runGpu(ctx, s, qkv, mask, 32);
    const b = await runGpu(ctx, s, qkv, mask, 32);
    expectClose("out run-to-run", b.out, a.out, EXACT);
    expectClose("P run-to-run", b.P, a.P, EXACT);
  });

  it("rejects bad shapes and widths with RangeErrors", async () => {
    const ctx = await kernelGpu();
    const s = { B: 1, T: 2, C: 4, H: 2 };
    const out = ctx.tensor([1, 2, 4]);
    const P = ctx.tensor([1, 2, 2, 2]);
    const qkv = ctx.tensor([1, 2, 12]);
    expect(() => attentionForward(ctx, out, P, qkv, null, { ...s, H: 3 })).toThrow(/not divisible/);
    expect(() => attentionForward(ctx, out, P, ctx.tensor([5]), null, s)).toThrow(/qkv/);
    expect(() => attentionForward(ctx, out, P, qkv, ctx.tensor([3]), s)).toThrow(/mask/);
    expect(() => attentionForward(ctx, out, P, qkv, null, { ...s, width: 3 })).toThrow(/width/);
    expect(() => attentionForward(ctx, out, P, qkv, null, { ...s, T: 0 })).toThrow(/T must be/);
  });
});
