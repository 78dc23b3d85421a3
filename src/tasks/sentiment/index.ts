/**
 * `sentiment` — the classic RLHF demo (Ziegler et al. 2019 continued IMDB reviews positively): the policy
 * continues a sentence opening from *Moby-Dick* and is scored by the lexicon sentiment of what it wrote.
 *
 * Prompts: openings of the book's sentences — the first k words (k ∈ {3, 4, 5, 6}, drawn per sentence with
 * Rng(PROMPT_POOL_SEED)) of every sentence of ≥ 8 words whose opening starts with a capital letter and holds
 * only letters, apostrophes, hyphens, commas and semicolons (no quotes, digits or dashes), followed by one
 * space; duplicates removed ("But the whale " once). The pool is fixed; the train/eval split is by the task seed.
 * Gold: `tanh(S / 5)` of the completion alone, S its summed AFINN-165 valence (see ./afinn.ts), in (−1, 1).
 * Pretraining text: {@link sentimentCorpus} — the cleaned book as sentences (see ./book.ts); trained as
 * `<bos> sentence <eos>`, a model learns to end a sentence with EOS, so a completion is "the rest of the
 * sentence" — when it fits: Moby-Dick's sentences are long (the book's own continuation of a pool prompt has a
 * median of 116 tokens; it fits in 48 tokens for 16 % of the prompts, in 64 for 25 %), so most completions end
 * at the length limit (`completions/clipped_ratio` ≈ 0.9 at the start).
 */
import { Rng } from "../../util/rng";
import {
  checkSamples,
  mean,
  type PromptSamples,
  type PromptSplit,
  splitPrompts,
  type Task,
  type TaskCost,
  tokenizerPathOf,
} from "../task";
import { afinnHits, afinnWords, sentimentScore } from "./afinn";
import { bookSentences, cleanBook, loadBookText } from "./book";

/** Seed of the per-sentence opening length draw (fixed: the pool never changes). 1851: the book's year. */
export const PROMPT_POOL_SEED = 1851;
/** Sentences shorter than this many words give no prompt (there must be something left to write). */
export const MIN_SENTENCE_WORDS = 8;
const OPENING = /^[A-Z][A-Za-z',;-]*(?: [A-Za-z',;-]+)*$/;

export interface SentimentOptions {
  /** Seed of the train/eval split. Default 0. */
  seed?: number;
  /** Held-out prompts. Default 256. */
  evalSize?: number;
}

/**
 * The prompt pool from the cleaned book's sentences (see the module comment), in book order.
 * Each prompt ends with one space.
 */
export function sentimentPromptPool(sentences: readonly string[]): string[] {
  const rng = new Rng(PROMPT_POOL_SEED);
  const pool = new Set<string>();
  for (const sentence of sentences) {
    const words = sentence.split(" ");
    const k = rng.int(3, 6); // drawn for every sentence, so the draw never depends on the filters below
    if (words.length < MIN_SENTENCE_WORDS) continue;
    const opening = words.slice(0, k).join(" ");
    if (!OPENING.test(opening) || opening.includes("--")) continue;
    pool.add(`${opening} `);
  }
  return [...pool];
}

/** The pretraining corpus: the cleaned book's sentences in reading order (no newlines inside). */
export function sentimentCorpus(rawBook: string): string[] {
  return bookSentences(cleanBook(rawBook));
}

/** Load the book (lazily; see ./book.ts) and return {@link sentimentCorpus}: ~8,500 sentences, ~1.17 M chars. */
export async function loadSentimentCorpus(): Promise<string[]> {
  return sentimentCorpus(await loadBookText());
}

/** distinct-n: unique word n-grams / all word n-grams over all completions (1 when there are none). */
export function distinctN(texts: readonly string[], n: number): number {
  const seen = new Set<string>();
  let total = 0;
  for (const t of texts) {
    const w = afinnWords(t);
    for (let i = 0; i + n <= w.length; i++) {
      seen.add(w.slice(i, i + n).join(" "));
      total++;
    }
  }
  return total === 0 ? 1 : seen.size / total;
}

/**
 * Safe RLHF's cost on this task: the number of positive lexicon hits (AFINN-165 valence > 0; a hyphenated word
 * counts each positive part). It competes with the gold reward, which grows with every positive word: held to a
 * limit d, the policy must say it with fewer, stronger words.
 */
export const POSITIVE_WORDS: TaskCost = {
  label: "positive words",
  unit: "words",
  doc: "the number of words with a positive AFINN-165 valence in the completion",
  cost: (_prompt, completion) => afinnHits(completion).filter((h) => h.valence > 0).length,
};

export interface SentimentTask extends Task {
  readonly id: "sentiment";
}

/**
 * The sentiment task over an already loaded book text (see ./book.ts `loadBookText`).
 * @throws RangeError if evalSize is not in [1, pool size − 1].
 */
export function createSentimentTask(rawBook: string, opts: SentimentOptions = {}): SentimentTask {
  const seed = opts.seed ?? 0;
  const prompts: PromptSplit = splitPrompts(
    sentimentPromptPool(sentimentCorpus(rawBook)),
    seed,
    opts.evalSize ?? 256,
  );
  return {
    id: "sentiment",
    title: "Sentiment (Moby-Dick, AFINN-165)",
    tokenizerPath: tokenizerPathOf("sentiment"),
    seed,
    prompts,
    goldRange: [-1, 1],
    generation: { maxNewTokens: 64, temperature: 1 },
    metrics: [
      {
        key: "gold_mean",
        label: "gold",
        description: "mean tanh(AFINN sum / 5) of the completions, in (−1, 1)",
      },
      { key: "gold_std", label: "gold std", description: "population std of the gold scores" },
      { key: "positive_rate", label: "positive", description: "share of completions with gold > 0" },
      { key: "negative_rate", label: "negative", description: "share of completions with gold < 0" },
      { key: "length_mean", label: "length", description: "mean completion length in characters" },
      { key: "distinct_1", label: "distinct-1", description: "unique words / words (falls as text repeats)" },
      { key: "distinct_2", label: "distinct-2", description: "unique word bigrams / bigrams" },
    ],
    gold: (_prompt, completion) => sentimentScore(completion),
    costs: { positive_words: POSITIVE_WORDS },
    evaluate(samples: readonly PromptSamples[]) {
      checkSamples(samples);
      const texts = samples.flatMap((s) => s.completions);
      const golds = texts.map(sentimentScore);
      const m = mean(golds);
      return {
        gold_mean: m,
        gold_std: Math.sqrt(mean(golds.map((g) => (g - m) ** 2))),
        positive_rate: mean(golds.map((g) => (g > 0 ? 1 : 0))),
        negative_rate: mean(golds.map((g) => (g < 0 ? 1 : 0))),
        length_mean: mean(texts.map((t) => [...t].length)),
        distinct_1: distinctN(texts, 1),
        distinct_2: distinctN(texts, 2),
      };
    },
  };
}

/** Load the book (lazily; see ./book.ts) and build the task. */
export async function loadSentimentTask(opts: SentimentOptions = {}): Promise<SentimentTask> {
  return createSentimentTask(await loadBookText(), opts);
}
