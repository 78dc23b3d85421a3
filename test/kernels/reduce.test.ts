import { describe, expect, it } from "vitest";
import { reduceRows, reduceWidth } from "../../src/kernels/reduce";
import { reduceRowsRef } from "../../src/reference/reduce";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** f32 tree sum vs float64 sequential sum: ~√C·ε relative to Σ|x| (inputs in [−1, 1), so atol dominates). */
const TOL = { atol: 1e-4, rtol: 1e-5 };

/** [rows, cols]: a row shorter than, equal to and longer than the 256-wide workgroup, and odd sizes. */
const SHAPES: [number, number][] = [
  [1, 1],
  [3, 300],
  [5, 256],
  [17, 1000],
  [2, 5],
  [64, 31],
];

describe("reduce_rows vs CPU twin", () => {
  for (const op of ["sum", "max"] as const)
    it(`${op} at ${SHAPES.map((s) => s.join("×")).join(", ")}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(11);
      for (const [rows, cols] of SHAPES) {
        const x = rng.uniform(rows * cols);
        const out = ctx.tensor([rows], "f32", "out");
        reduceRows(ctx, op, out, ctx.tensor([rows, cols], "f32", "x", x));
        expectClose(`${op}[${rows}×${cols}]`, await ctx.read(out), reduceRowsRef(op, x, rows, cols), TOL);
      }
    });

  it("reduces 300 elements with a 256-wide workgroup", async () => {
    expect(reduceWidth(300)).toBe(256);
    const ctx = await kernelGpu();
    const x = Float32Array.from({ length: 300 }, (_, i) => i + 1); // 1 + 2 + … + 300 = 45150, exact in f32
    const sum = ctx.tensor([1], "f32", "sum");
    const max = ctx.tensor([1], "f32", "max");
    const tx = ctx.tensor([1, 300], "f32", "x", x);
    reduceRows(ctx, "sum", sum, tx);
    reduceRows(ctx, "max", max, tx);
    expectClose("sum[300]", await ctx.read(sum), [45150], { atol: 0, rtol: 0 });
    expectClose("max[300]", await ctx.read(max), [300], { atol: 0, rtol: 0 });
  });

  it("dispatches 70 000 rows (one workgroup per row: a 2D grid)", async () => {
    expect(reduceWidth(3)).toBe(4);
    const ctx = await kernelGpu();
    const rows = 70_000;
    const cols = 3;
    const x = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) x[r * cols + c] = ((r * 7 + c * 13) % 101) / 10 - 5;
    for (const op of ["sum", "max"] as const) {
      const out = ctx.tensor([rows], "f32", "out");
      reduceRows(ctx, op, out, ctx.tensor([rows, cols], "f32", "x", x));
      expectClose(`${op}[70000×3]`, await ctx.read(out), reduceRowsRef(op, x, rows, cols), TOL);
    }
  });

  it("gives 0 (sum) and −∞ (max) for empty rows", async () => {
    const ctx = await kernelGpu();
    const x = ctx.tensor([4, 0], "f32", "x");
    const out = ctx.tensor([4], "f32", "out");
    reduceRows(ctx, "sum", out, x);
    expectClose("sum[4×0]", await ctx.read(out), [0, 0, 0, 0], { atol: 0, rtol: 0 });
    reduceRows(ctx, "max", out, x);
    expectClose("max[4×0]", await ctx.read(out), new Array(4).fill(Number.NEGATIVE_INFINITY), {
      atol: 0,
      rtol: 0,
    });
  });
});
