/**
 * Invariants of ppo.ts and grpo.ts: gradients vs finite differences, padding, masked NaN, equal-score groups.
 */
import { describe, expect, it } from "vitest";
import {
  aggregateTokenLoss,
  type GrpoLossType,
  grpoAdvantages,
  grpoLossAndGrad,
} from "../../src/algorithms/math/grpo";
import {
  adaptiveKlBeta,
  ppoPolicyLossAndGrad,
  ppoTotalLoss,
  ppoValueLossAndGrad,
} from "../../src/algorithms/math/ppo";
import { Rng } from "../../src/util/rng";
import { counted, expectAllClose, expectClose, expectGradMatchesFd, padRows } from "./helpers";

/**
 * A random batch [B, T] with ragged rows (lengths in [1, T]) after a random prompt offset, masked slots NaN.
 * Log-ratios logp − logp_old lie in [−0.5, 0.5] but at least 1e-3 away from the clip edges log(1 ± ε), so
 * finite differences never straddle a kink.
 */
function randomBatch(seed: number, B: number, T: number, eps = 0.2, epsHigh = 0.28) {
  const rng = new Rng(seed);
  const logp = new Float64Array(B * T).fill(Number.NaN);
  const logpOld = new Float64Array(B * T).fill(Number.NaN);
  const logpRef = new Float64Array(B * T).fill(Number.NaN);
  const adv = new Float64Array(B * T).fill(Number.NaN);
  const mask = new Float64Array(B * T);
  const edges = [Math.log(1 - eps), Math.log(1 + eps), Math.log(1 + epsHigh)];
  for (let b = 0; b < B; b++) {
    const len = rng.int(1, T - 1);
    const off = rng.int(0, T - len);
    for (let t = off; t < off + len; t++) {
      const i = b * T + t;
      mask[i] = 1;
      logpOld[i] = -0.1 - 3 * rng.float();
      let lr: number;
      do lr = rng.float() - 0.5;
      while (edges.some((e) => Math.abs(lr - e) < 1e-3));
      logp[i] = logpOld[i] + lr;
      logpRef[i] = logpOld[i] + 0.6 * (rng.float() - 0.5);
      adv[i] = rng.normal();
    }
  }
  return { logp, logpOld, logpRef, adv, mask, B, T };
}

