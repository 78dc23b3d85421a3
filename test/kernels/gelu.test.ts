import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { gelu, geluBackward } from "../../src/kernels/gelu";
import { geluBackwardRef, geluRef, geluScalar } from "../../src/reference/gelu";
import { Rng } from "../../src/util/rng";
import { FD_STEP, finiteDiffGrad, sameBits, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** f32 polynomial, tanh (a few ulps) and products vs float64; atol for outputs near 0 (x ≈ −5 cancels). */
const TOL = { atol: 1e-6, rtol: 1e-5 };
/** Twin gradient vs float64 central differences (h = 1e-6) of the twin forward. */
const FD_TOL = { atol: 1e-8, rtol: 1e-7 };
/** Sizes around the 256-wide workgroup, and [B, T, 4C]-like odd sizes. */
const SIZES = [1, 7, 255, 256, 257, 37 * 100];
/** Large and special values: tanh saturates; x³ reaches 1e12 (and ∞ beyond 7e12 in f32). */
const EXTREMES = [
  1e4, -1e4, 1e3, -1e3, 50, -50, 10, -10, 5, -5, 0, -0, 1e-8, -1e-8, 3e12, -3e12, 1e20, -1e20,
];

async function runGelu(ctx: GpuContext, x: Float32Array): Promise<Float32Array> {
  const out = ctx.tensor([x.length], "f32", "out");
  gelu(ctx, out, ctx.tensor([x.length], "f32", "x", x));
  return ctx.read(out);
}

async function runGeluBackward(
  ctx: GpuContext,
  x: Float32Array,
  dout: Float32Array,
  dx0: Float32Array | null,
): Promise<Float32Array> {
  const n = x.length;
  const dx = ctx.tensor([n], "f32", "dx", dx0 ?? undefined);
  geluBackward(ctx, dx, ctx.tensor([n], "f32", "dout", dout), ctx.tensor([n], "f32", "x", x), {
    accumulate: !!dx0,
  });
  return ctx.read(dx);
}

describe("gelu forward vs CPU twin", () => {
  it(`at sizes ${SIZES.join(", ")}`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(31);
    for (const n of SIZES) {
      const x = rng.uniform(n, -6, 6);
      expectClose(`gelu[${n}]`, await runGelu(ctx, x), geluRef(x), TOL);
    }
  });

  it("is finite and exact-to-tolerance for |x| up to 1e4 and beyond", async () => {
    const ctx = await kernelGpu();
    const x = Float32Array.from(EXTREMES);
    const got = await runGelu(ctx, x);
    expect(Array.from(got).every(Number.isFinite)).toBe(true);
    expectClose("gelu extremes", got, geluRef(x), TOL);
  });
});

describe("gelu backward", () => {
  it("twin gradient matches float64 finite differences of the twin forward", () => {
    const x = Float64Array.from([...new Rng(32).uniform(40, -6, 6), 0, 1e-3, -1e-3, 12, -12, 1e4, -1e4]);
    // gelu is elementwise: differentiate each element on its own, with a step relative to |x| so that FD
    // rounding (ε·|gelu(x)| / h) stays ~1e-10 at x = ±1e4 too.
    const fd = x.map(
      (xi) => finiteDiffGrad((v) => geluScalar(v[0]), [xi], FD_STEP * Math.max(1, Math.abs(xi)))[0],
    );
    expectClose(
      "twin gelu' vs FD",
      geluBackwardRef(new Float64Array(x.length).fill(1), x),
      fd,
      FD_TOL,
      TWIN_VS_FD,
    );
  });

  it(`GPU matches the twin (overwrite and accumulate) at sizes ${SIZES.join(", ")}`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(33);
    for (const n of SIZES)
      for (const accumulate of [false, true]) {
        const x = rng.uniform(n, -6, 6);
        const dout = rng.uniform(n);
        const dx0 = accumulate ? rng.uniform(n) : null;
        const got = await runGeluBackward(ctx, x, dout, dx0);
        expectClose(
          `gelu_backward[${n}] acc=${accumulate}`,
          got,
          geluBackwardRef(dout, x, dx0 ?? undefined),
          TOL,
        );
      }
  });

  it("is finite for |x| up to 1e4 and beyond", async () => {
    const ctx = await kernelGpu();
    const x = Float32Array.from(EXTREMES);
    const dout = Float32Array.from(EXTREMES, (_, i) => (i % 2 ? -1.5 : 2));
    const got = await runGeluBackward(ctx, x, dout, null);
    expect(Array.from(got).every(Number.isFinite)).toBe(true);
    expectClose("gelu_backward extremes", got, geluBackwardRef(dout, x), TOL);
  });

  it("forward and backward are bit-identical across runs", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(34);
    const x = rng.uniform(1000, -6, 6);
    const dout = rng.uniform(1000);
    expect(sameBits(await runGelu(ctx, x), await runGelu(ctx, x))).toBe(true);
    const a = await runGeluBackward(ctx, x, dout, null);
    expect(sameBits(a, await runGeluBackward(ctx, x, dout, null))).toBe(true);
  });

  it("rejects mismatched sizes", async () => {
    const ctx = await kernelGpu();
    expect(() => gelu(ctx, ctx.tensor([3]), ctx.tensor([4]))).toThrow(RangeError);
    expect(() => geluBackward(ctx, ctx.tensor([4]), ctx.tensor([3]), ctx.tensor([4]))).toThrow(RangeError);
  });
});
