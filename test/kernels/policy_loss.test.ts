import { describe, expect, it } from "vitest";
import { aggregationWeights, type GrpoLossType, grpoLossAndGrad } from "../../src/algorithms/math/grpo";
import { maskCount, maskFromLengths } from "../../src/algorithms/math/masked";
import { ppoPolicyLossAndGrad } from "../../src/algorithms/math/ppo";
import type { GpuContext } from "../../src/gpu/context";
import {
  POLICY_TERM_COUNT,
  POLICY_TERMS,
  type PolicyLossOptions,
  policyLoss,
  policyLossMetrics,
} from "../../src/kernels/policy_loss";
import { type PolicyLossRefInputs, policyLossRef } from "../../src/reference/policy_loss";
import { reduceRowsRef } from "../../src/reference/reduce";
import { Rng } from "../../src/util/rng";
import { finiteDiffGrad, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { vectorCase } from "../helpers/vectors";

/** Per-token f32 terms: ρ = exp(Δ) with Δ up to ~2 has a few ulp of error; k3 uses a Taylor polynomial. */
const TERM_TOL = { atol: 1e-7, rtol: 2e-5 };
/** f32 tree sums of ≤ 600 terms of size ≲ 10 vs float64 sums. */
const SUM_TOL = { atol: 2e-5, rtol: 2e-5 };
/** The shared test vectors' tolerance for f32 GPU paths (shared/README.md); atol for exact zeros. */
const VECTOR_GPU_TOL = { atol: 1e-7, rtol: 1e-4 };
/** Float64 twin vs central differences (h = 1e-6) on O(1) losses. */
const FD_TOL = { atol: 1e-8, rtol: 1e-6 };

type F = Float32Array;

/** Random batch [B, T]: prompt offsets 0–2, completion lengths ≥ 1, log-probs in (−5, 0), ρ ~ e^{±0.4}. */
function randomBatch(rng: Rng, B: number, T: number) {
  const offsets = Array.from({ length: B }, () => rng.int(0, Math.min(2, T - 1)));
  const lengths = offsets.map((o) => rng.int(1, T - o));
  const mask = Float32Array.from(maskFromLengths(B, T, lengths, offsets));
  const N = B * T;
  const logp = rng.uniform(N, -5, 0);
  const logpOld = logp.map((v) => v + 0.4 * rng.normal());
  const logpRef = logp.map((v) => v + 0.6 * rng.normal());
  const seqAdv = Array.from({ length: B }, () => rng.normal());
  const tokenAdv = rng.uniform(N, -2, 2);
  const perSeqAdv = Float32Array.from({ length: N }, (_, i) => seqAdv[Math.floor(i / T)]);
  return { B, T, N, mask, logp, logpOld, logpRef, seqAdv, tokenAdv, perSeqAdv };
}

/** Upload, run policyLoss (with sums), read back dlogp, terms and sums. */
async function runGpu(ctx: GpuContext, x: PolicyLossRefInputs, opts: PolicyLossOptions) {
  const N = x.mask.length;
  const t = (name: string, a: ArrayLike<number>) => ctx.tensor([N], "f32", name, a);
  const dlogp = ctx.tensor([N], "f32", "dlogp");
  const terms = ctx.tensor([POLICY_TERM_COUNT, N], "f32", "terms");
  const sums = ctx.tensor([POLICY_TERM_COUNT], "f32", "sums");
  policyLoss(
    ctx,
    { dlogp, terms, sums },
    {
      logp: t("logp", x.logp),
      logpOld: x.logpOld ? t("logpOld", x.logpOld) : null,
      logpRef: x.logpRef ? t("logpRef", x.logpRef) : null,
      advantages: t("adv", x.advantages),
      weights: typeof x.weights === "number" ? x.weights : t("w", x.weights),
      mask: t("mask", x.mask),
    },
    opts,
  );
  return { dlogp: await ctx.read(dlogp), terms: await ctx.read(terms), sums: await ctx.read(sums) };
}

function twinOptions(o: PolicyLossOptions) {
  const epsLow = o.epsilon ?? 0.2;
  return { epsLow, epsHigh: o.epsilonHigh ?? epsLow, beta: o.beta ?? 0 };
}

/** GPU vs per-token twin: dlogp, every term row, and the sums. */
async function expectMatchesTwin(
  ctx: GpuContext,
  label: string,
  x: PolicyLossRefInputs,
  o: PolicyLossOptions,
) {
  const gpu = await runGpu(ctx, x, o);
  const twin = policyLossRef(x, twinOptions(o));
  const N = x.mask.length;
  expectClose(`dlogp ${label}`, gpu.dlogp, twin.dlogp, TERM_TOL);
  POLICY_TERMS.forEach((name, k) => {
    const rows = (a: ArrayLike<number>) => Array.from(a).slice(k * N, (k + 1) * N);
    expectClose(`${name} ${label}`, rows(gpu.terms), rows(twin.terms), TERM_TOL);
  });
  expectClose(`sums ${label}`, gpu.sums, reduceRowsRef("sum", twin.terms, POLICY_TERM_COUNT, N), SUM_TOL);
  return gpu;
}

/** [B, T]: one token, one row, N = 91 and 448 (not / a multiple of the 64-wide workgroup), B = 64. */
const SHAPES: [number, number][] = [
  [1, 1],
  [1, 7],
  [7, 13],
  [64, 7],
];

describe("policy_loss vs CPU twin and the float64 algorithm math", () => {
  it("PPO: masked mean (w = 1/n), ρ ≠ 1, no reference", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(71);
    for (const [B, T] of SHAPES) {
      const b = randomBatch(rng, B, T);
      const n = maskCount(b.mask);
      for (const o of [{ epsilon: 0.2 }, { epsilon: 0.1, epsilonHigh: 0.28 }]) {
        const x = { ...b, logpRef: null, advantages: b.tokenAdv, weights: 1 / n };
        const gpu = await expectMatchesTwin(ctx, `PPO [${B}×${T}] ε=${o.epsilon}`, x, o);
        const math = ppoPolicyLossAndGrad(b.logp, b.logpOld, b.tokenAdv, { B, T, mask: b.mask }, o);
        const m = policyLossMetrics(gpu.sums, false);
        expect(m.count).toBe(n);
        expectClose("loss vs ppoPolicyLossAndGrad", [m.loss], [math.loss], SUM_TOL);
        expectClose("dlogp vs ppoPolicyLossAndGrad", gpu.dlogp, math.dlogp, TERM_TOL);
        for (const k of ["policy/approxkl_avg", "policy/clipfrac_avg", "val/ratio"] as const)
          expectClose(k, [m.metrics[k]], [math.metrics[k]], SUM_TOL);
        expect(m.metrics.kl).toBeNull();
      }
    }
  });

  for (const lossType of ["grpo", "dapo", "dr_grpo"] as GrpoLossType[])
    it(`GRPO ${lossType}: per-token weights, k3 term (β = 0.04), clip-higher`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(72);
      for (const [B, T] of SHAPES) {
        const b = randomBatch(rng, B, T);
        const shape = { B, T, mask: b.mask };
        const o = { epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04 };
        const w = Float32Array.from(aggregationWeights(shape, lossType, T));
        const x = { ...b, advantages: b.perSeqAdv, weights: w };
        const gpu = await expectMatchesTwin(ctx, `${lossType} [${B}×${T}]`, x, o);
        const math = grpoLossAndGrad(b.logp, b.logpOld, b.logpRef, b.seqAdv, shape, {
          ...o,
          lossType,
          maxCompletionLength: T,
        });
        const m = policyLossMetrics(gpu.sums);
        expectClose("loss vs grpoLossAndGrad", [m.loss], [math.loss], SUM_TOL);
        expectClose("dlogp vs grpoLossAndGrad", gpu.dlogp, math.dlogp, TERM_TOL);
        const { kl, ...rest } = math.metrics;
        expectClose("kl", [m.metrics.kl ?? Number.NaN], [kl ?? Number.NaN], SUM_TOL);
        for (const [k, v] of Object.entries(rest))
          expectClose(k, [m.metrics[k as keyof typeof rest]], [v], SUM_TOL);
      }
    });

  it("μ = 1 (logpOld null): ρ ≡ 1, matches grpoLossAndGrad with logpOld null", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(73), 7, 13);
    const shape = { B: 7, T: 13, mask: b.mask };
    const w = aggregationWeights(shape, "grpo");
    const x = { ...b, logpOld: null, advantages: b.perSeqAdv, weights: w };
    const gpu = await expectMatchesTwin(ctx, "logpOld null", x, { beta: 0.04 });
    const math = grpoLossAndGrad(b.logp, null, b.logpRef, b.seqAdv, shape, { beta: 0.04 });
    expectClose("loss", [policyLossMetrics(gpu.sums).loss], [math.loss], SUM_TOL);
    expectClose("dlogp", gpu.dlogp, math.dlogp, TERM_TOL);
  });
});

