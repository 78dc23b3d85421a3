/** A nano model (V = 16) with a synthetic reward, the share of token 7 in the completion; EOS = 0, PAD = 15. */
import { type CostSource, tokenShareReward } from "../../src/algorithms/reward";
import { type RunEnv, shuffledPrompts } from "../../src/algorithms/run";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { testGpu } from "./gpu";

export const REWARD_TOKEN = 7;

/**
 * Task costs for nano (Safe RLHF's `cost` settings other than "length"): every key counts the reward token in
 * the completion — a cost the reward wants more of, like sentiment's positive words.
 */
export const NANO_COSTS: Readonly<Record<string, CostSource>> = {
  positive_words: {
    name: "reward tokens",
    unit: "tokens",
    cost: (samples) =>
      Float64Array.from(samples, (s) => s.completion.filter((t) => t === REWARD_TOKEN).length),
  },
};

export async function nanoEnv(seed = 1, withRef = true): Promise<RunEnv & { init: Float32Array }> {
  const ctx = await testGpu();
  const config = preset("nano", { vocabSize: 16 });
  const rng = new Rng(seed);
  const init = initParams(paramLayout(config), () => rng.normal());
  const prompts = Array.from({ length: 32 }, () =>
    Array.from({ length: rng.int(1, 3) }, () => rng.int(1, 14)),
  );
  return {
    ctx,
    init,
    policy: new GptWeights(ctx, config, init),
    ref: withRef ? new GptWeights(ctx, config, init) : null,
    prompts: shuffledPrompts(prompts, seed),
    reward: tokenShareReward(REWARD_TOKEN),
    gold: tokenShareReward(REWARD_TOKEN),
    eosId: 0,
    padId: 15,
    seed,
  };
}

/** Names of LM parameter tensors (value/reward heads excluded) whose values did not change. */
export function unchangedTensors(
  env: { policy: GptWeights },
  before: Float32Array,
  after: Float32Array,
): string[] {
  return env.policy.layout.specs
    .filter((s) => !s.name.startsWith("value_head") && !s.name.startsWith("reward_head"))
    .filter((s) => {
      const n = s.shape.reduce((a, b) => a * b, 1);
      for (let i = 0; i < n; i++) if (after[s.offset + i] !== before[s.offset + i]) return false;
      return true;
    })
    .map((s) => s.name);
}
