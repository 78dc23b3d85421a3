/**
 * A step whose reward failed while scoring (a reward model stopped at its time limit, say) leaves the run as it
 * was: its step count included (src/lab/sched_step.ts then offers "Try the step again"). Tried again, the step is
 * the one it would have been — same prompts, same samples, same update — as in a run where nothing failed.
 */
import { describe, expect, it } from "vitest";
import { BestOfNRun } from "../../src/algorithms/best_of_n";
import { DpoRun } from "../../src/algorithms/dpo";
import { GrpoRun } from "../../src/algorithms/grpo";
import { KtoRun } from "../../src/algorithms/kto";
import { PpoRun } from "../../src/algorithms/ppo";
import { ReinforceRun } from "../../src/algorithms/reinforce";
import type { RewardSource } from "../../src/algorithms/reward";
import type { AlgorithmRun, Metrics, RunEnv } from "../../src/algorithms/run";
import { nanoEnv } from "../helpers/nano_env";

/** `source` whose `failOn`-th call (1-based) throws. */
function failingOnce(source: RewardSource, failOn: number): RewardSource {
  let calls = 0;
  return {
    name: source.name,
    score: (samples) => {
      if (++calls === failOn) return Promise.reject(new Error("the reward model took longer than 20 s"));
      return source.score(samples);
    },
  };
}

/** Metrics without the timings (which differ between any two steps). */
const untimed = (m: Metrics) => Object.fromEntries(Object.entries(m).filter(([k]) => !/time|\/s$/.test(k)));

/** [name, run, the reward call that fails: step 2's (default 2; ReMax scores twice a step: 3 and 4)]. */
const RUNS: [string, (env: RunEnv) => AlgorithmRun, number?][] = [
  ["GRPO", (env) => new GrpoRun(env, { batchPrompts: 2, numGenerations: 2, maxNewTokens: 5, lr: 1e-3 })],
  ["PPO", (env) => new PpoRun(env, { batchPrompts: 2, maxNewTokens: 5, lr: 1e-3 })],
  [
    "DPO online",
    (env) => new DpoRun(env, null, { mode: "online", batchPairs: 2, maxNewTokens: 5, lr: 1e-3 }),
  ],
  ["best-of-n", (env) => new BestOfNRun(env, { batchPrompts: 2, n: 2, maxNewTokens: 5 })],
  ["KTO", (env) => new KtoRun(env, { batchPrompts: 2, maxNewTokens: 5, lr: 1e-3 })],
  ...([3, 4] as const).map(
    (failOn) =>
      [
        `REINFORCE with ReMax's greedy baseline (reward call ${failOn}: the ${failOn === 3 ? "samples'" : "greedy answers'"})`,
        (env: RunEnv) =>
          new ReinforceRun(env, {
            batchPrompts: 2,
            maxNewTokens: 5,
            lr: 1e-3,
            baseline: "greedy",
            beta: 0.1,
          }),
        failOn,
      ] as [string, (env: RunEnv) => AlgorithmRun, number],
  ),
];

describe("a step whose reward failed, tried again, is the step it would have been", () => {
  for (const [name, make, failOn = 2] of RUNS)
    it(name, async () => {
      const plain = make(await nanoEnv(5));
      const want = [untimed((await plain.step()).metrics), untimed((await plain.step()).metrics)];
      plain.destroy();

      const env = await nanoEnv(5);
      env.reward = failingOnce(env.reward, failOn);
      const run = make(env);
      expect(untimed((await run.step()).metrics)).toEqual(want[0]);
      await expect(run.step()).rejects.toThrow(/took longer than 20 s/);
      expect(run.stepsDone, "the failed step is not counted").toBe(1);
      const again = await run.step();
      expect(again.step).toBe(2);
      expect(untimed(again.metrics)).toEqual(want[1]);
      run.destroy();
    });
});
