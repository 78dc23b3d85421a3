import { describe, expect, it } from "vitest";
import { decodeAttention } from "../../src/kernels/decode_attention";
import { kvAppend, kvFill } from "../../src/kernels/kv_append";
import { poisonCaches } from "../../src/kernels/selftest_case";
import { causalAttentionRef, decodeAttentionRef } from "../../src/reference/decode_attention";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** hs-term f32 dot products (|q·k|/√hs ≲ 10), an f32 exp/sum over ≤ 70 keys and a weighted sum vs float64. */
const TOL = { atol: 1e-5, rtol: 1e-5 };

/** [B, H, hs, Tmax, L, width]: odd head sizes and lengths, L < Tmax and L = Tmax, width 1 and wide. */
const SHAPES: [number, number, number, number, number, number][] = [
  [1, 1, 1, 1, 1, 1],
  [3, 2, 8, 16, 11, 1],
  [5, 3, 7, 40, 37, 64],
  [2, 4, 16, 33, 33, 256],
  [4, 1, 33, 70, 50, 8],
];

/** Left padding: row b has pad[b] padding positions first (at most L − 1, so the newest token is real). */
function leftPadMask(rng: Rng, B: number, Tmax: number, L: number): { mask: Float32Array; pad: number[] } {
  const pad = Array.from({ length: B }, (_, b) => (b === 0 ? 0 : rng.int(0, L - 1)));
  const mask = new Float32Array(B * Tmax).fill(1); // positions ≥ L say "real": they must still be ignored
  for (let b = 0; b < B; b++) for (let t = 0; t < pad[b]; t++) mask[b * Tmax + t] = 0;
  return { mask, pad };
}

