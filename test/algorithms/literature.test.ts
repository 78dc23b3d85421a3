import { describe, expect, it } from "vitest";
import { ExpertIterationRun, keptCompletions } from "../../src/algorithms/expert_iteration";
import { KtoRun } from "../../src/algorithms/kto";
import { lagrangeMultiplierUpdate, pidLagrangeMultiplier } from "../../src/algorithms/math/safe_rlhf";
import { OrpoRun } from "../../src/algorithms/orpo";
import type { AlgorithmRun } from "../../src/algorithms/run";
import { SafeRlhfRun } from "../../src/algorithms/safe_rlhf";
import { winRate } from "../../src/algorithms/win_rate";
import { nanoEnv } from "../helpers/nano_env";

const STEPS = 25;

async function gain(
  make: (env: Awaited<ReturnType<typeof nanoEnv>>) => AlgorithmRun,
  name: string,
  seed: number,
) {
  const env = await nanoEnv(seed);
  const run = make(env);
  const rewards: number[] = [];
  for (let i = 0; i < STEPS; i++) rewards.push((await run.step()).metrics.reward);
  const avg = (x: number[]) => x.reduce((a, b) => a + b) / x.length;
  const a = avg(rewards.slice(0, 5));
  const b = avg(rewards.slice(-5));
  console.log(`${name} reward: ${a.toFixed(3)} → ${b.toFixed(3)}`);
  run.destroy();
  return b - a;
}

describe("more of the literature on nano with a learnable reward (fixed seed)", () => {
  it("expert iteration raises the reward", async () => {
    expect(
      await gain(
        (env) =>
          new ExpertIterationRun(env, { lr: 3e-3, batchPrompts: 4, k: 4, maxNewTokens: 8, sftSteps: 2 }),
        "expert iteration",
        11,
      ),
    ).toBeGreaterThan(0.1);
  });
  it("KTO raises the reward", async () => {
    expect(
      await gain(
        (env) => new KtoRun(env, { lr: 3e-3, batchPrompts: 8, maxNewTokens: 8, flipRate: 0, beta: 0.5 }),
        "KTO",
        12,
      ),
    ).toBeGreaterThan(0.1);
  });
  it("ORPO raises the reward", async () => {
    expect(
      await gain(
        (env) => new OrpoRun(env, { lr: 3e-3, batchPairs: 8, maxNewTokens: 8, flipRate: 0, lambda: 1 }),
        "ORPO",
        13,
      ),
    ).toBeGreaterThan(0.1);
  });
});

describe("expert iteration logs its fine-tuning loss", () => {
  it("loss = mean −log π_θ(y_t) over the kept tokens (TRL SFTTrainer's loss), no −1 surrogate", async () => {
    const env = await nanoEnv(21);
    const c = { lr: 3e-3, batchPrompts: 3, k: 4, maxNewTokens: 6, sftSteps: 1 };
    const run = new ExpertIterationRun(env, c);
    for (let step = 0; step < 3; step++) {
      const res = await run.step();
      const r = res.rollout;
      if (!r) throw new Error("no rollout");
      // One SFT step a round: its forward pass is the sampling policy's, so the loss is the kept tokens'
      // mean −log π_old, read from the rollout (an independent path: the sampler's log-probs).
      const kept = keptCompletions(r.reward, c.k, "best", 0);
      let sum = 0;
      let n = 0;
      for (let i = 0; i < r.logpOld.length; i++)
        if (r.seq.completionMask[i] && kept[Math.floor(i / r.seq.S)]) {
          sum -= r.logpOld[i];
          n++;
        }
      const want = sum / n;
      const got = res.metrics.loss;
      console.log(`expert iteration step ${step + 1}: loss ${got.toFixed(5)}, sampler's ${want.toFixed(5)}`);
      expect(got).toBeGreaterThan(0);
      expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-4 + 1e-3 * want);
      for (const k of ["loss/policy_avg", "val/ratio", "clip_ratio/region_mean", "kl_coef"])
        expect(res.metrics[k], k).toBeUndefined();
    }
    run.destroy();
  });
});

describe("expert iteration keeps exactly the intended samples", () => {
  it("best of each group, or everything at or above the threshold", () => {
    expect([...keptCompletions([0.1, 0.9, 0.5, 0.2, 0.2, 0.7], 3, "best", 0)]).toEqual([0, 1, 0, 0, 0, 1]);
    expect([...keptCompletions([0.1, 0.9, 0.5, 0.2, 0.2, 0.7], 3, "threshold", 0.5)]).toEqual([
      0, 1, 1, 0, 0, 1,
    ]);
    // Ties keep the first of the group (the samples are i.i.d., so that is a uniform choice).
    expect([...keptCompletions([0.3, 0.3], 2, "best", 0)]).toEqual([1, 0]);
  });
});

