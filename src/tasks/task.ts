/**
 * The common shape of a task: prompts (train / held-out eval, split deterministically by seed), a gold scorer
 * and an evaluation. Tasks are plain data + pure functions: no GPU, no DOM; they import only ../tokenizer and
 * ../util.
 *
 * What a completion is: the tokens the policy generates after the prompt, up to but not including the first
 * `<eos>` (all generated tokens when it never emits one), decoded to text. {@link completionText} does
 * exactly this; every scorer and metric takes that text.
 */
import type { Tokenizer } from "../tokenizer/tokenizer";
import { Rng } from "../util/rng";

export type TaskId = "sentiment" | "arithmetic";

/**
 * The end of a branch on task ids that has covered every task: with a new TaskId, `id` is no longer `never`
 * and the call does not typecheck, so code that treats tasks one by one names each (none falls silently into
 * another's case). @throws RangeError at run time (an id from outside the type).
 */
export function unknownTask(id: never): never {
  throw new RangeError(`unknown task "${String(id)}"`);
}

/** Prompt sets; disjoint, each without duplicates. */
export interface PromptSplit {
  train: readonly string[];
  eval: readonly string[];
}

/** Several sampled completions of one prompt (the input of evaluation and of preference building). */
export interface PromptSamples {
  prompt: string;
  completions: readonly string[];
}

/** A metric the task reports: its key in {@link Task.evaluate}'s result, and what it means. */
export interface MetricInfo {
  key: string;
  label: string;
  description: string;
}

/**
 * A known cost of a completion that a constrained run (Safe RLHF) can hold under a limit — a stand-in for the
 * paper's learned cost model. Deterministic, ≥ 0.
 */
export interface TaskCost {
  /** Shown next to the cost limit, e.g. "positive words". */
  readonly label: string;
  /** The unit of the cost and of its limit d, e.g. "words". */
  readonly unit: string;
  /** One sentence: what is counted. */
  readonly doc: string;
  /** The cost of a completion (text after the prompt up to EOS). */
  cost(prompt: string, completion: string): number;
}

/**
 * The task's generation settings for held-out evaluation (the CLI's `eval`, pretraining's reports; a run's win
 * rate uses the run's own max tokens). Runs sample with their own settings (max tokens, τ), not these.
 */
export interface GenerationDefaults {
  /** Tokens generated after the prompt, EOS included. */
  maxNewTokens: number;
  temperature: number;
}

export interface Task {
  readonly id: TaskId;
  /** Human-readable name. */
  readonly title: string;
  /** tokenizer.json path relative to the app's public folder (Node: prefix "public/"). */
  readonly tokenizerPath: string;
  /** The seed of the train/eval split. */
  readonly seed: number;
  readonly prompts: PromptSplit;
  /** [lo, hi]: every gold score lies in this interval. */
  readonly goldRange: readonly [number, number];
  readonly generation: GenerationDefaults;
  /** What {@link evaluate} returns, in display order. */
  readonly metrics: readonly MetricInfo[];
  /** The ground-truth score of a completion (text after the prompt up to EOS). Deterministic. */
  gold(prompt: string, completion: string): number;
  /**
   * Task metrics over sampled completions (keys as in {@link metrics}).
   * @throws RangeError on an empty sample list or a prompt with no completions.
   */
  evaluate(samples: readonly PromptSamples[]): Record<string, number>;
  /** Costs a constrained run can limit, by key (Safe RLHF's `cost` setting); none when absent. */
  readonly costs?: Readonly<Record<string, TaskCost>>;
}

/** tokenizer.json path of a task, relative to the public folder: "models/<id>/tokenizer.json". */
export function tokenizerPathOf(id: TaskId): string {
  return `models/${id}/tokenizer.json`;
}

/**
 * Shuffle `pool` (deduplicated, order kept for the first occurrence) with Rng(seed) and cut it: the first
 * `evalSize` prompts are `eval`, the rest `train`. The same pool and seed always give the same split.
 * @throws RangeError if evalSize is not an integer in [1, unique prompts − 1].
 */
export function splitPrompts(pool: readonly string[], seed: number, evalSize: number): PromptSplit {
  const unique = [...new Set(pool)];
  if (!Number.isInteger(evalSize) || evalSize < 1 || evalSize >= unique.length)
    throw new RangeError(`evalSize ${evalSize} must be an integer in [1, ${unique.length - 1}]`);
  const shuffled = shuffle(unique, new Rng(seed));
  return { eval: shuffled.slice(0, evalSize), train: shuffled.slice(evalSize) };
}

/** A Fisher–Yates shuffled copy of `items`. */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The completion text of one generated row: tokens up to (not including) the first `<eos>`, decoded. Any other
 * special token before it (a sampled `<unk>`, `<bos>` or `<pad>`) stays as its literal name, so
 * `tok.encode(text)` gives back exactly those ids (preference data re-encodes completions from text).
 * `finished` says whether an `<eos>` was found. `ids` are the generated tokens only (prompt excluded), e.g.
 * one row of Generation.tokens.
 */
export function completionText(ids: ArrayLike<number>, tok: Tokenizer): { text: string; finished: boolean } {
  const row = Array.from(ids);
  const end = row.indexOf(tok.eosId);
  return { text: tok.decode(end < 0 ? row : row.slice(0, end)), finished: end >= 0 };
}

/** Mean of a non-empty list. */
export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Throws the documented RangeError of {@link Task.evaluate} for empty inputs. */
export function checkSamples(samples: readonly PromptSamples[]): void {
  if (samples.length === 0) throw new RangeError("evaluate needs at least one prompt");
  for (const s of samples)
    if (s.completions.length === 0)
      throw new RangeError(`prompt ${JSON.stringify(s.prompt)} has no completions`);
}
