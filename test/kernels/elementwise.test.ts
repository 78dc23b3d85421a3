import { describe, it } from "vitest";
import { elementwise } from "../../src/kernels/elementwise";
import { BINARY_OPS, ELEMENTWISE_OPS, elementwiseRef } from "../../src/reference/elementwise";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** f32 vs float64 twin: one rounding per op (exp: a few ulps). */
const TOL = { atol: 1e-6, rtol: 1e-5 };
/** Sizes around the 256-wide workgroup, and one that needs a 2D grid (70 000 × 256 > 65535 groups). */
const SIZES = [1, 7, 255, 256, 257, 1000, 70_000 * 256 + 3];

describe("elementwise vs CPU twin", () => {
  for (const op of ELEMENTWISE_OPS)
    it(`${op} at sizes ${SIZES.slice(0, -1).join(", ")}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(7);
      for (const n of SIZES.slice(0, -1)) {
        const a = rng.uniform(n, -3, 3);
        const b = BINARY_OPS.has(op) ? rng.uniform(n, -3, 3) : null;
        const out = ctx.tensor([n], "f32", "out");
        elementwise(ctx, op, out, ctx.tensor([n], "f32", "a", a), b && ctx.tensor([n], "f32", "b", b), 0.75);
        expectClose(`${op}[${n}]`, await ctx.read(out), elementwiseRef(op, a, b, 0.75), TOL);
      }
    });

  it("covers more than 65535 workgroups (2D grid) and the tail of the last one", async () => {
    const ctx = await kernelGpu();
    const n = SIZES[SIZES.length - 1];
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = (i % 1009) - 504;
    const out = ctx.tensor([n], "f32", "out");
    elementwise(ctx, "scale", out, ctx.tensor([n], "f32", "a", a), null, 2);
    const got = await ctx.read(out);
    // Checked in full: every element, including the last group's 3-element tail, was written once.
    expectClose(`scale[${n}]`, got, elementwiseRef("scale", a, null, 2), TOL);
  });
});
