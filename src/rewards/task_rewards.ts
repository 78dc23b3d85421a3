/**
 * The task's gold scorer and its known costs as run sources: decode the prompt and the completion (up to EOS)
 * with the task's tokenizer and score the text.
 */
import type { CostSource, RewardSource } from "../algorithms/reward";
import { completionText, type Task } from "../tasks";
import type { Tokenizer } from "../tokenizer/tokenizer";

/** Prompt ids → text, dropping a leading BOS. */
export function promptText(ids: readonly number[], tok: Tokenizer): string {
  return tok.decode(ids[0] === tok.bosId ? ids.slice(1) : ids);
}

/** The task's costs (Task.costs) as CostSources, decoded like the gold scorer; {} when it has none. */
export function taskCostSources(task: Task, tok: Tokenizer): Record<string, CostSource> {
  const out: Record<string, CostSource> = {};
  for (const [key, c] of Object.entries(task.costs ?? {}))
    out[key] = {
      name: c.label,
      unit: c.unit,
      cost: (samples) =>
        Float64Array.from(samples, (s) =>
          c.cost(promptText(s.prompt, tok), completionText(s.completion, tok).text),
        ),
    };
  return out;
}

/** The task's gold scorer: every run computes it (reward_gold), whatever it optimises. */
export function goldRewardSource(task: Task, tok: Tokenizer): RewardSource {
  return {
    name: `${task.id}-gold`,
    score: (samples) =>
      Float64Array.from(samples, (s) =>
        task.gold(promptText(s.prompt, tok), completionText(s.completion, tok).text),
      ),
  };
}
