import { describe, expect, it } from "vitest";
import { fill, fillKernel } from "../../src/kernels/fill";
import { fillRef } from "../../src/reference/fill";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** A fill is a store of one bit pattern: exact. */
const EXACT = { atol: 0, rtol: 0 };

describe("fill vs CPU twin", () => {
  it("fills f32 tensors of sizes around the 256-wide workgroup", async () => {
    const ctx = await kernelGpu();
    for (const [n, value] of [
      [1, -2.5],
      [255, 0],
      [256, 1e-3],
      [257, 7],
      [1000, -0],
    ]) {
      const t = ctx.tensor([n], "f32", "t", new Float32Array(n).fill(Number.NaN));
      fill(ctx, t, value);
      expectClose(`fill[${n}] = ${value}`, await ctx.read(t), fillRef(n, Math.fround(value)), EXACT);
    }
  });

  it("writes only the view's elements", async () => {
    const ctx = await kernelGpu();
    const whole = ctx.tensor([300], "f32", "whole", new Float32Array(300).fill(9));
    fill(ctx, whole.view([100], 64), 0); // 64 elements = 256 bytes, the storage offset alignment
    const ref = fillRef(300, 9);
    ref.fill(0, 64, 164);
    expectClose("fill view [64, 164) of 300", await ctx.read(whole), ref, EXACT);
  });

  it("fills i32 and u32 tensors with the integer's bit pattern", async () => {
    const ctx = await kernelGpu();
    const i = ctx.tensor([5], "i32", "i");
    const u = ctx.tensor([5], "u32", "u");
    fill(ctx, i, -7);
    fill(ctx, u, 0xfffffffe);
    expect([...(await ctx.read(i))]).toEqual([-7, -7, -7, -7, -7]);
    expect([...(await ctx.read(u))]).toEqual(new Array(5).fill(0xfffffffe));
    expect(() => fill(ctx, i, 1.5)).toThrow(RangeError);
    expect(() => fill(ctx, u, -1)).toThrow(RangeError);
    fill(ctx, ctx.tensor([0], "f32", "empty"), 1); // nothing to do, no error
  });

  it("covers more than 65535 workgroups (2D grid) and the tail of the last one", async () => {
    const ctx = await kernelGpu();
    const n = 65_535 * fillKernel.invocations + 1000;
    const t = ctx.tensor([n], "f32", "big");
    fill(ctx, t, 3.5);
    expectClose(`fill[${n}] = 3.5`, await ctx.read(t), fillRef(n, 3.5), EXACT);
  });
});
