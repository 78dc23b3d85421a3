/**
 * A step whose reward failed while scoring (a reward model stopped at its time limit, say) leaves the run as it
 * was: its step count included (src/lab/sched_step.ts then offers "Try the step again"). Tried again, the step is
 * the one it would have been — same prompts, same samples, same update — as in a run where nothing failed.
 */
import { describe, expect, it } from "vitest";
import type { ConfigValues } from "../../src/algorithms/fields";
import { ReinforceRun } from "../../src/algorithms/reinforce";
import type { RewardSource } from "../../src/algorithms/reward";
import type { AlgorithmRun, Metrics, RunEnv } from "../../src/algorithms/run";
import { ALGO_IDS, ALGORITHMS, type AlgoId } from "../../src/lab/registry";
import { PREFS, smallConfig } from "../helpers/every_algorithm";
import { NANO_COSTS, nanoEnv } from "../helpers/nano_env";

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

/** Test-sized settings, with a learning rate that moves the policy where the algorithm has one. */
const small = (id: AlgoId, more: ConfigValues = {}): ConfigValues => ({
  ...smallConfig(id),
  ...(ALGORITHMS[id].fields.some((f) => f.key === "lr") ? { lr: 1e-3 } : {}),
  ...more,
});

/**
 * [name, run, the reward call that fails: step 2's (default 2; ReMax scores twice a step: 3 and 4)]: every
 * registry algorithm at its test size (a new one is tried here with nothing to add), DPO online too.
 */
const RUNS: [string, (env: RunEnv) => AlgorithmRun, number?][] = [
  ...ALGO_IDS.map(
    (id) =>
      [id, (env: RunEnv) => ALGORITHMS[id].create(env, small(id), PREFS)] as [
        string,
        (env: RunEnv) => AlgorithmRun,
      ],
  ),
  ["dpo online", (env) => ALGORITHMS.dpo.create(env, small("dpo", { mode: "online" }), PREFS)],
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
      const plain = make({ ...(await nanoEnv(5)), costs: NANO_COSTS });
      const want = [untimed((await plain.step()).metrics), untimed((await plain.step()).metrics)];
      plain.destroy();

      const env = { ...(await nanoEnv(5)), costs: NANO_COSTS };
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
