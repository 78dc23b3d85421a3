import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import type { Tensor } from "../../src/gpu/tensor";
import { ADAMW_DEFAULTS, type AdamWOptions, adamw, resolveAdamW } from "../../src/kernels/adamw";
import { gradNorm, gradNormPartials } from "../../src/kernels/grad_norm";
import { adamwRef } from "../../src/reference/adamw";
import { gradNormRef } from "../../src/reference/grad_norm";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** A few f32 steps vs float64: each step rounds m, v, √v̂ and θ once (~1e-7 relative), f32 hyperparameters. */
const TOL = { atol: 1e-6, rtol: 1e-5 };
const EXACT = { atol: 0, rtol: 0 };

/** Sizes below, at and above the 256-wide workgroup. */
const SIZES = [1, 257, 1000];

interface Setup {
  ctx: GpuContext;
  n: number;
  params: Tensor;
  m: Tensor;
  v: Tensor;
  decay: Tensor;
  decayMask: Float32Array;
  ref: { params: Float64Array; m: Float64Array; v: Float64Array };
}

function setup(ctx: GpuContext, rng: Rng, n: number, decayMask?: Float32Array): Setup {
  const p0 = rng.uniform(n);
  const mask = decayMask ?? Float32Array.from({ length: n }, () => (rng.float() < 0.5 ? 1 : 0));
  return {
    ctx,
    n,
    params: ctx.tensor([n], "f32", "params", p0),
    // The moments accumulate: zeros, as the optimizer's fresh buffers (kernelGpu fills the others with NaN).
    m: ctx.tensor([n], "f32", "m", new Float32Array(n)),
    v: ctx.tensor([n], "f32", "v", new Float32Array(n)),
    decay: ctx.tensor([n], "f32", "decay", mask),
    decayMask: mask,
    ref: { params: Float64Array.from(p0), m: new Float64Array(n), v: new Float64Array(n) },
  };
}

/** One step on the GPU (with `norm` uploaded) and on the twin (with the twin's norm of the same grads). */
function step(s: Setup, g: Float32Array, o: AdamWOptions, normValue = gradNormRef(g)): void {
  const norm = s.ctx.tensor([1], "f32", "norm", [normValue]);
  adamw(s.ctx, s.params, s.m, s.v, s.ctx.tensor([s.n], "f32", "grads", g), s.decay, norm, o);
  adamwRef(s.ref, g, s.decayMask, Math.fround(normValue), resolveAdamW(o));
}

async function expectState(s: Setup, label: string, tol = TOL): Promise<void> {
  expectClose(`params ${label}`, await s.ctx.read(s.params), s.ref.params, tol);
  expectClose(`m ${label}`, await s.ctx.read(s.m), s.ref.m, tol);
  expectClose(`v ${label}`, await s.ctx.read(s.v), s.ref.v, tol);
}