describe("policy_loss: shared test vectors through the GPU (f32, 1e-4 relative)", () => {
  const oneRow = (n: number) => new Float32Array(n).fill(1);

  for (const name of ["ppo_clipped_surrogate", "clip_higher"])
    it(name, async () => {
      const ctx = await kernelGpu();
      const c = vectorCase(name);
      const { logp, logp_old, advantages, epsilon, epsilon_high } = c.inputs;
      const n = logp.length;
      const o = { epsilon, epsilonHigh: epsilon_high };
      // As PPO: one sequence of n tokens, masked mean.
      const x = { logp, logpOld: logp_old, logpRef: null, advantages, weights: 1 / n, mask: oneRow(n) };
      const ppo = policyLossMetrics((await runGpu(ctx, x, o)).sums, false);
      expectClose(`${name} loss (PPO)`, [ppo.loss], [c.expected.loss], VECTOR_GPU_TOL);
      expectClose(
        `${name} clipfrac (PPO)`,
        [ppo.metrics["policy/clipfrac_avg"]],
        [c.expected.clipfrac],
        VECTOR_GPU_TOL,
      );
      // As GRPO: n one-token completions, `grpo` weights 1/(B·1), β = 0.
      const w = aggregationWeights({ B: n, T: 1, mask: oneRow(n) }, "grpo");
      const grpo = policyLossMetrics(
        (await runGpu(ctx, { ...x, weights: w }, { ...o, beta: 0 })).sums,
        false,
      );
      expectClose(`${name} loss (GRPO)`, [grpo.loss], [c.expected.loss], VECTOR_GPU_TOL);
    });

  for (const name of ["grpo_aggregation_grpo", "grpo_aggregation_dapo", "grpo_aggregation_dr_grpo"])
    it(`${name}: per-token losses as −A at ρ = 1, NaN padding`, async () => {
      const ctx = await kernelGpu();
      const c = vectorCase(name);
      const rows: number[][] = c.inputs.per_token_loss;
      const T = c.inputs.max_completion_length;
      const B = rows.length;
      const mask = new Float32Array(B * T);
      const adv = new Float32Array(B * T).fill(Number.NaN);
      for (let b = 0; b < B; b++)
        for (let t = 0; t < rows[b].length; t++) {
          mask[b * T + t] = 1;
          adv[b * T + t] = -rows[b][t]; // ℓ = −min(ρA, clip(ρ)A) = −A at ρ = 1
        }
      const w = Float32Array.from(aggregationWeights({ B, T, mask }, c.inputs.loss_type, T));
      const logp = new Float32Array(B * T).fill(-1);
      const x = { logp, logpOld: null, logpRef: null, advantages: adv, weights: w, mask };
      const m = policyLossMetrics((await runGpu(ctx, x, {})).sums, false);
      expectClose(name, [m.loss], [c.expected], VECTOR_GPU_TOL);
    });
});

