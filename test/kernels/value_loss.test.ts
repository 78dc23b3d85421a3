import { describe, expect, it } from "vitest";
import { maskCount, maskFromLengths } from "../../src/algorithms/math/masked";
import { ppoValueLossAndGrad } from "../../src/algorithms/math/ppo";
import type { GpuContext } from "../../src/gpu/context";
import {
  VALUE_TERM_COUNT,
  VALUE_TERMS,
  type ValueLossOptions,
  valueLoss,
  valueLossMetrics,
} from "../../src/kernels/value_loss";
import { reduceRowsRef } from "../../src/reference/reduce";
import { type ValueLossRefInputs, valueLossRef } from "../../src/reference/value_loss";
import { Rng } from "../../src/util/rng";
import { finiteDiffGrad, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { vectorCase } from "../helpers/vectors";

/** Per-token f32 terms: a few roundings of O(1) values (squares up to ~20). */
const TERM_TOL = { atol: 1e-6, rtol: 1e-5 };
/** f32 tree sums of ≤ 600 terms vs float64 sums. */
const SUM_TOL = { atol: 2e-5, rtol: 2e-5 };
/** The shared test vectors' tolerance for f32 GPU paths (shared/README.md). */
const VECTOR_GPU_TOL = { atol: 0, rtol: 1e-4 };
/** Float64 twin vs central differences (h = 1e-6) on O(1) losses. */
const FD_TOL = { atol: 1e-8, rtol: 1e-6 };

/** Random batch [B, T]: prompt offsets 0–2, lengths ≥ 1; V − V_old ~ 0.3·N(0,1) (clips often at ε_v = 0.2). */
function randomBatch(rng: Rng, B: number, T: number) {
  const offsets = Array.from({ length: B }, () => rng.int(0, Math.min(2, T - 1)));
  const lengths = offsets.map((o) => rng.int(1, T - o));
  const mask = Float32Array.from(maskFromLengths(B, T, lengths, offsets));
  const N = B * T;
  const values = rng.uniform(N, -2, 2);
  const valuesOld = values.map((v) => v + 0.3 * rng.normal());
  const returns = values.map((v) => v + rng.normal());
  return { B, T, N, mask, values, valuesOld, returns };
}

async function runGpu(ctx: GpuContext, x: ValueLossRefInputs, opts: ValueLossOptions) {
  const N = x.mask.length;
  const t = (name: string, a: ArrayLike<number>) => ctx.tensor([N], "f32", name, a);
  const dvalues = ctx.tensor([N], "f32", "dvalues");
  const terms = ctx.tensor([VALUE_TERM_COUNT, N], "f32", "terms");
  const sums = ctx.tensor([VALUE_TERM_COUNT], "f32", "sums");
  valueLoss(
    ctx,
    { dvalues, terms, sums },
    {
      values: t("values", x.values),
      valuesOld: t("valuesOld", x.valuesOld),
      returns: t("returns", x.returns),
      weights: typeof x.weights === "number" ? x.weights : t("w", x.weights),
      mask: t("mask", x.mask),
    },
    opts,
  );
  return { dvalues: await ctx.read(dvalues), terms: await ctx.read(terms), sums: await ctx.read(sums) };
}

async function expectMatchesTwin(ctx: GpuContext, label: string, x: ValueLossRefInputs, o: ValueLossOptions) {
  const gpu = await runGpu(ctx, x, o);
  const twin = valueLossRef(x, o.epsilonV ?? 0.2, o.gradScale ?? 1);
  const N = x.mask.length;
  expectClose(`dvalues ${label}`, gpu.dvalues, twin.dvalues, TERM_TOL);
  VALUE_TERMS.forEach((name, k) => {
    const rows = (a: ArrayLike<number>) => Array.from(a).slice(k * N, (k + 1) * N);
    expectClose(`${name} ${label}`, rows(gpu.terms), rows(twin.terms), TERM_TOL);
  });
  expectClose(`sums ${label}`, gpu.sums, reduceRowsRef("sum", twin.terms, VALUE_TERM_COUNT, N), SUM_TOL);
  return gpu;
}

/** [B, T]: one token, one row, N = 91 and 448 (N = 91 does not divide the 64-wide workgroup), B = 64. */
const SHAPES: [number, number][] = [
  [1, 1],
  [1, 7],
  [7, 13],
  [64, 7],
];

describe("value_loss vs CPU twin and ppoValueLossAndGrad", () => {
  it("masked mean (w = 1/n) at ε_v = 0.2 and 0.5", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(81);
    let clippedSeen = 0;
    for (const [B, T] of SHAPES) {
      const b = randomBatch(rng, B, T);
      const n = maskCount(b.mask);
      for (const epsilonV of [0.2, 0.5]) {
        const gpu = await expectMatchesTwin(
          ctx,
          `[${B}×${T}] ε_v=${epsilonV}`,
          { ...b, weights: 1 / n },
          { epsilonV },
        );
        const math = ppoValueLossAndGrad(b.values, b.valuesOld, b.returns, { B, T, mask: b.mask }, epsilonV);
        const m = valueLossMetrics(gpu.sums);
        expect(m.count).toBe(n);
        expectClose("loss vs ppoValueLossAndGrad", [m.loss], [math.loss], SUM_TOL);
        expectClose("dvalues vs ppoValueLossAndGrad", gpu.dvalues, math.dvalues, TERM_TOL);
        expectClose("clipfrac", [m.metrics["val/clipfrac_avg"]], [math.metrics["val/clipfrac_avg"]], SUM_TOL);
        clippedSeen += m.metrics["val/clipfrac_avg"];
      }
    }
    expect(clippedSeen, "the inputs exercise the clipped branch").toBeGreaterThan(0);
  });

  it("per-token weights and gradScale (c_v = 0.1) scale the gradient only", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(82);
    for (const [B, T] of SHAPES) {
      const b = randomBatch(rng, B, T);
      const w = rng.uniform(b.N, 0, 0.1);
      const gpu = await expectMatchesTwin(
        ctx,
        `weighted [${B}×${T}]`,
        { ...b, weights: w },
        { gradScale: 0.1 },
      );
      const plain = await runGpu(ctx, { ...b, weights: w }, {});
      expectClose("loss row unscaled", gpu.terms, plain.terms, { atol: 0, rtol: 0 });
      expectClose(
        "gradient × 0.1",
        gpu.dvalues,
        plain.dvalues.map((v) => 0.1 * v),
        TERM_TOL,
      );
    }
  });

  it("matches the shared test vector ppo_value_loss_clipped (f32, 1e-4 relative)", async () => {
    const ctx = await kernelGpu();
    const c = vectorCase("ppo_value_loss_clipped");
    const { values, values_old, returns, epsilon_v } = c.inputs;
    const n = values.length;
    const x = { values, valuesOld: values_old, returns, weights: 1 / n, mask: new Float32Array(n).fill(1) };
    const m = valueLossMetrics((await runGpu(ctx, x, { epsilonV: epsilon_v })).sums);
    expectClose("ppo_value_loss_clipped", [m.loss], [c.expected], VECTOR_GPU_TOL);
  });
});

