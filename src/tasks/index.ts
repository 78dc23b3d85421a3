/**
 * The task registry: build any task by id. Sentiment loads the book lazily (see ./sentiment/book.ts), so
 * {@link loadTask} is async; arithmetic needs nothing.
 */
import { type ArithmeticOptions, createArithmeticTask } from "./arithmetic";
import { loadSentimentTask, type SentimentOptions } from "./sentiment";
import { type Task, type TaskId, unknownTask } from "./task";

export type { Annotator, Preference } from "./annotator";
export { DEFAULT_FLIP_RATE, SimulatedAnnotator } from "./annotator";
export type { PreferenceRecord } from "./preferences";
export type { PromptSamples, PromptSplit, Task, TaskId } from "./task";
export { completionText } from "./task";

/** Every task id, in menu order. */
export const TASK_IDS: readonly TaskId[] = ["sentiment", "arithmetic"];

/** Options of every task (each task reads its own; unknown ones are ignored). */
export type TaskOptions = SentimentOptions & ArithmeticOptions;

/**
 * The task `id` with `opts` (seed and evalSize default to 0 and 256).
 * @throws RangeError on an unknown id or invalid options.
 */
export async function loadTask(id: TaskId, opts: TaskOptions = {}): Promise<Task> {
  switch (id) {
    case "sentiment":
      return loadSentimentTask(opts);
    case "arithmetic":
      return createArithmeticTask(opts);
    default:
      return unknownTask(id);
  }
}
