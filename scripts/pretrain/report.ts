/**
 * Evaluation of a pretrained checkpoint in OUR WGSL engine (the Generator the lab samples with), on the task's
 * held-out eval prompts:
 * - arithmetic: greedy pass@1 over all eval prompts (the headline number), and τ = 1 sampling with 4 samples
 *   per prompt (pass@1, pass@4: what RL rollouts see); a few right and wrong greedy answers.
 * - sentiment: τ = 1 continuations (64 new tokens) of the first 16 eval prompts: the task's metrics, the share
 *   of generated words that are words of the book (a "readable, mostly real words" check), and 5 examples.
 */
import type { GpuContext } from "../../src/gpu/context";
import type { GPTConfig } from "../../src/model/config";
import { GptWeights } from "../../src/model/weights";
import { arithmeticAnswer } from "../../src/tasks/arithmetic/index";
import { loadSentimentCorpus } from "../../src/tasks/sentiment/index";
import { type Task, unknownTask } from "../../src/tasks/task";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import { wgslComplete } from "./sample";

const round = (x: number) => Number(x.toFixed(4));
/** Sentiment prompts continued in the report (each 64 tokens on WebGPU: slow on a software adapter). */
const SENTIMENT_EVAL_PROMPTS = 16;

/** Lower-case words (letters and inner apostrophes) of a text. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z]+(?:'[a-z]+)*/g) ?? [];
}

/** Share of the words of `texts` that occur in `vocabulary` (1 when there are none). */
export function realWordRate(texts: readonly string[], vocabulary: ReadonlySet<string>): number {
  const ws = texts.flatMap(words);
  return ws.length ? ws.filter((w) => vocabulary.has(w)).length / ws.length : 1;
}

export async function evaluateCheckpoint(
  ctx: GpuContext,
  task: Task,
  tok: Tokenizer,
  config: GPTConfig,
  params: Float32Array,
  seed: number,
): Promise<Record<string, unknown>> {
  const w = new GptWeights(ctx, config, params);
  const t0 = performance.now();
  try {
    const maxNewTokens = task.generation.maxNewTokens;
    if (task.id === "arithmetic") {
      const prompts = task.prompts.eval;
      const greedy = await wgslComplete(
        ctx,
        w,
        tok,
        prompts,
        { maxNewTokens, greedy: true, batch: 256 },
        seed,
      );
      const k = 4;
      const repeated = prompts.flatMap((p) => Array<string>(k).fill(p));
      const sampled = await wgslComplete(
        ctx,
        w,
        tok,
        repeated,
        { maxNewTokens, greedy: false, batch: 256 },
        seed,
      );
      const g = task.evaluate(prompts.map((prompt, i) => ({ prompt, completions: [greedy[i]] })));
      const s = task.evaluate(
        prompts.map((prompt, i) => ({ prompt, completions: sampled.slice(i * k, (i + 1) * k) })),
      );
      const rows = prompts.map((p, i) => ({ prompt: p, answer: greedy[i], gold: arithmeticAnswer(p) }));
      return {
        engine: "wgsl Generator",
        eval_prompts: prompts.length,
        greedy_pass1: round(g["pass@1"]),
        greedy_format_rate: round(g.format_rate),
        tau1_pass1: round(s["pass@1"]),
        tau1_pass4: round(s["pass@4"]),
        right_examples: rows.filter((r) => r.answer === r.gold).slice(0, 5),
        wrong_examples: rows.filter((r) => r.answer !== r.gold).slice(0, 8),
        eval_time_s: Math.round((performance.now() - t0) / 1000),
      };
    }
    if (task.id !== "sentiment") return unknownTask(task.id);
    const prompts = task.prompts.eval.slice(0, SENTIMENT_EVAL_PROMPTS);
    const texts = await wgslComplete(
      ctx,
      w,
      tok,
      prompts,
      { maxNewTokens, greedy: false, batch: SENTIMENT_EVAL_PROMPTS },
      seed,
    );
    const vocabulary = new Set((await loadSentimentCorpus()).flatMap(words));
    const metrics = task.evaluate(prompts.map((prompt, i) => ({ prompt, completions: [texts[i]] })));
    return {
      engine: "wgsl Generator, τ = 1",
      eval_prompts: prompts.length,
      ...Object.fromEntries(Object.entries(metrics).map(([key, v]) => [key, round(v)])),
      real_word_rate: round(realWordRate(texts, vocabulary)),
      examples: prompts.slice(0, 5).map((prompt, i) => ({ prompt, completion: texts[i] })),
      eval_time_s: Math.round((performance.now() - t0) / 1000),
    };
  } finally {
    w.destroy();
  }
}
