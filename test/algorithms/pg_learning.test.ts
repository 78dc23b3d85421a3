import { describe, expect, it } from "vitest";
import { GrpoRun } from "../../src/algorithms/grpo";
import { ReinforceRun } from "../../src/algorithms/reinforce";
import { RlooRun } from "../../src/algorithms/rloo";
import type { AlgorithmRun } from "../../src/algorithms/run";
import { nanoEnv, unchangedTensors } from "../helpers/nano_env";

const STEPS = 30;
/** Mean reward of the last 5 steps must beat the first 5 by this much (reward ∈ [0, 1], starts ≈ 0.07). */
const MIN_GAIN = 0.15;

async function learn(
  make: (env: Awaited<ReturnType<typeof nanoEnv>>) => AlgorithmRun,
  name: string,
  ratioMetric = "val/ratio",
) {
  const env = await nanoEnv(1);
  const run = make(env);
  const rewards: number[] = [];
  const first = await run.step();
  rewards.push(first.metrics.reward);
  // Every LM parameter tensor moved after one step; ρ = 1 on a fresh batch.
  expect(unchangedTensors(env, env.init, await env.policy.download())).toEqual([]);
  expect(first.metrics[ratioMetric]).toBe(1);
  if (ratioMetric === "val/ratio") expect(first.metrics["policy/clipfrac_avg"]).toBe(0);
  // PPO's val/ratio (TRL's) averages every minibatch of its μ epochs: after the first update ρ ≠ 1.
  else {
    expect(Number.isFinite(first.metrics["val/ratio"])).toBe(true);
    expect(first.metrics["val/ratio"]).not.toBe(1);
  }
  for (let i = 1; i < STEPS; i++) rewards.push((await run.step()).metrics.reward);
  const avg = (x: number[]) => x.reduce((a, b) => a + b) / x.length;
  const a = avg(rewards.slice(0, 5));
  const b = avg(rewards.slice(-5));
  console.log(`${name} reward: first 5 steps ${a.toFixed(3)} → last 5 steps ${b.toFixed(3)}`);
  expect(b).toBeGreaterThan(a + MIN_GAIN);
  run.destroy();
  env.policy.destroy();
  env.ref?.destroy();
}

describe("sequence-level policy gradient on nano with a learnable reward (fixed seed)", () => {
  it("GRPO raises the reward", () =>
    learn(
      (env) => new GrpoRun(env, { lr: 3e-3, batchPrompts: 4, numGenerations: 4, maxNewTokens: 8 }),
      "GRPO",
    ));
  it("RLOO raises the reward", () =>
    learn(
      (env) => new RlooRun(env, { lr: 3e-3, batchPrompts: 4, numGenerations: 4, maxNewTokens: 8 }),
      "RLOO",
    ));
  it("REINFORCE raises the reward", () =>
    learn((env) => new ReinforceRun(env, { lr: 3e-3, batchPrompts: 16, maxNewTokens: 8 }), "REINFORCE"));
  // At τ = 1 nano's greedy answer soon scores 1 (all reward tokens) while its samples average ~0.2: every
  // advantage is negative and 30 steps reach 0.07 → 0.21 (unbiased but noisy). At τ = 0.5 the samples are near
  // the greedy answer, the baseline ReMax assumes: 0.10 → 0.85 (0.05 → 0.99 with the moving average).
  it("REINFORCE with ReMax's greedy baseline raises the reward", () =>
    learn(
      (env) =>
        new ReinforceRun(env, {
          lr: 3e-3,
          batchPrompts: 16,
          maxNewTokens: 8,
          baseline: "greedy",
          temperature: 0.5,
        }),
      "ReMax",
    ));
});

/**
 * PPO steps cost 2 epochs × 2 minibatches (and, with a separate value model, a second transformer): ~90 s and
 * ~130 s on SwiftShader on a loaded 2-core machine. The limit guards against a hang, not speed (benchmarks
 * measure speed).
 */
const PPO_TEST_TIMEOUT_MS = 300_000;
/** The settings both PPO learning tests share (they differ only in the value model). */
const PPO_LEARN = {
  lr: 3e-3,
  batchPrompts: 16,
  maxNewTokens: 8,
  ppoEpochs: 2,
  numMiniBatches: 2,
  beta: 0.01,
};

describe("PPO on nano with a learnable reward (fixed seed)", () => {
  it(
    "raises the reward with value head, GAE, whitening, 2 epochs × 2 minibatches",
    async () => {
      const { PpoRun } = await import("../../src/algorithms/ppo");
      await learn((env) => new PpoRun(env, PPO_LEARN), "PPO", "val/ratio_first");
    },
    PPO_TEST_TIMEOUT_MS,
  );
  it(
    "raises the reward with a separate value model (same settings)",
    async () => {
      const { PpoRun } = await import("../../src/algorithms/ppo");
      await learn(
        (env) => new PpoRun(env, { ...PPO_LEARN, valueModel: "separate" }),
        "PPO (separate value model)",
        "val/ratio_first",
      );
    },
    PPO_TEST_TIMEOUT_MS,
  );
});
