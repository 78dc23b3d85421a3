import { describe, expect, it } from "vitest";
import { kvAppend, kvFill } from "../../src/kernels/kv_append";
import { type KvShape, kvWriteRef } from "../../src/reference/kv_append";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** A copy: bit-exact. */
const EXACT = { atol: 0, rtol: 0 };

/** [B, H, hs, Tmax, prompt T]: element counts that do not divide the 256-wide workgroup, T = Tmax, T = 1. */
const SHAPES: [number, number, number, number, number][] = [
  [1, 1, 1, 1, 1],
  [3, 2, 5, 11, 7],
  [2, 3, 16, 24, 24],
  [5, 4, 9, 13, 1],
];

describe("kv_append vs CPU twin", () => {
  it(`kvFill then kvAppend at ${SHAPES.length} shapes, leaving every other slot untouched`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(4);
    for (const [B, H, hs, Tmax, T] of SHAPES) {
      const s: KvShape = { B, H, hs, Tmax };
      const C = H * hs;
      const n = B * H * Tmax * hs;
      const k0 = rng.uniform(n, 50, 60); // sentinels: the copy must not touch them
      const v0 = rng.uniform(n, -60, -50);
      const kc = ctx.tensor([B, H, Tmax, hs], "f32", "kcache", k0);
      const vc = ctx.tensor([B, H, Tmax, hs], "f32", "vcache", v0);
      const kRef = Float32Array.from(k0);
      const vRef = Float32Array.from(v0);
      const prompt = rng.uniform(B * T * 3 * C);
      kvFill(ctx, kc, vc, ctx.tensor([B, T, 3 * C], "f32", "qkv", prompt));
      kvWriteRef(kRef, vRef, prompt, s, T, 0);
      const label = `B=${B} H=${H} hs=${hs} Tmax=${Tmax}`;
      expectClose(`kvFill k ${label} T=${T}`, await ctx.read(kc), kRef, EXACT);
      expectClose(`kvFill v ${label} T=${T}`, await ctx.read(vc), vRef, EXACT);
      for (const L of [T + 1, Tmax].filter((l, i, a) => l <= Tmax && a.indexOf(l) === i)) {
        const row = rng.uniform(B * 3 * C);
        kvAppend(ctx, kc, vc, ctx.tensor([B, 3 * C], "f32", "qkv row", row), L);
        kvWriteRef(kRef, vRef, row, s, 1, L - 1);
        expectClose(`kvAppend k ${label} L=${L}`, await ctx.read(kc), kRef, EXACT);
        expectClose(`kvAppend v ${label} L=${L}`, await ctx.read(vc), vRef, EXACT);
      }
    }
  });

  it("rejects caches that differ, wrong qkv sizes and positions outside the cache", async () => {
    const ctx = await kernelGpu();
    const kc = ctx.tensor([2, 2, 4, 3], "f32", "k");
    const vc = ctx.tensor([2, 2, 4, 3], "f32", "v");
    expect(() => kvFill(ctx, kc, ctx.tensor([2, 2, 5, 3]), ctx.tensor([2, 1, 18]))).toThrow(/vcache/);
    expect(() => kvFill(ctx, kc, vc, ctx.tensor([2, 5, 18]))).toThrow(/do not fit/);
    expect(() => kvFill(ctx, kc, vc, ctx.tensor([2, 1, 17]))).toThrow(/qkv/);
    expect(() => kvAppend(ctx, kc, vc, ctx.tensor([2, 18]), 5)).toThrow(/do not fit/);
    expect(() => kvAppend(ctx, kc, vc, ctx.tensor([2, 18]), 0)).toThrow(/L must be/);
    expect(() => kvAppend(ctx, kc, vc, ctx.tensor([2, 12]), 1)).toThrow(/qkv/);
  });
});
