import { describe, expect, it } from "vitest";
import { MATMUL_VARIANTS, matmul } from "../../src/kernels/matmul";
import { type MatmulShape, matmulRef } from "../../src/reference/matmul";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** K-term f32 dot products vs float64: ~K·ε·Σ|a·b| (inputs in [−1, 1), K ≤ 100 here). */
const TOL = { atol: 1e-4, rtol: 1e-4 };

/** Shapes below, at and above the 16×16 tile, odd sizes, vectors and batches. */
const SHAPES: MatmulShape[] = [
  { batch: 1, M: 1, N: 1, K: 1 },
  { batch: 1, M: 16, N: 16, K: 16 },
  { batch: 1, M: 33, N: 17, K: 45 },
  { batch: 3, M: 7, N: 29, K: 100 },
  { batch: 1, M: 1, N: 65, K: 31 },
  { batch: 2, M: 40, N: 1, K: 3 },
];

describe.each(MATMUL_VARIANTS)("matmul (%s) vs CPU twin", (variant) => {
  for (const transA of [false, true])
    for (const transB of [false, true])
      it(`op(A)·op(B) with transA=${transA} transB=${transB} at ${SHAPES.length} shapes`, async () => {
        const ctx = await kernelGpu();
        const rng = new Rng(3);
        for (const s0 of SHAPES) {
          const s = { ...s0, transA, transB, variant };
          const a = rng.uniform(s.batch * s.M * s.K);
          const b = rng.uniform(s.batch * s.K * s.N);
          const c = ctx.tensor([s.batch, s.M, s.N], "f32", "C");
          matmul(ctx, c, ctx.tensor([a.length], "f32", "A", a), ctx.tensor([b.length], "f32", "B", b), s);
          const label = `matmul[${variant}] b=${s.batch} M=${s.M} N=${s.N} K=${s.K} tA=${transA} tB=${transB}`;
          expectClose(label, await ctx.read(c), matmulRef(a, b, s), TOL);
        }
      });

  it("adds a bias to every row (a linear layer: x·Wᵀ + b)", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(9);
    const s = { batch: 1, M: 19, N: 23, K: 10, transB: true, variant };
    const x = rng.uniform(19 * 10);
    const w = rng.uniform(23 * 10);
    const bias = rng.uniform(23);
    const y = ctx.tensor([19, 23], "f32", "y");
    matmul(ctx, y, ctx.tensor([x.length], "f32", "x", x), ctx.tensor([w.length], "f32", "W", w), {
      ...s,
      bias: ctx.tensor([23], "f32", "b", bias),
    });
    expectClose("linear x·Wᵀ+b", await ctx.read(y), matmulRef(x, w, s, null, bias), TOL);
  });

  it("accumulates into C and broadcasts B over the batch", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(5);
    const s = { batch: 4, M: 9, N: 11, K: 13, variant };
    const a = rng.uniform(4 * 9 * 13);
    const b = rng.uniform(13 * 11);
    const c0 = rng.uniform(4 * 9 * 11);
    const c = ctx.tensor([4, 9, 11], "f32", "C", c0);
    matmul(ctx, c, ctx.tensor([a.length], "f32", "A", a), ctx.tensor([b.length], "f32", "B", b), {
      ...s,
      accumulate: true,
      broadcastB: true,
    });
    const bb = new Float32Array(4 * b.length);
    for (let z = 0; z < 4; z++) bb.set(b, z * b.length);
    expectClose("matmul accumulate+broadcast", await ctx.read(c), matmulRef(a, bb, s, c0), TOL);
  });

  it("rejects tensors that do not fit the shape", async () => {
    const ctx = await kernelGpu();
    const t = ctx.tensor([6]);
    expect(() => matmul(ctx, t, t, ctx.tensor([5]), { batch: 1, M: 2, N: 3, K: 3 })).toThrow(/matmul/);
  });
});
