/**
 * The task's gold scorer as a RewardSource: decode the prompt and the completion (up to EOS) with the task's
 * tokenizer and score the text. Every run computes it (reward_gold), whatever it optimises.
 */
import type { RewardSource } from "../algorithms/reward";
import { completionText, type Task } from "../tasks";
import type { Tokenizer } from "../tokenizer/tokenizer";

/** Prompt ids → text, dropping a leading BOS. */
export function promptText(ids: readonly number[], tok: Tokenizer): string {
  return tok.decode(ids[0] === tok.bosId ? ids.slice(1) : ids);
}

export function goldRewardSource(task: Task, tok: Tokenizer): RewardSource {
  return {
    name: `${task.id}-gold`,
    score: (samples) =>
      Float64Array.from(samples, (s) =>
        task.gold(promptText(s.prompt, tok), completionText(s.completion, tok).text),
      ),
  };
}
