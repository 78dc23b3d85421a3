import { describe, expect, it } from "vitest";
import { type DpoLossType, type DpoOptions, dpoLossAndGrad } from "../../src/algorithms/math/dpo";
import { maskFromLengths, rowSums } from "../../src/algorithms/math/masked";
import type { GpuContext } from "../../src/gpu/context";
import { DPO_TERM_COUNT, DPO_TERMS, dpoLoss, dpoLossMetrics } from "../../src/kernels/dpo_loss";
import { sequenceLogprob, sequenceLogprobBackward } from "../../src/kernels/sequence_logprob";
import { tokenLogprob, tokenLogprobBackward } from "../../src/kernels/token_logprob";
import { type DpoLossRefInputs, dpoLossRef } from "../../src/reference/dpo_loss";
import { reduceRowsRef } from "../../src/reference/reduce";
import { tokenLogprobRef } from "../../src/reference/token_logprob";
import { Rng } from "../../src/util/rng";
import { finiteDiffGrad, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { vectorCase } from "../helpers/vectors";
import { expectAllZero } from "../helpers/vocab_rows";

/** f32 log-ratio differences of sequence log-probs down to −40 (ulp ≈ 4e-6), through β ≤ 2 and σ/softplus. */
const PAIR_TOL = { atol: 2e-5, rtol: 2e-5 };
/** f32 sums over ≤ 64 pairs of O(1)–O(40) terms vs float64. */
const SUM_TOL = { atol: 1e-4, rtol: 2e-5 };
/** The shared test vectors' tolerance for f32 GPU paths (shared/README.md). */
const VECTOR_GPU_TOL = { atol: 0, rtol: 1e-4 };
/** Float64 twin vs central differences (h = 1e-6). */
const FD_TOL = { atol: 1e-8, rtol: 1e-6 };
/** The whole f32 GPU chain (log-softmax, sums, loss, backward) vs float64 central differences over logits. */
const CHAIN_TOL = { atol: 2e-6, rtol: 1e-4 };

const CONFIGS: [string, DpoOptions][] = [
  ["sigmoid", { lossType: "sigmoid" }],
  ["cDPO ε_ls=0.1", { lossType: "sigmoid", labelSmoothing: 0.1, beta: 0.5 }],
  ["hinge", { lossType: "hinge", beta: 0.05 }],
  ["ipo", { lossType: "ipo" }],
  ["simpo", { lossType: "simpo" }],
];

/** B random pairs: sequence log-probs in (−40, −1), reference within ~±3 nats, lengths 1..30. */
function randomPairs(rng: Rng, B: number): DpoLossRefInputs & { logps: Float32Array } {
  const logps = rng.uniform(2 * B, -40, -1);
  const refLogps = logps.map((v) => v + 3 * rng.normal());
  const lengths = Float32Array.from({ length: 2 * B }, () => rng.int(1, 30));
  return { logps, refLogps, lengths };
}

async function runGpu(ctx: GpuContext, x: DpoLossRefInputs, opts: DpoOptions) {
  const S = x.logps.length;
  const B = S / 2;
  const grad = ctx.tensor([S], "f32", "grad");
  const terms = ctx.tensor([DPO_TERM_COUNT, B], "f32", "terms");
  const sums = ctx.tensor([DPO_TERM_COUNT], "f32", "sums");
  const t = (name: string, a: ArrayLike<number> | null) => (a ? ctx.tensor([S], "f32", name, a) : null);
  dpoLoss(
    ctx,
    { grad, terms, sums },
    { logps: t("logps", x.logps)!, refLogps: t("ref", x.refLogps), lengths: t("len", x.lengths) },
    opts,
  );
  return { grad: await ctx.read(grad), terms: await ctx.read(terms), sums: await ctx.read(sums) };
}

/** The math on all B pairs at once (chosen first half, rejected second half). */
function mathAll(x: DpoLossRefInputs, opts: DpoOptions) {
  const B = x.logps.length / 2;
  const half = (a: ArrayLike<number> | null, k: number) =>
    a ? Array.from(a).slice(k * B, (k + 1) * B) : null;
  return dpoLossAndGrad(
    {
      chosenLogps: half(x.logps, 0)!,
      rejectedLogps: half(x.logps, 1)!,
      refChosenLogps: half(x.refLogps, 0),
      refRejectedLogps: half(x.refLogps, 1),
      chosenLengths: half(x.lengths, 0),
      rejectedLengths: half(x.lengths, 1),
    },
    opts,
  );
}

describe("dpo_loss vs CPU twin and dpoLossAndGrad", () => {
  for (const [name, opts] of CONFIGS)
    it(`${name} at B = 1, 7, 64, 65`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(101);
      for (const B of [1, 7, 64, 65]) {
        const x = randomPairs(rng, B);
        const gpu = await runGpu(ctx, x, opts);
        const twin = dpoLossRef(x, opts);
        const label = `${name} B=${B}`;
        expectClose(`grad ${label}`, gpu.grad, twin.grad, { atol: PAIR_TOL.atol / B, rtol: PAIR_TOL.rtol });
        DPO_TERMS.forEach((term, k) => {
          const rows = (a: ArrayLike<number>) => Array.from(a).slice(k * B, (k + 1) * B);
          expectClose(`${term} ${label}`, rows(gpu.terms), rows(twin.terms), PAIR_TOL);
        });
        expectClose(`sums ${label}`, gpu.sums, reduceRowsRef("sum", twin.terms, DPO_TERM_COUNT, B), SUM_TOL);
        const math = mathAll(x, opts);
        const m = dpoLossMetrics(gpu.sums, B);
        expectClose(`loss ${label}`, [m.loss], [math.loss], SUM_TOL);
        expectClose(`dChosen ${label}`, gpu.grad.slice(0, B), math.dChosenLogps, {
          atol: 2e-5 / B,
          rtol: 2e-5,
        });
        expectClose(`dRejected ${label}`, gpu.grad.slice(B), math.dRejectedLogps, {
          atol: 2e-5 / B,
          rtol: 2e-5,
        });
        for (const [k, v] of Object.entries(math.metrics))
          expectClose(`${k} ${label}`, [m.metrics[k as keyof typeof math.metrics]], [v], SUM_TOL);
      }
    });
});

