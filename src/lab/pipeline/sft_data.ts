/**
 * Stage 1's training text, as seeded batches of rows (the same data as scripts/pretrain/data.ts, without its
 * Node-only hashing, so the page's worker can use it):
 *   arithmetic: `<bos> a+b=c <eos>` for the task's train prompts in a seeded shuffled order, left-padded to T;
 *   sentiment:  T-token windows of the book's sentences (`<bos> sentence <eos>` concatenated in reading order),
 *               each starting at a sentence's `<bos>`, in a seeded shuffled order.
 * Every row is trained on all its next tokens (src/model/sft.ts nextTokenTargets).
 */
import { type HostBatch, leftPadBatch } from "../../model/batch";
import { arithmeticLines } from "../../tasks/arithmetic/index";
import { loadSentimentCorpus } from "../../tasks/sentiment/index";
import { shuffle, type Task, unknownTask } from "../../tasks/task";
import type { Tokenizer } from "../../tokenizer/tokenizer";
import { Rng } from "../../util/rng";

/** A seeded stream of [B, T] batches. */
export interface SftData {
  /** Row width T (tokens). */
  T: number;
  next(): HostBatch;
}

/**
 * The stream for a task: rows of at most `maxT` tokens (arithmetic rows are as long as the longest line).
 * @throws RangeError when no row fits (maxT < 2, or shorter than every line).
 */
export async function sftData(
  task: Task,
  tok: Tokenizer,
  B: number,
  maxT: number,
  seed: number,
): Promise<SftData> {
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`batch must be a positive integer, got ${B}`);
  if (task.id === "arithmetic") {
    const longest = Math.max(...task.prompts.train.map((p) => p.length)) + 3 + 2; // a 3-digit sum, <bos>, <eos>
    const T = Math.min(maxT, longest);
    const lines = arithmeticLines(task.prompts.train, seed);
    const row = () => [tok.bosId, ...tok.encode(lines.next().value), tok.eosId].slice(-T);
    return { T, next: () => leftPadBatch(Array.from({ length: B }, row), T, tok.padId) };
  }
  if (task.id !== "sentiment") return unknownTask(task.id);
  const sentences = await loadSentimentCorpus();
  const ids: number[] = [];
  const starts: number[] = [];
  for (const s of sentences) {
    starts.push(ids.length);
    ids.push(tok.bosId, ...tok.encode(s), tok.eosId);
  }
  const T = maxT;
  const usable = starts.filter((s) => s + T <= ids.length);
  if (!usable.length) throw new RangeError(`the corpus has no row of ${T} tokens`);
  const rng = new Rng(seed);
  let order: number[] = [];
  return {
    T,
    next() {
      const rows: number[][] = [];
      for (let b = 0; b < B; b++) {
        if (!order.length) order = shuffle(usable, rng);
        const s = order.pop() as number;
        rows.push(ids.slice(s, s + T));
      }
      return leftPadBatch(rows, T, tok.padId);
    },
  };
}