describe("value_loss edge cases", () => {
  it("NaN/±∞ in masked slots never leak; V = V_old gives clipfrac 0", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(83), 7, 13);
    const junk = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const poison = (a: Float32Array) => a.map((v, i) => (b.mask[i] === 0 ? junk[i % 3] : v));
    const w = poison(new Float32Array(b.N).fill(0.01));
    const x = {
      values: poison(b.values),
      valuesOld: poison(b.valuesOld),
      returns: poison(b.returns),
      weights: w,
      mask: b.mask,
    };
    const gpu = await expectMatchesTwin(ctx, "poisoned", x, {});
    for (let i = 0; i < b.N; i++)
      if (b.mask[i] === 0) {
        expect(gpu.dvalues[i]).toBe(0);
        for (let k = 0; k < VALUE_TERM_COUNT; k++) expect(gpu.terms[k * b.N + i]).toBe(0);
      }
    expect(valueLossMetrics(gpu.sums).count).toBe(maskCount(b.mask));
    const same = await runGpu(ctx, { ...x, valuesOld: x.values }, { epsilonV: 0 });
    expect(valueLossMetrics(same.sums).metrics["val/clipfrac_avg"]).toBe(0);
  });

  it("a non-finite counted input is flagged: gradient 0 there, valueLossMetrics throws", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(84), 1, 7);
    const returns = b.returns.slice();
    const i = b.mask.indexOf(1);
    returns[i] = Number.NaN;
    const gpu = await runGpu(ctx, { ...b, returns, weights: 1 }, {});
    expect(gpu.terms[VALUE_TERMS.indexOf("invalid") * b.N + i]).toBe(1);
    expect(gpu.dvalues.every(Number.isFinite) && gpu.dvalues[i] === 0).toBe(true);
    expect(() => valueLossMetrics(gpu.sums)).toThrow(/non-finite/);
  });

  it("rejects bad options, sizes and aliasing", async () => {
    const ctx = await kernelGpu();
    const t = (n = 4) => ctx.tensor([n], "f32", "t");
    const x = { values: t(), valuesOld: t(), returns: t(), weights: 0.25, mask: t() };
    const out = { dvalues: t(), terms: t(4 * VALUE_TERM_COUNT) };
    expect(() => valueLoss(ctx, out, x, { epsilonV: -1 })).toThrow(/epsilonV/);
    expect(() => valueLoss(ctx, out, x, { gradScale: Number.NaN })).toThrow(/gradScale/);
    expect(() => valueLoss(ctx, out, { ...x, weights: Number.POSITIVE_INFINITY })).toThrow(/weight/);
    expect(() => valueLoss(ctx, out, { ...x, returns: t(3) })).toThrow(/returns/);
    expect(() => valueLoss(ctx, { ...out, dvalues: x.values }, x)).toThrow(/shares/);
    expect(() => valueLossMetrics([0, 0, 0, 0])).toThrow(/no counted/);
  });
});

describe("value_loss twin gradient", () => {
  it("dvalues = ∂(Σ w·ℓ)/∂V by float64 central differences (both branches of the max, clipped and not)", () => {
    const b = randomBatch(new Rng(85), 4, 6);
    const w = Float64Array.from({ length: b.N }, (_, i) => 0.05 + 0.01 * (i % 5));
    const x = { ...b, weights: w };
    const loss = (values: Float64Array) => {
      const { terms } = valueLossRef({ ...x, values }, 0.2);
      return terms.subarray(0, b.N).reduce((s, v) => s + v, 0);
    };
    const twin = valueLossRef(x, 0.2);
    expectClose("twin dvalues vs FD", twin.dvalues, finiteDiffGrad(loss, b.values), FD_TOL, TWIN_VS_FD);
    expect(
      twin.terms.subarray(2 * b.N, 3 * b.N).some((v) => v === 1),
      "a clipped term is used",
    ).toBe(true);
  });
});
