import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { layernorm } from "../../src/kernels/layernorm";
import { layernormBackward } from "../../src/kernels/layernorm_backward";
import { layernormBackwardRef, layernormRef } from "../../src/reference/layernorm";
import { Rng } from "../../src/util/rng";
import { dot, finiteDiffGrad, sameBits, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** C-term f32 sums for mean/variance, then one product chain per element: ~1e-6 relative on O(1) values. */
const FWD_TOL = { atol: 1e-5, rtol: 1e-5 };
/** dx: two C-term row means and a few products, amplified by rstd (≈ 1.7 here). */
const DX_TOL = { atol: 2e-5, rtol: 1e-4 };
/** dweight/dbias: N-term f32 column sums of O(1) products (N ≤ 64 here). */
const PARAM_TOL = { atol: 1e-4, rtol: 1e-5 };
/** Twin gradient vs float64 central differences (h = 1e-6): agreement to ~1e-8 on these O(1) losses. */
const FD_TOL = { atol: 1e-7, rtol: 1e-6 };

/** [N, C, width?]: C = 1, N = 1, C not a multiple of the width, N = 37, C = 100; width 1 and wide widths. */
const SHAPES: [number, number, number?][] = [
  [1, 1],
  [3, 1, 1],
  [1, 100],
  [37, 100],
  [37, 100, 1],
  [5, 257, 64],
  [4, 300, 256],
  [64, 3],
];

interface Case {
  N: number;
  C: number;
  x: Float32Array;
  w: Float32Array;
  b: Float32Array;
}

function makeCase(rng: Rng, N: number, C: number): Case {
  // x has a non-zero mean and spread, so centring and scaling both matter.
  return { N, C, x: rng.uniform(N * C, -1, 3), w: rng.uniform(C, 0.5, 1.5), b: rng.uniform(C, -0.5, 0.5) };
}

async function runForward(ctx: GpuContext, k: Case, width?: number) {
  const out = ctx.tensor([k.N, k.C], "f32", "out");
  const mean = ctx.tensor([k.N], "f32", "mean");
  const rstd = ctx.tensor([k.N], "f32", "rstd");
  const x = ctx.tensor([k.N, k.C], "f32", "x", k.x);
  layernorm(ctx, out, mean, rstd, x, ctx.tensor([k.C], "f32", "w", k.w), ctx.tensor([k.C], "f32", "b", k.b), {
    width,
  });
  return { out: await ctx.read(out), mean: await ctx.read(mean), rstd: await ctx.read(rstd) };
}

interface Grads {
  dx: Float32Array;
  dw: Float32Array;
  db: Float32Array;
}

async function runBackward(
  ctx: GpuContext,
  k: Case,
  dout: Float32Array,
  saved: { mean: Float32Array; rstd: Float32Array },
  init: Grads,
  opts: { accumulate?: boolean; width?: number; lanes?: number },
): Promise<Grads> {
  const dx = ctx.tensor([k.N, k.C], "f32", "dx", init.dx);
  const dw = ctx.tensor([k.C], "f32", "dw", init.dw);
  const db = ctx.tensor([k.C], "f32", "db", init.db);
  layernormBackward(
    ctx,
    dx,
    dw,
    db,
    ctx.tensor([k.N, k.C], "f32", "dout", dout),
    ctx.tensor([k.N, k.C], "f32", "x", k.x),
    ctx.tensor([k.C], "f32", "w", k.w),
    ctx.tensor([k.N], "f32", "mean", saved.mean),
    ctx.tensor([k.N], "f32", "rstd", saved.rstd),
    opts,
  );
  return { dx: await ctx.read(dx), dw: await ctx.read(dw), db: await ctx.read(db) };
}

describe("layernorm forward vs CPU twin", () => {
  it(`at ${SHAPES.map(([n, c, w]) => `${n}×${c}${w ? ` w${w}` : ""}`).join(", ")}`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(21);
    for (const [N, C, width] of SHAPES) {
      const k = makeCase(rng, N, C);
      const got = await runForward(ctx, k, width);
      const ref = layernormRef(k.x, k.w, k.b, N, C);
      const tag = `[${N}×${C}] width ${width ?? "default"}`;
      expectClose(`layernorm out ${tag}`, got.out, ref.out, FWD_TOL);
      expectClose(`layernorm mean ${tag}`, got.mean, ref.mean, FWD_TOL);
      expectClose(`layernorm rstd ${tag}`, got.rstd, ref.rstd, FWD_TOL);
    }
  });

  it("is bit-identical across runs", async () => {
    const ctx = await kernelGpu();
    const k = makeCase(new Rng(22), 9, 130);
    for (const width of [1, 64]) {
      const a = await runForward(ctx, k, width);
      const b = await runForward(ctx, k, width);
      expect(sameBits(a.out, b.out) && sameBits(a.mean, b.mean) && sameBits(a.rstd, b.rstd)).toBe(true);
    }
  });

  it("rejects mismatched shapes and bad options", async () => {
    const ctx = await kernelGpu();
    const t = (n: number) => ctx.tensor([n]);
    const x = ctx.tensor([2, 3]);
    expect(() => layernorm(ctx, t(6), t(2), t(2), x, t(4), t(3))).toThrow(RangeError);
    expect(() => layernorm(ctx, t(6), t(3), t(2), x, t(3), t(3))).toThrow(/mean/);
    expect(() => layernorm(ctx, t(6), t(2), t(2), x, t(3), t(3), { width: 3 })).toThrow(/power of two/);
    expect(() => layernorm(ctx, t(6), t(2), t(2), x, t(3), t(3), { eps: 0 })).toThrow(/eps/);
    expect(() => layernorm(ctx, t(0), t(0), t(0), ctx.tensor([2, 0]), t(0), t(0))).toThrow(/C ≥ 1/);
  });
});