describe("dpo_loss: shared test vectors through the GPU (f32, 1e-4 relative)", () => {
  const cases: [string, DpoLossType][] = [
    ["dpo_sigmoid", "sigmoid"],
    ["dpo_hinge", "hinge"],
    ["dpo_label_smoothing", "sigmoid"],
    ["dpo_ipo", "ipo"],
    ["simpo", "simpo"],
    ["dpo_identical_pair_is_log2", "sigmoid"],
  ];
  for (const [name, lossType] of cases)
    it(name, async () => {
      const ctx = await kernelGpu();
      const i = vectorCase(name).inputs;
      const x = {
        logps: [i.logp_chosen, i.logp_rejected],
        refLogps: i.ref_logp_chosen === undefined ? null : [i.ref_logp_chosen, i.ref_logp_rejected],
        lengths: i.len_chosen === undefined ? null : [i.len_chosen, i.len_rejected],
      };
      const opts = {
        lossType: i.loss_type ?? lossType,
        beta: i.beta,
        labelSmoothing: i.label_smoothing,
        simpoGamma: i.gamma,
      };
      const m = dpoLossMetrics((await runGpu(ctx, x, opts)).sums, 1);
      expectClose(name, [m.loss], [vectorCase(name).expected], VECTOR_GPU_TOL);
    });
});

describe("dpo_loss edge cases (−∞ log-probs: a finite loss or a clear error, never NaN)", () => {
  const ninf = Number.NEGATIVE_INFINITY;
  it("a −∞ rejected log-prob: sigmoid and hinge give loss 0, gradient 0, rewards/rejected −∞ (as the math)", async () => {
    const ctx = await kernelGpu();
    for (const lossType of ["sigmoid", "hinge"] as const) {
      const x = { logps: [-3, ninf], refLogps: [-4, -5], lengths: null };
      const gpu = await runGpu(ctx, x, { lossType });
      const m = dpoLossMetrics(gpu.sums, 1);
      const math = mathAll(x, { lossType });
      expect(m.loss).toBe(0);
      expectAllZero("grad", gpu.grad);
      expect(m.metrics["rewards/rejected"]).toBe(ninf);
      expect(m.metrics["rewards/rejected"]).toBe(math.metrics["rewards/rejected"]);
      expect(m.metrics["rewards/accuracies"]).toBe(1);
    }
  });

  it("a tie (policy = reference, the first step) is no accurate pair on the GPU either, as the math", async () => {
    const ctx = await kernelGpu();
    const x = { logps: [-3, -2, -4, -6], refLogps: [-3, -2, -4, -6], lengths: null };
    const m = dpoLossMetrics((await runGpu(ctx, x, { lossType: "sigmoid" })).sums, 2);
    expect(m.metrics["rewards/accuracies"]).toBe(0);
    expect(mathAll(x, { lossType: "sigmoid" }).metrics["rewards/accuracies"]).toBe(0);
  });

  it("−∞ chosen, −∞ − (−∞), NaN and a length 0 are invalid pairs: 0 gradient, dpoLossMetrics throws", async () => {
    const ctx = await kernelGpu();
    const bad: [DpoLossRefInputs, DpoOptions][] = [
      [{ logps: [ninf, -3], refLogps: [-4, -5], lengths: null }, { lossType: "sigmoid" }],
      [{ logps: [-3, ninf], refLogps: [-4, ninf], lengths: null }, { lossType: "hinge" }],
      [
        { logps: [-3, ninf], refLogps: [-4, -5], lengths: null },
        { lossType: "sigmoid", labelSmoothing: 0.1 },
      ],
      [{ logps: [-3, Number.NaN], refLogps: [-4, -5], lengths: null }, { lossType: "sigmoid" }],
      [{ logps: [-3, -2], refLogps: null, lengths: [0, 4] }, { lossType: "simpo" }],
    ];
    for (const [x, opts] of bad) {
      const gpu = await runGpu(ctx, x, opts);
      expect(gpu.terms[DPO_TERMS.indexOf("invalid")], JSON.stringify(x)).toBe(1);
      expectAllZero("grad", gpu.grad);
      expect(() => dpoLossMetrics(gpu.sums, 1)).toThrow(/invalid|infinite or undefined/);
      expect(() => mathAll(x, opts)).toThrow(RangeError);
      expect(dpoLossRef(x, opts).terms[DPO_TERMS.indexOf("invalid")]).toBe(1);
    }
  });

  it("rejects what dpoLossAndGrad rejects, and bad sizes", async () => {
    const ctx = await kernelGpu();
    const t = (n: number) => ctx.tensor([n], "f32", "t");
    const x = { logps: t(4), refLogps: t(4), lengths: t(4) };
    const out = { grad: t(4), terms: t(2 * DPO_TERM_COUNT) };
    expect(() => dpoLoss(ctx, out, { logps: t(4) })).toThrow(/refLogps/);
    expect(() => dpoLoss(ctx, out, { ...x, lengths: null }, { lossType: "ipo" })).toThrow(/lengths/);
    expect(() => dpoLoss(ctx, out, x, { beta: 0 })).toThrow(/beta/);
    expect(() => dpoLoss(ctx, out, x, { lossType: "hinge", labelSmoothing: 0.1 })).toThrow(/sigmoid only/);
    expect(() => dpoLoss(ctx, out, { ...x, logps: t(3) })).toThrow(/2B/);
    expect(() => dpoLoss(ctx, { ...out, grad: x.logps }, x)).toThrow(/shares/);
  });
});

