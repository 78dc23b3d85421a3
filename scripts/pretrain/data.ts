/**
 * Pretraining data for the two tasks, as seeded streams of token batches (the same batches for either backend).
 *
 * sentiment: the cleaned book's sentences (loadSentimentCorpus), each encoded as `<bos> sentence <eos>` and
 *   concatenated in reading order. A row is the T tokens starting at a sentence's `<bos>` (so position 0 is
 *   always a sentence start, as in a prompt; later sentences follow in the same row). Each epoch visits every
 *   sentence start whose row fits, in an order shuffled by Rng(seed). Full rows: no padding.
 * arithmetic: `a+b=c` lines from arithmeticLines(task.prompts.train, seed) (train prompts only), each row
 *   `<bos> a+b=c <eos>`, left-padded to T.
 * Every row is trained on all its next tokens (targets from nextTokenTargets).
 * Data hash: sha256 (hex) of the training lines in source order joined by "\n" — the book's sentences, or the
 *   `a+b=c` line of every train prompt in the task's prompt order.
 */
import { createHash } from "node:crypto";
import { type HostBatch, leftPadBatch } from "../../src/model/batch";
import { arithmeticAnswer, arithmeticLines } from "../../src/tasks/arithmetic/index";
import { loadSentimentCorpus } from "../../src/tasks/sentiment/index";
import { shuffle, type Task } from "../../src/tasks/task";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import { Rng } from "../../src/util/rng";

export interface DataStream {
  /** sha256 of the training lines (see the module comment). */
  dataHash: string;
  /** Training lines (sentences or sums). */
  lines: number;
  /** Tokens in one epoch of the data (each line with BOS and EOS). */
  epochTokens: number;
  /** The next batch of B rows × T tokens. */
  next(): HostBatch;
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The sentiment stream (see the module comment). @throws RangeError if no sentence start has T tokens left. */
export async function sentimentStream(
  tok: Tokenizer,
  B: number,
  T: number,
  seed: number,
): Promise<DataStream> {
  const sentences = await loadSentimentCorpus();
  const ids: number[] = [];
  const starts: number[] = [];
  for (const s of sentences) {
    starts.push(ids.length);
    ids.push(tok.bosId, ...tok.encode(s), tok.eosId);
  }
  const usable = starts.filter((s) => s + T <= ids.length);
  if (!usable.length) throw new RangeError(`the corpus has no row of ${T} tokens`);
  const rng = new Rng(seed);
  let order: number[] = [];
  return {
    dataHash: sha256(sentences.join("\n")),
    lines: sentences.length,
    epochTokens: ids.length,
    next() {
      const rows: number[][] = [];
      for (let b = 0; b < B; b++) {
        if (!order.length) order = shuffle(usable, rng);
        const s = order.pop()!;
        rows.push(ids.slice(s, s + T));
      }
      return leftPadBatch(rows, T, tok.padId);
    },
  };
}

/** The arithmetic stream (see the module comment). @throws RangeError if a line does not fit T tokens. */
export function arithmeticStream(task: Task, tok: Tokenizer, B: number, T: number, seed: number): DataStream {
  const train = task.prompts.train;
  const all = train.map((p) => `${p}${arithmeticAnswer(p)}`);
  const lines = arithmeticLines(train, seed);
  return {
    dataHash: sha256(all.join("\n")),
    lines: all.length,
    epochTokens: all.reduce((n, l) => n + l.length + 2, 0),
    next() {
      const rows = Array.from({ length: B }, () => [tok.bosId, ...tok.encode(lines.next().value), tok.eosId]);
      return leftPadBatch(rows, T, tok.padId);
    },
  };
}