describe("Safe RLHF's Lagrange multiplier", () => {
  it("rises while the cost exceeds its limit and falls to 0 when it stays below", () => {
    let lambda = 0;
    for (let i = 0; i < 5; i++) lambda = lagrangeMultiplierUpdate(lambda, [12, 10], 8, 0.1);
    expect(lambda).toBeCloseTo(5 * 0.1 * 3, 12);
    for (let i = 0; i < 100; i++) lambda = lagrangeMultiplierUpdate(lambda, [2, 4], 8, 0.1);
    expect(lambda).toBe(0);
  });

  it("with a proportional term K_P, answers the last excess at once and keeps the integral's rule", () => {
    expect(pidLagrangeMultiplier(0.3, 5, 0)).toBe(0.3); // K_P = 0: the spec's rule
    expect(pidLagrangeMultiplier(0.3, 5, 0.02)).toBeCloseTo(0.4, 15);
    expect(pidLagrangeMultiplier(0.3, -5, 0.02)).toBeCloseTo(0.2, 15);
    expect(pidLagrangeMultiplier(0.05, -10, 0.02)).toBe(0); // projected onto λ ≥ 0
    expect(() => pidLagrangeMultiplier(-0.1, 0, 0.02)).toThrow(/integral/);
    expect(() => pidLagrangeMultiplier(0, Number.NaN, 0.02)).toThrow(/excess/);
    expect(() => pidLagrangeMultiplier(0, 1, -1)).toThrow(/kp/);
  });

  it("a run's step scores with λ = max(0, λ_I + K_P·(its mean cost − d)); λ_I follows the spec", async () => {
    const env = await nanoEnv(15);
    const config = {
      batchPrompts: 2,
      numGenerations: 2,
      maxNewTokens: 6,
      lr: 3e-3,
      costLimit: 3,
      lambdaLr: 0.05,
    };
    const run = new SafeRlhfRun(env, { ...config, lambdaKp: 0.2 });
    let integral = 0;
    const pTerm: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await run.step();
      const m = res.metrics;
      const want = Math.max(0, integral + 0.2 * (m["safe/cost"] - 3));
      expect(m["safe/lambda"]).toBeCloseTo(want, 12);
      expect(m["safe/lambda_integral"]).toBeCloseTo(integral, 12);
      pTerm.push(m["safe/lambda"] - integral);
      // The advantages came from R − λ·c with that λ (the cost here is the completion length).
      const r = res.rollout as NonNullable<typeof res.rollout>;
      const lengths = r.seq.lengths;
      for (let b = 0; b < lengths.length; b++)
        expect(res.scores?.[b]).toBeCloseTo(r.reward[b] - m["safe/lambda"] * lengths[b], 12);
      integral = Math.max(0, integral + 0.05 * (m["safe/cost"] - 3));
      expect(run.lambda).toBeCloseTo(integral, 12);
    }
    console.log(
      `Safe RLHF K_P 0.2: proportional part of λ per step ${pTerm.map((p) => p.toFixed(3)).join(" ")}`,
    );
    expect(pTerm.some((p) => Math.abs(p) > 1e-6)).toBe(true);
    // K_P = 0 on the same seed: the step's λ is exactly the spec's λ_I.
    const plain = new SafeRlhfRun(await nanoEnv(15), { ...config, lambdaKp: 0 });
    let lambda = 0;
    for (let i = 0; i < 3; i++) {
      const m = (await plain.step()).metrics;
      expect(m["safe/lambda"]).toBe(lambda);
      lambda = lagrangeMultiplierUpdate(lambda, [m["safe/cost"]], 3, 0.05);
      expect(plain.lambda).toBeCloseTo(lambda, 12);
    }
    plain.destroy();
    run.destroy();
  });

  it("pulls the completion length towards the limit in a run", async () => {
    const env = await nanoEnv(14);
    const run = new SafeRlhfRun(env, {
      lr: 3e-3,
      batchPrompts: 4,
      numGenerations: 4,
      maxNewTokens: 8,
      costLimit: 3,
      lambdaLr: 0.05,
      beta: 0,
    });
    const rows = [];
    for (let i = 0; i < 20; i++) rows.push((await run.step()).metrics);
    const costFirst = rows.slice(0, 4).reduce((a, m) => a + m["safe/cost"], 0) / 4;
    const costLast = rows.slice(-4).reduce((a, m) => a + m["safe/cost"], 0) / 4;
    console.log(
      `Safe RLHF: cost ${costFirst.toFixed(2)} → ${costLast.toFixed(2)} (limit 3), λ ${rows[0]["safe/lambda"]} → ${run.lambda.toFixed(3)}`,
    );
    expect(rows.some((m) => m["safe/lambda"] > 0)).toBe(true);
    expect(costLast).toBeLessThan(costFirst);
    run.destroy();
  });
});

describe("win rate", () => {
  it("of a model against itself is ½, inside its confidence interval", () => {
    const a = [0.1, 0.5, 0.9, 0.3];
    const w = winRate(a, a);
    expect(w.winRate).toBe(0.5);
    expect(w.ties).toBe(4);
    const x = [0.2, 0.8, 0.4, 0.6, 0.1, 0.9, 0.5, 0.3];
    const y = [0.8, 0.2, 0.6, 0.4, 0.9, 0.1, 0.3, 0.5];
    const r = winRate(x, y);
    expect(r.winRate).toBe(0.5);
    // 4 wins, 4 losses: outcome variance 8·¼/7, half-width 1.96·√(0.2857/8) = 0.3704 (normal approximation).
    expect(r.ci95[0]).toBeCloseTo(0.5 - 1.96 * Math.sqrt(2 / 7 / 8), 12);
    expect(r.ci95[1]).toBeCloseTo(0.5 + 1.96 * Math.sqrt(2 / 7 / 8), 12);
    expect(r.ci95[0]).toBeCloseTo(0.1296, 4);
    // 3 wins, 1 tie (½), 1 loss: mean 0.7, variance (3·0.09 + 0.04 + 0.49)/4 = 0.2, half-width 1.96·√(0.2/5) =
    // 0.392; the upper end is clipped to 1.
    const m = winRate([2, 2, 2, 1, 0], [1, 1, 1, 1, 1]);
    expect([m.wins, m.ties, m.losses]).toEqual([3, 1, 1]);
    expect(m.winRate).toBeCloseTo(0.7, 12);
    expect(m.ci95[0]).toBeCloseTo(0.308, 12);
    expect(m.ci95[1]).toBe(1);
    expect(() => winRate([], [])).toThrow(RangeError);
  });
});
