/**
 * PPO stops on NaN weights as every other algorithm does, naming the quantity and the step ("grad_norm became
 * NaN at step 1; the run was stopped"), not internal arrays and slots ("values at (b = 0, t = 0) must be finite
 * on a counted token, got NaN", a reviewer's catalogue of messages).
 */
import { expect, it } from "vitest";
import { PpoRun } from "../../src/algorithms/ppo";
import { NonFiniteMetricError } from "../../src/algorithms/run";
import { GptWeights } from "../../src/model/weights";
import { nanoEnv } from "../helpers/nano_env";

it("PPO on NaN weights: a non-finite quantity named in the lab's words, and the step", async () => {
  const env = await nanoEnv(3);
  env.policy = new GptWeights(env.ctx, env.policy.config, new Float32Array(env.init.length).fill(Number.NaN));
  const run = new PpoRun(env, { batchPrompts: 2, maxNewTokens: 4 });
  const err = await run.step().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NonFiniteMetricError);
  expect((err as Error).message).toMatch(
    /^the (policy's log-probs of its samples|value head's estimates|reference model's log-probs) became NaN at step 1; the run was stopped$/,
  );
  run.destroy();
});
