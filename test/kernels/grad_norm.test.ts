import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { GRAD_NORM_CHUNK, gradNorm, gradNormPartials } from "../../src/kernels/grad_norm";
import { gradNormRef } from "../../src/reference/grad_norm";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** f32 sums of ≤ 4096 squares per thread, then trees, vs float64: ~√n·ε relative, halved by the square root. */
const TOL = { atol: 1e-7, rtol: 1e-5 };
const EXACT = { atol: 0, rtol: 0 };

/** Sizes from the brief plus chunk edges; none but the edges divide the workgroup or the chunk. */
const SIZES = [1, 1000, GRAD_NORM_CHUNK, GRAD_NORM_CHUNK + 1, 300_001];

async function gpuNorm(ctx: GpuContext, g: Float32Array, width: number): Promise<number> {
  const norm = ctx.tensor([1], "f32", "norm", [Number.NaN]);
  const partials = ctx.tensor([gradNormPartials(g.length)], "f32", "partials");
  gradNorm(ctx, norm, partials, ctx.tensor([g.length], "f32", "grads", g), { width });
  return (await ctx.read(norm))[0];
}

describe("grad_norm vs CPU twin", () => {
  for (const width of [1, 256])
    it(`matches the twin at sizes ${SIZES.join(", ")}, width ${width}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(41);
      for (const n of SIZES) {
        const g = rng.uniform(n, -2, 2);
        g[n - 1] = 30; // one large gradient, as after a loss spike
        expectClose(`norm[${n}] w=${width}`, [await gpuNorm(ctx, g, width)], [gradNormRef(g)], TOL);
      }
    });

  it("gives 0 for an empty buffer and is bit-identical run to run", async () => {
    const ctx = await kernelGpu();
    expectClose("norm[0]", [await gpuNorm(ctx, new Float32Array(0), 4)], [0], EXACT);
    const g = new Rng(42).uniform(300_001);
    const a = await gpuNorm(ctx, g, 64);
    expectClose("norm[300001] run-to-run", [await gpuNorm(ctx, g, 64)], [a], EXACT);
  });

  it("rejects a scratch buffer that is too small and bad widths", async () => {
    const ctx = await kernelGpu();
    const grads = ctx.tensor([GRAD_NORM_CHUNK + 1]);
    const norm = ctx.tensor([1]);
    expect(() => gradNorm(ctx, norm, ctx.tensor([1]), grads)).toThrow(/partials/);
    expect(() => gradNorm(ctx, norm, ctx.tensor([2]), grads, { width: 100 })).toThrow(/width/);
  });
});