describe("PPO", () => {
  it("policy loss gradient matches finite differences, with and without clip-higher", () => {
    for (const epsilonHigh of [undefined, 0.28]) {
      const d = randomBatch(3, 4, 7);
      const shape = { B: d.B, T: d.T, mask: d.mask };
      const opts = { epsilon: 0.2, epsilonHigh };
      const out = ppoPolicyLossAndGrad(d.logp, d.logpOld, d.adv, shape, opts);
      expect(out.metrics["policy/clipfrac_avg"]).toBeGreaterThan(0); // some tokens are clipped
      expectGradMatchesFd(
        (x) => ppoPolicyLossAndGrad(x, d.logpOld, d.adv, shape, opts).loss,
        d.logp,
        out.dlogp,
        "dlogp",
      );
    }
  });

  it("ratio = 1: clipfrac 0, approx_kl 0, loss −mean A, gradient −A/n", () => {
    const logp = padRows([[-1, -2, -0.3], [-0.7]], 4);
    const adv = padRows([[0.5, -1, 2], [0.25]], 4);
    const shape = { B: 2, T: 4, mask: logp.mask };
    const out = ppoPolicyLossAndGrad(logp.x, logp.x, adv.x, shape);
    expect(out.metrics["policy/clipfrac_avg"]).toBe(0);
    expect(out.metrics["policy/approxkl_avg"]).toBe(0);
    expect(out.metrics["val/ratio"]).toBe(1);
    expectClose(out.loss, -(0.5 - 1 + 2 + 0.25) / 4);
    expectAllClose(counted(out.dlogp, logp.mask), [-0.5 / 4, 1 / 4, -2 / 4, -0.25 / 4]);
    expect(Array.from(out.dlogp).every(Number.isFinite)).toBe(true);
  });

  it("metrics by hand: clipfrac counts ε_low and ε_high apart, approx_kl is ½·mean (log ρ)²", () => {
    // log ρ: 0.22 (ρ ≈ 1.246, between 1 + ε = 1.2 and 1 + ε_high = 1.28), −0.3 (ρ ≈ 0.741 < 0.8), 0.1, 0.3.
    const lr = [0.22, -0.3, 0.1, 0.3];
    const old = padRows(
      [
        [0, 0],
        [0, 0],
      ],
      2,
    );
    const logp = padRows([lr.slice(0, 2), lr.slice(2)], 2);
    const shape = { B: 2, T: 2, mask: old.mask };
    const adv = new Float64Array(4).fill(1);
    const m = (o = {}) => ppoPolicyLossAndGrad(logp.x, old.x, adv, shape, o).metrics;
    expect(m({ epsilon: 0.2 })["policy/clipfrac_avg"]).toBe(3 / 4); // 1.246, 0.741 and 1.35 are outside [0.8, 1.2]
    expect(m({ epsilon: 0.2, epsilonHigh: 0.28 })["policy/clipfrac_avg"]).toBe(2 / 4); // 1.246 is inside now
    expectClose(m()["policy/approxkl_avg"], (0.5 * lr.reduce((a, x) => a + x * x, 0)) / 4);
    expectClose(m()["val/ratio"], lr.reduce((a, x) => a + Math.exp(x), 0) / 4);
  });

  it("widening padding and NaN in masked slots change nothing", () => {
    const d = randomBatch(5, 3, 6);
    const shape = { B: 3, T: 6, mask: d.mask };
    const base = ppoPolicyLossAndGrad(d.logp, d.logpOld, d.adv, shape);
    // Same batch, T = 9: three extra NaN slots after every row.
    const widen = (x: Float64Array, fill: number) => {
      const out = new Float64Array(3 * 9).fill(fill);
      for (let b = 0; b < 3; b++) for (let t = 0; t < 6; t++) out[b * 9 + t] = x[b * 6 + t];
      return out;
    };
    const wide = ppoPolicyLossAndGrad(
      widen(d.logp, Number.NaN),
      widen(d.logpOld, Number.POSITIVE_INFINITY),
      widen(d.adv, Number.NaN),
      {
        B: 3,
        T: 9,
        mask: widen(d.mask, 0),
      },
    );
    expect(wide.loss).toBe(base.loss);
    expect(wide.metrics).toEqual(base.metrics);
    expect(counted(wide.dlogp, widen(d.mask, 0))).toEqual(counted(base.dlogp, d.mask));
    expect(wide.dlogp.every(Number.isFinite)).toBe(true);
  });

  it("value loss gradient matches finite differences; clipfrac counts the clipped term in use", () => {
    const rng = new Rng(9);
    const n = 12;
    const mask = Float64Array.from({ length: n }, (_, i) => (i % 5 === 4 ? 0 : 1));
    const old = Float64Array.from({ length: n }, () => rng.normal());
    // V − V_old away from ±ε_v by ≥ 1e-3 so no difference straddles the clip.
    const values = old.map((v) => {
      let d: number;
      do d = rng.float() - 0.5;
      while (Math.abs(Math.abs(d) - 0.2) < 1e-3);
      return v + d;
    });
    const returns = Float64Array.from({ length: n }, () => rng.normal());
    for (let i = 0; i < n; i++) if (mask[i] === 0) values[i] = Number.NaN;
    const shape = { B: 2, T: 6, mask };
    const out = ppoValueLossAndGrad(values, old, returns, shape);
    expectGradMatchesFd(
      (x) => ppoValueLossAndGrad(x, old, returns, shape).loss,
      values,
      out.dvalues,
      "dvalues",
    );
    expect(out.metrics["val/clipfrac_avg"]).toBeGreaterThan(0);
    expect(ppoValueLossAndGrad(old, old, returns, shape).metrics["val/clipfrac_avg"]).toBe(0);
    expectClose(ppoTotalLoss(1, 2, 3), 1 + 0.1 * 2);
    expectClose(ppoTotalLoss(1, 2, 3, 0.5, 0.01), 1 + 1 - 0.03);
  });

  it("adaptive KL: unchanged at the target, each step's change clipped to ±0.2·n/horizon", () => {
    expect(adaptiveKlBeta(0.1, 6, 64)).toBe(0.1);
    expectClose(adaptiveKlBeta(0.1, 600, 100, 6, 1000), 0.1 * (1 + 0.02));
    expectClose(adaptiveKlBeta(0.1, 0, 100, 6, 1000), 0.1 * (1 - 0.02));
    expect(() => adaptiveKlBeta(0, 1, 1)).toThrow(/beta/);
  });
});