describe("layernorm backward", () => {
  it("twin gradients match float64 finite differences of the twin forward", () => {
    const rng = new Rng(23);
    for (const [N, C] of [
      [3, 5],
      [2, 1],
      [1, 8],
    ]) {
      const k = makeCase(rng, N, C);
      const g = rng.uniform(N * C);
      const loss = (x: ArrayLike<number>, w: ArrayLike<number>, b: ArrayLike<number>) =>
        dot(layernormRef(x, w, b, N, C).out, g);
      const f = layernormRef(k.x, k.w, k.b, N, C);
      const grads = layernormBackwardRef(g, k.x, k.w, f.mean, f.rstd, N, C);
      const tag = `[${N}×${C}]`;
      expectClose(
        `twin dx vs FD ${tag}`,
        grads.dx,
        finiteDiffGrad((x) => loss(x, k.w, k.b), k.x),
        FD_TOL,
        TWIN_VS_FD,
      );
      expectClose(
        `twin dw vs FD ${tag}`,
        grads.dweight,
        finiteDiffGrad((w) => loss(k.x, w, k.b), k.w),
        FD_TOL,
        TWIN_VS_FD,
      );
      expectClose(
        `twin db vs FD ${tag}`,
        grads.dbias,
        finiteDiffGrad((b) => loss(k.x, k.w, b), k.b),
        FD_TOL,
        TWIN_VS_FD,
      );
    }
  });

  it("GPU matches the twin (dx overwrite and accumulate; dweight, dbias accumulate)", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(24);
    for (const [N, C, width] of SHAPES) {
      for (const accumulate of [false, true]) {
        const k = makeCase(rng, N, C);
        const dout = rng.uniform(N * C);
        const f = layernormRef(k.x, k.w, k.b, N, C);
        const saved = { mean: Float32Array.from(f.mean), rstd: Float32Array.from(f.rstd) };
        const init = { dx: rng.uniform(N * C), dw: rng.uniform(C), db: rng.uniform(C) };
        // Lanes: one wide, one narrow, one default, spread over the shapes.
        const lanes = width === 1 ? 1 : width ? 256 : undefined;
        const got = await runBackward(ctx, k, dout, saved, init, { accumulate, width, lanes });
        const ref = layernormBackwardRef(dout, k.x, k.w, saved.mean, saved.rstd, N, C);
        const refDx = accumulate ? ref.dx.map((v, i) => v + init.dx[i]) : ref.dx;
        const tag = `[${N}×${C}] width ${width ?? "default"} lanes ${lanes ?? "default"} acc=${accumulate}`;
        expectClose(`layernorm dx ${tag}`, got.dx, refDx, DX_TOL);
        expectClose(
          `layernorm dw ${tag}`,
          got.dw,
          ref.dweight.map((v, i) => v + init.dw[i]),
          PARAM_TOL,
        );
        expectClose(
          `layernorm db ${tag}`,
          got.db,
          ref.dbias.map((v, i) => v + init.db[i]),
          PARAM_TOL,
        );
      }
    }
  });

  it("is bit-identical across runs", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(25);
    const k = makeCase(rng, 40, 70);
    const dout = rng.uniform(40 * 70);
    const f = layernormRef(k.x, k.w, k.b, 40, 70);
    const saved = { mean: Float32Array.from(f.mean), rstd: Float32Array.from(f.rstd) };
    const init = { dx: new Float32Array(40 * 70), dw: new Float32Array(70), db: new Float32Array(70) };
    for (const [width, lanes] of [
      [1, 1],
      [64, 16],
    ]) {
      const a = await runBackward(ctx, k, dout, saved, init, { width, lanes });
      const b = await runBackward(ctx, k, dout, saved, init, { width, lanes });
      expect(sameBits(a.dx, b.dx) && sameBits(a.dw, b.dw) && sameBits(a.db, b.db)).toBe(true);
    }
  });

  it("rejects mismatched shapes", async () => {
    const ctx = await kernelGpu();
    const t = (n: number) => ctx.tensor([n]);
    const x = ctx.tensor([2, 3]);
    expect(() => layernormBackward(ctx, t(6), t(3), t(3), t(5), x, t(3), t(2), t(2))).toThrow(/dout/);
    expect(() => layernormBackward(ctx, t(6), t(2), t(3), t(6), x, t(3), t(2), t(2))).toThrow(/dweight/);
    expect(() => layernormBackward(ctx, t(6), t(3), t(3), t(6), x, t(3), t(2), t(2), { lanes: 512 })).toThrow(
      /lanes/,
    );
  });
});