describe("adamw vs CPU twin", () => {
  it(`matches the twin over 5 steps with clipping and a decay mask at sizes ${SIZES.join(", ")}`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(51);
    for (const n of SIZES) {
      const s = setup(ctx, rng, n);
      for (let t = 1; t <= 5; t++) {
        const g = rng.uniform(n, -2, 2); // norm ≈ 1.15·√n: clipped at maxGradNorm 1 except for tiny n
        step(s, g, { lr: 1e-2, step: t });
      }
      await expectState(s, `[${n}] after 5 steps`);
    }
  });

  it("bias-corrects at t = 1: every parameter moves by lr·sign(g) when decay and clipping are off", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(52);
    const n = 300;
    const s = setup(ctx, rng, n);
    const p0 = Float64Array.from(s.ref.params);
    const g = rng.uniform(n, 0.01, 1).map((x, i) => (i % 2 ? x : -x));
    const lr = 0.05;
    step(s, g, { lr, step: 1, weightDecay: 0, maxGradNorm: 0 });
    const moved = (await ctx.read(s.params)).map((p, i) => p - p0[i]);
    // m̂ = g, v̂ = g²: the step is −lr·g/(|g| + eps), within eps/|g| ≤ 1e-6 of −lr·sign(g).
    const want = Float64Array.from(g, (x) => -lr * Math.sign(x));
    expectClose("θ₁ − θ₀ = −lr·sign(g)", moved, want, { atol: 1e-7, rtol: 1e-5 });
  });

  it("decays only where the mask is 1, and never moves masked-out parameters without a gradient", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(53);
    const n = 500;
    const s = setup(ctx, rng, n);
    const p0 = await ctx.read(s.params);
    step(s, new Float32Array(n), { lr: 0.1, step: 3, weightDecay: 0.1 });
    const p1 = await ctx.read(s.params);
    const decayed = [...p1].filter((_, i) => s.decayMask[i] === 1);
    const kept = [...p1].filter((_, i) => s.decayMask[i] === 0);
    expectClose(
      "decayed: θ·(1 − lr·wd)",
      decayed,
      [...p0].filter((_, i) => s.decayMask[i] === 1).map((x) => x * 0.99),
      TOL,
    );
    expectClose(
      "mask 0, zero gradient: θ unchanged",
      kept,
      [...p0].filter((_, i) => s.decayMask[i] === 0),
      EXACT,
    );
    await expectState(s, "decay-only step");
  });

  it("does not clip when maxGradNorm ≤ 0, whatever the norm buffer holds (or with no norm buffer)", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(54);
    for (const maxGradNorm of [0, -1]) {
      const withNorm = setup(ctx, rng, 700);
      const noNorm = setup(ctx, new Rng(540), 700, withNorm.decayMask);
      const g = rng.uniform(700, -3, 3);
      const o = { lr: 1e-2, step: 1, maxGradNorm };
      step(withNorm, g, o, 1e6); // a huge norm would scale g to ~0 if it were read
      adamw(ctx, noNorm.params, noNorm.m, noNorm.v, ctx.tensor([700], "f32", "g", g), noNorm.decay, null, o);
      adamwRef(noNorm.ref, g, noNorm.decayMask, Number.NaN, resolveAdamW(o));
      await expectState(withNorm, `maxGradNorm=${maxGradNorm}, norm 1e6`);
      await expectState(noNorm, `maxGradNorm=${maxGradNorm}, norm null`);
    }
  });

  it("clips with the norm that grad_norm left on the GPU (one submission, no readback in between)", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(55);
    const n = 5000;
    const s = setup(ctx, rng, n);
    for (let t = 1; t <= 3; t++) {
      const g = rng.uniform(n, -1, 1);
      const grads = ctx.tensor([n], "f32", "grads", g);
      const norm = ctx.tensor([1], "f32", "norm");
      gradNorm(ctx, norm, ctx.tensor([gradNormPartials(n)], "f32", "partials"), grads);
      adamw(ctx, s.params, s.m, s.v, grads, s.decay, norm, { lr: 3e-3, step: t, maxGradNorm: 5 });
      adamwRef(s.ref, g, s.decayMask, gradNormRef(g), resolveAdamW({ lr: 3e-3, step: t, maxGradNorm: 5 }));
    }
    await expectState(s, "gradNorm → adamw, 3 steps");
  });

  it("rejects bad sizes and hyperparameters with RangeErrors", async () => {
    const ctx = await kernelGpu();
    const t = ctx.tensor([4]);
    const o = { lr: 1e-3, step: 1 };
    expect(() => adamw(ctx, t, t, t, ctx.tensor([3]), t, t, o)).toThrow(/grads/);
    expect(() => adamw(ctx, t, t, t, t, t, null, o)).toThrow(/norm/);
    expect(() => adamw(ctx, t, t, t, t, t, t, { ...o, step: 0 })).toThrow(/step/);
    expect(() => adamw(ctx, t, t, t, t, t, t, { ...o, beta2: 1 })).toThrow(/beta2/);
    expect(() => adamw(ctx, t, t, t, t, t, t, { ...o, lr: Number.NaN })).toThrow(/lr/);
    expect(ADAMW_DEFAULTS.beta2).toBe(0.95);
  });
});
