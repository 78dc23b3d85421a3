/**
 * The Samples and Tokens axes count every completion a step generates, whoever generates it: ReMax's greedy
 * answers (one per prompt, scored for its baseline) count beside the sampled ones, so a ReMax run and a plain
 * REINFORCE run at the same x have generated as much. Checked against what the reward source was asked to score.
 */
import { describe, expect, it } from "vitest";
import { ReinforceRun } from "../../src/algorithms/reinforce";
import type { RewardSample } from "../../src/algorithms/reward";
import { nanoEnv } from "../helpers/nano_env";

describe("samples and tokens of a step", () => {
  for (const baseline of ["moving_average", "greedy"] as const)
    it(`REINFORCE (${baseline} baseline): every completion scored is counted`, async () => {
      const env = await nanoEnv(3);
      const scored: RewardSample[][] = [];
      const reward = env.reward;
      env.reward = {
        name: reward.name,
        score: (samples) => {
          scored.push([...samples]);
          return reward.score(samples);
        },
      };
      const run = new ReinforceRun(env, { batchPrompts: 3, maxNewTokens: 5, baseline });
      const { metrics } = await run.step();
      run.destroy();
      expect(scored).toHaveLength(baseline === "greedy" ? 2 : 1);
      const all = scored.flat();
      expect(metrics.samples).toBe(all.length);
      expect(metrics.tokens).toBe(all.reduce((a, s) => a + s.completion.length, 0));
      expect(metrics.samples).toBe(baseline === "greedy" ? 6 : 3);
    });
});
