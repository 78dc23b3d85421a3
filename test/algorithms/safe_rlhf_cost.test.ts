/**
 * Safe RLHF with a task's cost (env.costs) instead of the completion length: the run scores every completion with
 * the cost source, charts its mean as safe/cost, updates λ from it, and refuses a cost the task lacks. The
 * sentiment task's cost counts positive lexicon words.
 */
import { describe, expect, it } from "vitest";
import type { CostSource, RewardSample } from "../../src/algorithms/reward";
import { SafeRlhfRun } from "../../src/algorithms/safe_rlhf";
import { POSITIVE_WORDS } from "../../src/tasks/sentiment";
import { NANO_COSTS, nanoEnv, REWARD_TOKEN } from "../helpers/nano_env";

/** NANO_COSTS' reward-token count, recording what it was asked to score. */
function recorded(calls: RewardSample[][]): CostSource {
  const inner = NANO_COSTS.positive_words;
  return {
    ...inner,
    cost(samples) {
      calls.push([...samples]);
      return inner.cost(samples);
    },
  };
}

describe("Safe RLHF with a task's cost", () => {
  it("charts the cost source's mean as safe/cost and moves λ by it", async () => {
    const calls: RewardSample[][] = [];
    const env = { ...(await nanoEnv(3)), costs: { positive_words: recorded(calls) } };
    const run = new SafeRlhfRun(env, {
      cost: "positive_words",
      batchPrompts: 2,
      numGenerations: 4,
      maxNewTokens: 6,
      costLimit: 0,
      lambdaLr: 0.5,
    });
    const m = (await run.step()).metrics;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(8);
    const costs = calls[0].map((s) => s.completion.filter((t) => t === REWARD_TOKEN).length);
    const mean = costs.reduce((a, v) => a + v, 0) / costs.length;
    console.log(`Safe RLHF cost source: per-completion ${costs.join(" ")}, mean ${mean}, λ → ${run.lambda}`);
    expect(m["safe/cost"]).toBe(mean);
    expect(m["safe/lambda"]).toBe(0);
    // λ ← max(0, 0 + η(mean c − 0)).
    expect(run.lambda).toBeCloseTo(0.5 * mean, 12);
    // The completions the cost saw are the rollout's: their lengths give the logged mean length.
    const lengths = calls[0].map((s) => s.completion.length);
    expect(m["completions/mean_length"]).toBeCloseTo(lengths.reduce((a, v) => a + v, 0) / lengths.length, 12);
    run.destroy();
  });

  it("refuses a cost the task does not define, at creation and as a new setting", async () => {
    const env = await nanoEnv(4);
    expect(() => new SafeRlhfRun(env, { cost: "positive_words" })).toThrow(
      'Safe RLHF: this task has no cost "positive_words" (it has: length)',
    );
    const run = new SafeRlhfRun(env, { batchPrompts: 2, numGenerations: 2, maxNewTokens: 2 });
    expect(() => run.setConfig({ cost: "positive_words" })).toThrow(/no cost "positive_words"/);
    expect(run.config.cost).toBe("length");
    run.destroy();
  });
});

describe("the sentiment task's cost", () => {
  it("counts positive AFINN-165 hits, not negative or neutral words", () => {
    expect(POSITIVE_WORDS.cost("", "")).toBe(0);
    expect(POSITIVE_WORDS.cost("", "I love this happy day, not bad")).toBe(2);
    expect(POSITIVE_WORDS.cost("", "the whale and the sea")).toBe(0);
    expect(POSITIVE_WORDS.cost("", "Good, good, GOOD!")).toBe(3);
    expect(POSITIVE_WORDS.cost("", "terrible awful sad")).toBe(0);
  });
});

describe("Safe RLHF's reward statistics", () => {
  it("reward, reward_std and frac_reward_zero_std describe R; objective/score… the penalised score s = R − λc", async () => {
    const env = await nanoEnv(5);
    const G = 2;
    const run = new SafeRlhfRun(env, {
      batchPrompts: 3,
      numGenerations: G,
      maxNewTokens: 6,
      costLimit: 0,
      lambdaLr: 0.5,
    });
    for (let i = 0; i < 3; i++) {
      const res = await run.step();
      const m = res.metrics;
      const R = res.rollout?.reward;
      if (!R) throw new Error("no rollout");
      // The group statistics by hand: sample std (n − 1) per group, mean over groups; a group is flat when tied.
      const stats = (x: ArrayLike<number>) => {
        let stdSum = 0;
        let flat = 0;
        for (let g = 0; g < x.length / G; g++) {
          const v = Array.from({ length: G }, (_, j) => x[g * G + j]);
          const mu = v.reduce((a, b) => a + b) / G;
          stdSum += Math.sqrt(v.reduce((a, b) => a + (b - mu) ** 2, 0) / (G - 1));
          if (v.every((y) => y === v[0])) flat++;
        }
        const n = x.length / G;
        return { mean: Array.from(x).reduce((a, b) => a + b) / x.length, std: stdSum / n, flat: flat / n };
      };
      const r = stats(R);
      const sc = stats(res.scores ?? []);
      expect(m.reward).toBeCloseTo(r.mean, 12);
      expect(m.reward_std).toBeCloseTo(r.std, 12);
      expect(m.frac_reward_zero_std).toBeCloseTo(r.flat, 12);
      expect(m["objective/score"]).toBeCloseTo(sc.mean, 12);
      expect(m["objective/score_std"]).toBeCloseTo(sc.std, 12);
      expect(m["objective/frac_score_zero_std"]).toBeCloseTo(sc.flat, 12);
    }
    run.destroy();
  });
});
