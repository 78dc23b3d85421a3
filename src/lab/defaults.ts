/**
 * The experiment the lab opens with, and its test-sized twin.
 *
 * Default (a real GPU): the sentiment task, its shipped SFT model, seed 0, and three runs — PPO, DPO, GRPO —
 * with the same seed and start model. Batch sizes are picked so that each step samples 16–32 completions of up
 * to 48 tokens (char-level: about nine words, enough for the lexicon reward to move) and the three runs
 * together still redraw the charts several times a second (a step is not the same budget for each: the lesson
 * card says so, and the Samples axis compares them at equal completions):
 *   PPO   16 prompts/step × 1 completion, 48 new tokens, 4 PPO epochs × 1 minibatch (defaults)
 *   DPO   16 pairs/step (32 sampled completions for the charts; online pairs when no dataset is shipped)
 *   GRPO  4 prompts/step × 8 generations = 32 completions, 48 new tokens
 * Everything else is each algorithm's default (learning rates, β, clipping).
 *
 * Test-sized ({@link testExperiment}): SwiftShader runs our kernels at ~0.3 GFLOP/s, so the e2e tests use the
 * arithmetic task (7-token prompts fit `nano`'s 32-token context; sentiment's do not), the `nano` preset
 * (fresh seeded init), 2 prompts or pairs per step, 2 GRPO generations, 4 new tokens and 1 PPO epoch.
 */
import type { ExperimentSpec, RunSpec } from "./protocol";

/** Completion length of the default runs (tokens; the tokenizers are character-level). */
export const DEFAULT_MAX_NEW_TOKENS = 48;

/** The opening experiment. */
export function defaultExperiment(): ExperimentSpec {
  const maxNewTokens = DEFAULT_MAX_NEW_TOKENS;
  const runs: RunSpec[] = [
    { id: "ppo-1", algo: "ppo", label: "PPO", config: { batchPrompts: 16, maxNewTokens } },
    { id: "dpo-1", algo: "dpo", label: "DPO", config: { batchPairs: 16, maxNewTokens } },
    {
      id: "grpo-1",
      algo: "grpo",
      label: "GRPO",
      config: { batchPrompts: 4, numGenerations: 8, maxNewTokens },
    },
  ];
  return { task: "sentiment", model: "sft", seed: 0, runs };
}

/** The same three runs sized for tests on a software adapter (seconds per step, not minutes). */
export function testExperiment(): ExperimentSpec {
  const maxNewTokens = 4;
  const lr = 3e-3;
  const runs: RunSpec[] = [
    {
      id: "ppo-1",
      algo: "ppo",
      label: "PPO",
      config: { batchPrompts: 2, maxNewTokens, ppoEpochs: 1, lr },
    },
    { id: "dpo-1", algo: "dpo", label: "DPO", config: { batchPairs: 2, maxNewTokens, lr } },
    {
      id: "grpo-1",
      algo: "grpo",
      label: "GRPO",
      config: { batchPrompts: 2, numGenerations: 2, maxNewTokens, lr },
    },
  ];
  return { task: "arithmetic", model: "nano", seed: 0, runs };
}
