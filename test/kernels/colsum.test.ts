import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { colsum } from "../../src/kernels/colsum";
import { colsumRef } from "../../src/reference/colsum";
import { Rng } from "../../src/util/rng";
import { dot, finiteDiffGrad, sameBits, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** N-term f32 column sums of values in [−1, 1) vs float64 (N ≤ 300 here): ~N·ε absolute. */
const TOL = { atol: 1e-4, rtol: 1e-5 };
/** Twin gradient vs float64 central differences (h = 1e-6): the loss is linear in the bias. */
const FD_TOL = { atol: 1e-8, rtol: 1e-7 };

/** [N, C, lanes?]: C = 1, N = 1, N = 37, C = 100, C not a multiple of the column block; 1 and 256 lanes. */
const SHAPES: [number, number, number?][] = [
  [1, 1],
  [37, 100],
  [37, 100, 1],
  [300, 3, 256],
  [5, 257, 16],
  [1, 65, 1],
  [64, 1, 8],
];

async function run(
  ctx: GpuContext,
  dout: Float32Array,
  N: number,
  C: number,
  db0: Float32Array,
  lanes?: number,
) {
  const db = ctx.tensor([C], "f32", "dbias", db0);
  colsum(ctx, db, ctx.tensor([N, C], "f32", "dout", dout), { lanes });
  return ctx.read(db);
}

describe("colsum (bias gradient)", () => {
  it("twin matches float64 finite differences of y = x + b (b broadcast over rows)", () => {
    const rng = new Rng(41);
    const [N, C] = [4, 3];
    const y = rng.uniform(N * C);
    const g = rng.uniform(N * C);
    const loss = (b: ArrayLike<number>) =>
      dot(
        Float64Array.from(y, (v, i) => v + b[i % C]),
        g,
      );
    expectClose(
      "twin colsum vs FD",
      colsumRef(g, N, C),
      finiteDiffGrad(loss, rng.uniform(C)),
      FD_TOL,
      TWIN_VS_FD,
    );
  });

  it(`GPU accumulates the twin's sums at ${SHAPES.map(([n, c, l]) => `${n}×${c}${l ? ` l${l}` : ""}`).join(", ")}`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(42);
    for (const [N, C, lanes] of SHAPES) {
      const dout = rng.uniform(N * C);
      const db0 = rng.uniform(C);
      const got = await run(ctx, dout, N, C, db0, lanes);
      expectClose(`colsum [${N}×${C}] lanes ${lanes ?? "default"}`, got, colsumRef(dout, N, C, db0), TOL);
    }
  });

  it("is bit-identical across runs", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(43);
    const dout = rng.uniform(70 * 33);
    const db0 = new Float32Array(33);
    for (const lanes of [1, 16, 256]) {
      const a = await run(ctx, dout, 70, 33, db0, lanes);
      expect(sameBits(a, await run(ctx, dout, 70, 33, db0, lanes))).toBe(true);
    }
  });

  it("rejects mismatched shapes and bad lanes", async () => {
    const ctx = await kernelGpu();
    expect(() => colsum(ctx, ctx.tensor([4]), ctx.tensor([2, 3]))).toThrow(/dbias/);
    expect(() => colsum(ctx, ctx.tensor([3]), ctx.tensor([2, 3]), { lanes: 6 })).toThrow(/power of two/);
  });
});
