/**
 * Build a run's environment from a task, its tokenizer and a start model: the policy (trained) and the frozen
 * reference are two copies of the same weights; prompts are the task's train prompts, encoded (with BOS when
 * the model was trained with it) and served in a seeded order; the reward source defaults to the gold scorer.
 */
import type { RewardSource } from "../algorithms/reward";
import { type RunEnv, shuffledPrompts } from "../algorithms/run";
import type { GpuContext } from "../gpu/context";
import type { GPTConfig } from "../model/config";
import { GptWeights } from "../model/weights";
import { goldRewardSource, taskCostSources } from "../rewards/task_rewards";
import type { Task } from "../tasks";
import type { Tokenizer } from "../tokenizer/tokenizer";

export interface EnvOptions {
  ctx: GpuContext;
  task: Task;
  tokenizer: Tokenizer;
  config: GPTConfig;
  /** Start weights (flat, paramLayout order). */
  params: Float32Array;
  seed: number;
  /** Keep a frozen reference copy (KL metrics and penalties need it). Default true. */
  withRef?: boolean;
  /** Prefix prompts with BOS (as the shipped models were trained). Default true. */
  bos?: boolean;
  /** The source the run optimises; default the task's gold scorer. */
  reward?: RewardSource;
  /** Prompt split to draw from. Default "train". */
  split?: "train" | "eval";
}

/** @throws RangeError if the model's vocabulary does not match the tokenizer's. */
export function buildEnv(o: EnvOptions): RunEnv {
  if (o.config.vocabSize !== o.tokenizer.vocabSize)
    throw new RangeError(
      `model vocabulary ${o.config.vocabSize} ≠ tokenizer vocabulary ${o.tokenizer.vocabSize}`,
    );
  const bos = o.bos ?? true;
  const prompts = o.task.prompts[o.split ?? "train"].map((p) => o.tokenizer.encode(p, { bos }));
  const gold = goldRewardSource(o.task, o.tokenizer);
  return {
    ctx: o.ctx,
    policy: new GptWeights(o.ctx, o.config, o.params),
    ref: (o.withRef ?? true) ? new GptWeights(o.ctx, o.config, o.params) : null,
    prompts: shuffledPrompts(prompts, o.seed),
    reward: o.reward ?? gold,
    gold,
    costs: taskCostSources(o.task, o.tokenizer),
    eosId: o.tokenizer.eosId,
    padId: o.tokenizer.padId,
    seed: o.seed,
  };
}
