/**
 * PLACEHOLDER completion generators — NOT model samples. They stand in for the SFT policies (trained later by
 * `npm run pretrain`) so that scripts/build-preferences.ts and its tests can run end to end. Any file built
 * from them records `"source": "placeholder"` in its .meta.json, and the script refuses to write them to the
 * shipped location (public/models/) without --out.
 *
 * - arithmetic: the true sum with probability 0.35, else the sum off by ±1..±10, or (10%) a malformed answer
 *   ("", "1+", "08", "abc").
 * - sentiment: 3–10 words drawn from a fixed list of neutral book words and a few AFINN-valenced ones.
 */
import { type PromptSamples, type TaskId, unknownTask } from "../src/tasks/task";
import type { Rng } from "../src/util/rng";
import type { CompletionGenerator } from "./build-preferences";

const MALFORMED = ["", "1+", "08", "abc", "=", " "];

const WORDS = (
  "the whale sea ship and of a to in his boat deck captain white ocean harpoon line wind " +
  "good bad love dead happy death great fear hope kill wonderful terrible calm storm glad lost free doom"
).split(" ");

function arithmeticCompletion(prompt: string, rng: Rng): string {
  const m = /^(\d+)\+(\d+)=$/.exec(prompt);
  if (!m) throw new RangeError(`not an arithmetic prompt: ${prompt}`);
  const sum = Number(m[1]) + Number(m[2]);
  const u = rng.float();
  if (u < 0.35) return String(sum);
  if (u < 0.9) {
    const off = rng.int(1, 10) * (rng.float() < 0.5 ? -1 : 1);
    return String(Math.max(0, sum + off));
  }
  return MALFORMED[rng.int(0, MALFORMED.length - 1)];
}

function sentimentCompletion(rng: Rng): string {
  const n = rng.int(3, 10);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[rng.int(0, WORDS.length - 1)]);
  return `${words.join(" ")}.`;
}

/** A placeholder generator for `task`: `perPrompt` fake completions of each prompt. */
export function placeholderGenerator(task: TaskId, perPrompt: number): CompletionGenerator {
  return (prompts: readonly string[], rng: Rng): PromptSamples[] =>
    prompts.map((prompt) => ({
      prompt,
      completions: Array.from({ length: perPrompt }, () => {
        if (task === "arithmetic") return arithmeticCompletion(prompt, rng);
        if (task === "sentiment") return sentimentCompletion(rng);
        return unknownTask(task);
      }),
    }));
}