describe("GRPO", () => {
  it("loss gradient matches finite differences for every loss_type, with the k3 term and ρ ≠ 1", () => {
    const d = randomBatch(11, 6, 8);
    const shape = { B: d.B, T: d.T, mask: d.mask };
    const adv = grpoAdvantages([1, 0, 0.5, 0.2, 0.2, 0.9], 3).advantages;
    for (const lossType of ["grpo", "dapo", "dr_grpo"] as GrpoLossType[]) {
      const opts = { epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04, lossType, maxCompletionLength: 8 };
      const out = grpoLossAndGrad(d.logp, d.logpOld, d.logpRef, adv, shape, opts);
      expect(out.metrics["clip_ratio/region_mean"]).toBeGreaterThan(0);
      expectGradMatchesFd(
        (x) => grpoLossAndGrad(x, d.logpOld, d.logpRef, adv, shape, opts).loss,
        d.logp,
        out.dlogp,
        `dlogp (${lossType})`,
      );
      // The loss is the aggregation of the per-token losses it reports.
      expectClose(aggregateTokenLoss(out.perTokenLoss, shape, lossType, 8).loss, out.loss, lossType);
    }
  });

  it("equal-score groups: zero advantage, zero gradient (β = 0), finite metrics", () => {
    const scores = [0.5, 0.5, 0.5, 1, 0, 1, 0.1 + 0.2, 0.1 + 0.2, 0.1 + 0.2];
    for (const mode of ["group", "batch", "none"] as const) {
      const a = grpoAdvantages(scores, 3, mode);
      expect(Array.from(a.advantages.subarray(0, 3))).toEqual([0, 0, 0]);
      expect(Array.from(a.advantages.subarray(6, 9))).toEqual([0, 0, 0]);
      expect(Object.values(a.metrics).every(Number.isFinite)).toBe(true);
      expectClose(a.metrics.frac_reward_zero_std, 2 / 3);
    }
    const all = grpoAdvantages([2, 2, 2, 2], 2, "batch");
    expect(Array.from(all.advantages)).toEqual([0, 0, 0, 0]);
    expect(all.metrics).toEqual({ reward: 2, reward_std: 0, frac_reward_zero_std: 1 });

    const d = randomBatch(13, 9, 5);
    const shape = { B: 9, T: 5, mask: d.mask };
    const adv = grpoAdvantages(scores, 3).advantages;
    const out = grpoLossAndGrad(d.logp, d.logpOld, null, adv, shape, { beta: 0 });
    for (const b of [0, 1, 2, 6, 7, 8])
      for (let t = 0; t < 5; t++) expect(out.dlogp[b * 5 + t] === 0).toBe(true);
    expect(out.dlogp.every(Number.isFinite)).toBe(true);
    expect(out.metrics.kl).toBeNull();
    // With β > 0 only the KL term moves equal-score completions: dℓ/dlogπ = β(1 − π_ref/π_θ) per token.
    const withKl = grpoLossAndGrad(d.logp, d.logpOld, d.logpRef, adv, shape, {
      beta: 0.04,
      lossType: "dapo",
    });
    const n = counted(d.mask, d.mask).length;
    for (let t = 0; t < 5; t++) {
      const i = t; // row 0
      const expected = d.mask[i] ? (0.04 * (1 - Math.exp(d.logpRef[i] - d.logp[i]))) / n : 0;
      expectClose(withKl.dlogp[i], expected, `row 0, t = ${t}`);
    }
  });

  it("widening padding and NaN in masked slots change nothing, for every loss_type", () => {
    const rows = [[-1, -0.5, -2], [-0.2], [-3, -1]];
    const old = [[-1.1, -0.4, -2.3], [-0.25], [-2.8, -1]];
    const ref = [[-0.9, -0.6, -2.1], [-0.3], [-3.2, -1.1]];
    const adv = [1.2, -0.4, 0.7];
    for (const lossType of ["grpo", "dapo", "dr_grpo"] as GrpoLossType[]) {
      const opts = { lossType, maxCompletionLength: 4, epsilonHigh: 0.28 };
      const narrow = [rows, old, ref].map((r) => padRows(r, 3, 0));
      const a = grpoLossAndGrad(
        narrow[0].x,
        narrow[1].x,
        narrow[2].x,
        adv,
        { B: 3, T: 3, mask: narrow[0].mask },
        opts,
      );
      const wide = [rows, old, ref].map((r) => padRows(r, 7, Number.NaN, [4, 0, 2]));
      const b = grpoLossAndGrad(
        wide[0].x,
        wide[1].x,
        wide[2].x,
        adv,
        { B: 3, T: 7, mask: wide[0].mask },
        opts,
      );
      expectClose(b.loss, a.loss, lossType, 1e-15);
      expectAllClose(counted(b.dlogp, wide[0].mask), counted(a.dlogp, narrow[0].mask), lossType, 1e-15);
      expect(b.dlogp.every(Number.isFinite) && b.perTokenLoss.every(Number.isFinite)).toBe(true);
      expect(Object.values(b.metrics).every((v) => v === null || Number.isFinite(v))).toBe(true);
    }
  });

  it("reward_std is the batch's sample std under batch scaling, the groups' mean std under group scaling", () => {
    const scores = [0, 1, 5, 9, 2, 2.5];
    const sd = (x: number[]) => {
      const mu = x.reduce((a, v) => a + v, 0) / x.length;
      return Math.sqrt(x.reduce((a, v) => a + (v - mu) ** 2, 0) / (x.length - 1));
    };
    expectClose(grpoAdvantages(scores, 2, "batch").metrics.reward_std, sd(scores));
    const groups = [scores.slice(0, 2), scores.slice(2, 4), scores.slice(4)];
    expectClose(
      grpoAdvantages(scores, 2, "group").metrics.reward_std,
      groups.map(sd).reduce((a, v) => a + v) / 3,
    );
  });

  it("kl is the mean k3 over counted tokens (not over completions)", () => {
    const logp = padRows([[-1, -2, -0.5], [-0.7]], 3);
    const ref = padRows([[-1.3, -1.5, -0.5], [-0.2]], 3);
    const shape = { B: 2, T: 3, mask: logp.mask };
    const out = grpoLossAndGrad(logp.x, null, ref.x, [1, -1], shape, { beta: 0.04 });
    const k3 = (ell: number) => Math.exp(ell) - 1 - ell;
    const want = (k3(-0.3) + k3(0.5) + k3(0) + k3(0.5)) / 4;
    expectClose(out.metrics.kl ?? Number.NaN, want);
  });

  it("ρ = 1 (μ = 1, logpOld null) gives no clipping", () => {
    const d = randomBatch(17, 4, 6);
    const out = grpoLossAndGrad(d.logp, null, d.logpRef, [1, -1, 0.5, 0], { B: 4, T: 6, mask: d.mask });
    expect(out.metrics["policy/clipfrac_avg"]).toBe(0);
    expect(out.metrics["clip_ratio/region_mean"]).toBe(0);
  });

  it("rejects what it cannot aggregate or scale, with a clear message", () => {
    expect(() => grpoAdvantages([1, 2, 3], 1)).toThrow(/at least 2/);
    expect(() => grpoAdvantages([1, 2, 3], 2)).toThrow(/whole number of groups/);
    expect(() => grpoAdvantages([1, Number.NaN], 2)).toThrow(/scores\[1\]/);
    const shape = { B: 1, T: 3, mask: [1, 1, 1] };
    expect(() => aggregateTokenLoss([1, 2, 3], shape, "dr_grpo")).toThrow(/max_completion_length/);
    expect(() => aggregateTokenLoss([1, 2, 3], shape, "dr_grpo", 2)).toThrow(
      /more than max_completion_length/,
    );
    expect(() => grpoLossAndGrad([-1, -1, -1], null, null, [1], shape, { beta: 0.04 })).toThrow(/logpRef/);
  });
});