describe("dpo_loss gradients", () => {
  it("twin gradients = ∂(mean loss)/∂logps by float64 central differences, every loss type", () => {
    const rng = new Rng(102);
    for (const [name, opts] of CONFIGS) {
      const x = randomPairs(rng, 5);
      const loss = (logps: Float64Array) => mathAll({ ...x, logps }, opts).loss;
      expectClose(`FD ${name}`, dpoLossRef(x, opts).grad, finiteDiffGrad(loss, x.logps), FD_TOL, TWIN_VS_FD);
    }
  });

  for (const [name, opts] of [CONFIGS[0], CONFIGS[3]])
    it(`${name}: the GPU chain tokenLogprob → sequenceLogprob → dpoLoss → backward gives dL/dlogits`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(103);
      const [B, T, V, tau] = [2, 4, 5, 0.9];
      const R = 2 * B;
      const mask = Float32Array.from(maskFromLengths(R, T, [4, 2, 3, 1], [0, 1, 0, 2]));
      const x = randomLogits(rng, R * T * V);
      const targets = Int32Array.from({ length: R * T }, () => rng.int(0, V - 1));
      const refLogps = Float32Array.from({ length: R }, () => -6 + rng.normal());
      const lengths = Float32Array.from({ length: R }, (_, r) =>
        mask.slice(r * T, (r + 1) * T).reduce((s, v) => s + v),
      );
      // float64 chain: logits → token log-probs → sequence sums → mean loss over pairs
      const loss = (logits: Float64Array) => {
        const seq = rowSums(tokenLogprobRef(logits, R * T, V, targets, mask, tau), { B: R, T, mask });
        return mathAll({ logps: seq, refLogps, lengths }, opts).loss;
      };
      const fd = finiteDiffGrad(loss, x);
      // GPU chain
      const logits = ctx.tensor([R * T, V], "f32", "logits", x);
      const tt = ctx.tensor([R * T], "i32", "targets", targets);
      const m = ctx.tensor([R, T], "f32", "mask", mask);
      const logp = ctx.tensor([R, T], "f32", "logp");
      const seq = ctx.tensor([R], "f32", "seq");
      const len = ctx.tensor([R], "f32", "len");
      const grad = ctx.tensor([R], "f32", "grad");
      const dlogp = ctx.tensor([R, T], "f32", "dlogp");
      const dlogits = ctx.tensor([R * T, V], "f32", "dlogits");
      tokenLogprob(ctx, logp, logits, tt, { tau, mask: m });
      sequenceLogprob(ctx, seq, len, logp, m);
      const ref = ctx.tensor([R], "f32", "ref", refLogps);
      dpoLoss(
        ctx,
        { grad, terms: ctx.tensor([DPO_TERM_COUNT, B], "f32", "terms") },
        { logps: seq, refLogps: ref, lengths: len },
        opts,
      );
      sequenceLogprobBackward(ctx, dlogp, grad, m);
      tokenLogprobBackward(ctx, dlogits, logits, tt, dlogp, { tau, mask: m });
      expectClose(`${name} chain dlogits vs FD`, await ctx.read(dlogits), fd, CHAIN_TOL, ["gpu", "fd"]);
    });
});

function randomLogits(rng: Rng, n: number): Float32Array {
  return Float32Array.from({ length: n }, () => 2 * rng.normal());
}