describe("decode_attention vs CPU twin", () => {
  it(`matches the twin at ${SHAPES.length} shapes with left padding`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(17);
    for (const [B, H, hs, Tmax, L, width] of SHAPES) {
      const C = H * hs;
      const q = rng.uniform(B * C, -3, 3);
      const kc = rng.uniform(B * H * Tmax * hs);
      const vc = rng.uniform(B * H * Tmax * hs);
      const { mask, pad } = leftPadMask(rng, B, Tmax, L);
      // Junk where nothing may be read: beyond L, and hidden (padding) slots hold NaN.
      poisonCaches([kc, vc], { B, H, Tmax, hs }, L, pad);
      const out = ctx.tensor([B, C], "f32", "out");
      const cache = (data: Float32Array, label: string) => ctx.tensor([B, H, Tmax, hs], "f32", label, data);
      decodeAttention(
        ctx,
        out,
        ctx.tensor([B, C], "f32", "q", q),
        cache(kc, "k"),
        cache(vc, "v"),
        ctx.tensor([B, Tmax], "f32", "mask", mask),
        L,
        { width },
      );
      const ref = decodeAttentionRef(q, kc, vc, mask, { B, H, hs, Tmax, L });
      expectClose(
        `decode B=${B} H=${H} hs=${hs} Tmax=${Tmax} L=${L} w=${width}`,
        await ctx.read(out),
        ref,
        TOL,
      );
    }
  });

  it("gives zeros for a row with no visible key (and for L = 0)", async () => {
    const ctx = await kernelGpu();
    const [B, H, hs, Tmax] = [2, 2, 3, 5];
    const rng = new Rng(2);
    const mask = Float32Array.from([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    const args = [
      ctx.tensor([B, H * hs], "f32", "q", rng.uniform(B * H * hs)),
      ctx.tensor([B, H, Tmax, hs], "f32", "k", rng.uniform(B * H * Tmax * hs)),
      ctx.tensor([B, H, Tmax, hs], "f32", "v", rng.uniform(B * H * Tmax * hs)),
      ctx.tensor([B, Tmax], "f32", "mask", mask),
    ] as const;
    for (const [L, width] of [
      [4, 1],
      [4, 4],
      [0, 2],
    ]) {
      const out = ctx.tensor([B, H * hs], "f32", "out", new Float32Array(B * H * hs).fill(7));
      decodeAttention(ctx, out, ...args, L, { width });
      const got = await ctx.read(out);
      expectClose(`masked row L=${L} w=${width}`, got.subarray(0, H * hs), new Float32Array(H * hs), TOL);
      if (L === 0) expectClose("L=0", got, new Float32Array(B * H * hs), TOL);
    }
  });

  it("kvFill + kvAppend + decodeAttention equal the last row of full causal attention, step by step", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(8);
    // [B, H, hs, Tmax, prompt length P, decode steps, width]
    const cases: [number, number, number, number, number, number, number][] = [
      [3, 2, 4, 12, 5, 4, 1],
      [2, 3, 5, 20, 9, 3, 64],
      [4, 1, 16, 9, 1, 8, 4],
    ];
    for (const [B, H, hs, Tmax, P, steps, width] of cases) {
      const C = H * hs;
      const T = P + steps; // the whole sequence: prompt, then one generated token per step
      const qkv = rng.uniform(B * T * 3 * C, -2, 2);
      const pad = Array.from({ length: B }, (_, b) => (b === 0 ? 0 : rng.int(0, P - 1)));
      const fullMask = new Float32Array(B * T).fill(1);
      const cacheMask = new Float32Array(B * Tmax).fill(1);
      for (let b = 0; b < B; b++)
        for (let t = 0; t < pad[b]; t++) fullMask[b * T + t] = cacheMask[b * Tmax + t] = 0;
      const full = causalAttentionRef(qkv, fullMask, B, T, H, hs);
      const row = (t0: number, n: number) => {
        const x = new Float32Array(B * n * 3 * C);
        for (let b = 0; b < B; b++)
          x.set(qkv.subarray((b * T + t0) * 3 * C, (b * T + t0 + n) * 3 * C), b * n * 3 * C);
        return x;
      };
      const kc = ctx.tensor([B, H, Tmax, hs], "f32", "kcache");
      const vc = ctx.tensor([B, H, Tmax, hs], "f32", "vcache");
      const mask = ctx.tensor([B, Tmax], "f32", "mask", cacheMask);
      kvFill(ctx, kc, vc, ctx.tensor([B, P, 3 * C], "f32", "prompt qkv", row(0, P)));
      for (let L = P + 1; L <= T; L++) {
        const qkvRow = ctx.tensor([B, 3 * C], "f32", "qkv row", row(L - 1, 1));
        const out = ctx.tensor([B, C], "f32", "out");
        kvAppend(ctx, kc, vc, qkvRow, L);
        decodeAttention(ctx, out, qkvRow, kc, vc, mask, L, { width }); // q read straight from the qkv row
        const want = new Float64Array(B * C);
        for (let b = 0; b < B; b++) want.set(full.subarray((b * T + L - 1) * C, (b * T + L) * C), b * C);
        expectClose(
          `decode vs full causal B=${B} H=${H} hs=${hs} L=${L} w=${width}`,
          await ctx.read(out),
          want,
          TOL,
        );
      }
    }
  });

  it("rejects bad shapes and lengths", async () => {
    const ctx = await kernelGpu();
    const kc = ctx.tensor([2, 2, 6, 4], "f32", "k");
    const mask = ctx.tensor([2, 6], "f32", "mask");
    const q = ctx.tensor([2, 8], "f32", "q");
    const out = ctx.tensor([2, 8], "f32", "out");
    expect(() => decodeAttention(ctx, out, q, kc, kc, mask, 7)).toThrow(/L=7/);
    expect(() => decodeAttention(ctx, out, ctx.tensor([2, 9]), kc, kc, mask, 3)).toThrow(/q/);
    expect(() => decodeAttention(ctx, out, q, kc, ctx.tensor([2, 2, 5, 4]), mask, 3)).toThrow(/vcache/);
    expect(() => decodeAttention(ctx, out, q, kc, kc, ctx.tensor([2, 5]), 3)).toThrow(/mask/);
    expect(() => decodeAttention(ctx, out, q, kc, kc, mask, 3, { width: 5 })).toThrow(/width/);
    const huge = ctx.tensor([1, 1, 1 << 16, 1], "f32", "huge");
    expect(() =>
      decodeAttention(ctx, ctx.tensor([1, 1]), ctx.tensor([1, 1]), huge, huge, ctx.tensor([1, 1 << 16]), 1),
    ).toThrow(/workgroup memory/);
  });
});
