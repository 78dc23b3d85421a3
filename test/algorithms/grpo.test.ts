import { describe, expect, it } from "vitest";
import { GrpoRun } from "../../src/algorithms/grpo";
import { tokenShareReward } from "../../src/algorithms/reward";
import { type RunEnv, shuffledPrompts } from "../../src/algorithms/run";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { testGpu } from "../helpers/gpu";

/** nano (V = 16) with a synthetic reward: the share of token 7 in the completion; EOS = 0. */
export async function nanoEnv(seed = 1, withRef = true): Promise<RunEnv> {
  const ctx = await testGpu();
  const config = preset("nano", { vocabSize: 16 });
  const rng = new Rng(seed);
  const init = initParams(paramLayout(config), () => rng.normal());
  const prompts = Array.from({ length: 32 }, () =>
    Array.from({ length: rng.int(1, 3) }, () => rng.int(1, 15)),
  );
  return {
    ctx,
    policy: new GptWeights(ctx, config, init),
    ref: withRef ? new GptWeights(ctx, config, init) : null,
    prompts: shuffledPrompts(prompts, seed),
    reward: tokenShareReward(7),
    gold: tokenShareReward(7),
    eosId: 0,
    padId: 15,
    seed,
  };
}

describe("GRPO", () => {
  it("raises a trivially learnable reward on nano (fixed seed), with ρ = 1 on the first update", async () => {
    const env = await nanoEnv(1);
    const run = new GrpoRun(env, {
      lr: 3e-3,
      batchPrompts: 4,
      numGenerations: 4,
      maxNewTokens: 8,
      beta: 0.04,
    });
    const rewards: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { metrics } = await run.step();
      if (i === 0) {
        expect(metrics["val/ratio"]).toBe(1);
        expect(metrics["policy/clipfrac_avg"]).toBe(0);
      }
      rewards.push(metrics.reward);
    }
    const first = rewards.slice(0, 5).reduce((a, b) => a + b) / 5;
    const last = rewards.slice(-5).reduce((a, b) => a + b) / 5;
    console.log(`GRPO reward: first 5 steps ${first.toFixed(3)} → last 5 steps ${last.toFixed(3)}`);
    expect(last).toBeGreaterThan(first + 0.2);
    run.destroy();
  });
});