describe("policy_loss edge cases", () => {
  it("NaN/±∞ in masked slots of every input never leak: masked outputs are exactly 0", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(74), 7, 13);
    const junk = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const poison = (a: F) => a.map((v, i) => (b.mask[i] === 0 ? junk[i % 3] : v));
    const w = poison(Float32Array.from(aggregationWeights({ B: 7, T: 13, mask: b.mask }, "grpo")));
    const x = {
      logp: poison(b.logp),
      logpOld: poison(b.logpOld),
      logpRef: poison(b.logpRef),
      advantages: poison(b.perSeqAdv),
      weights: w,
      mask: b.mask,
    };
    const gpu = await expectMatchesTwin(ctx, "poisoned", x, { beta: 0.04 });
    const N = b.N;
    for (let i = 0; i < N; i++)
      if (b.mask[i] === 0) {
        expect(gpu.dlogp[i], `dlogp[${i}]`).toBe(0);
        for (let k = 0; k < POLICY_TERM_COUNT; k++) expect(gpu.terms[k * N + i], `term ${k}, ${i}`).toBe(0);
      }
    expect(gpu.sums.every(Number.isFinite)).toBe(true);
    expect(policyLossMetrics(gpu.sums).count).toBe(maskCount(b.mask));
  });

  it("ratio = 1 (logpOld = logp) gives clipfrac 0 and approx_kl 0 even at ε = 0", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(75), 7, 13);
    for (const logpOld of [b.logp, null]) {
      const x = { ...b, logpOld, logpRef: null, advantages: b.tokenAdv, weights: 1 };
      const m = policyLossMetrics((await runGpu(ctx, x, { epsilon: 0 })).sums, false);
      expect(m.metrics["policy/clipfrac_avg"]).toBe(0);
      expect(m.metrics["clip_ratio/region_mean"]).toBe(0);
      expect(m.metrics["policy/approxkl_avg"]).toBe(0);
      expect(m.metrics["val/ratio"]).toBe(1);
    }
  });

  it("a non-finite counted input is flagged: gradient 0 there, policyLossMetrics throws", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(76), 1, 7);
    const logp = b.logp.slice();
    const i = b.mask.indexOf(1);
    logp[i] = Number.NEGATIVE_INFINITY; // a counted token of probability 0
    const x = { ...b, logp, advantages: b.tokenAdv, weights: 1 };
    const gpu = await runGpu(ctx, x, { beta: 0.04 });
    expect(gpu.terms[POLICY_TERMS.indexOf("invalid") * b.N + i]).toBe(1);
    expect(gpu.dlogp.every(Number.isFinite) && gpu.dlogp[i] === 0).toBe(true);
    expect(() => policyLossMetrics(gpu.sums)).toThrow(/non-finite/);
    expect(() => grpoLossAndGrad(logp, b.logpOld, b.logpRef, [0], { B: 1, T: 7, mask: b.mask })).toThrow(
      /finite/,
    );
  });

  it("a k3 term that overflows float32 (log π_ref − log π_θ > 88.7) is flagged, and the message names the KL term", async () => {
    const ctx = await kernelGpu();
    const b = randomBatch(new Rng(77), 1, 7);
    const logpRef = b.logp.slice();
    const i = b.mask.indexOf(1);
    logpRef[i] = b.logp[i] + 89; // the ratio is finite; e^ℓ is not
    const x = { ...b, logpOld: b.logp, logpRef, advantages: b.tokenAdv, weights: 1 };
    const gpu = await runGpu(ctx, x, { beta: 0.04 });
    expect(gpu.terms[POLICY_TERMS.indexOf("invalid") * b.N + i]).toBe(1);
    expect(() => policyLossMetrics(gpu.sums)).toThrow(/or KL term .*log π_ref − log π_θ > 88/);
    expect(() => policyLossMetrics(gpu.sums, false)).not.toThrow(/KL term/);
  });

  it("rejects bad options, sizes and aliasing", async () => {
    const ctx = await kernelGpu();
    const t = (n = 4) => ctx.tensor([n], "f32", "t");
    const inputs = { logp: t(), advantages: t(), weights: 0.25, mask: t() };
    const out = { dlogp: t(), terms: t(4 * POLICY_TERM_COUNT) };
    expect(() => policyLoss(ctx, out, inputs, { beta: 0.1 })).toThrow(/logpRef/);
    expect(() => policyLoss(ctx, out, inputs, { epsilon: 1 })).toThrow(/epsilon/);
    expect(() => policyLoss(ctx, out, inputs, { beta: -1 })).toThrow(/beta/);
    expect(() => policyLoss(ctx, out, { ...inputs, weights: Number.NaN })).toThrow(/weight/);
    expect(() => policyLoss(ctx, out, { ...inputs, mask: t(5) })).toThrow(/mask/);
    expect(() => policyLoss(ctx, { ...out, terms: t(4) }, inputs)).toThrow(/terms/);
    expect(() => policyLoss(ctx, { ...out, dlogp: inputs.logp }, inputs)).toThrow(/shares/);
    expect(() => policyLossMetrics([1, 2])).toThrow(/sums/);
  });
});

describe("policy_loss twin gradient", () => {
  it("dlogp = ∂(Σ w·ℓ)/∂logp by float64 central differences (surrogate, clip-higher, k3)", () => {
    const rng = new Rng(77);
    const b = randomBatch(rng, 4, 6);
    const w = aggregationWeights({ B: 4, T: 6, mask: b.mask }, "grpo");
    const o = { epsLow: 0.2, epsHigh: 0.28, beta: 0.1 };
    const x = { ...b, advantages: b.perSeqAdv, weights: w };
    const loss = (logp: Float64Array) => {
      const { terms } = policyLossRef({ ...x, logp }, o);
      return terms.subarray(0, b.N).reduce((s, v) => s + v, 0);
    };
    const fd = finiteDiffGrad(loss, b.logp);
    expectClose("twin dlogp vs FD", policyLossRef(x, o).dlogp, fd, FD_TOL, TWIN_VS_FD);
  });
});
