/**
 * Held-out evaluation of a policy, shared by the CLI (`npm run lab -- eval [--vs]`) and the lab's per-run win
 * rate: sample completions for the task's held-out prompts with the KV-cached sampler, score them with the
 * gold scorer, run the task's evaluation (pass@k, mean gold…), and the AlpacaFarm-style win rate of one
 * policy over another (Dubois et al. 2023) with a 95 % confidence interval.
 */
import { shuffledPrompts } from "../algorithms/run";
import { type WinRate, winRate } from "../algorithms/win_rate";
import type { GpuContext } from "../gpu/context";
import { Generator } from "../model/generate";
import type { GptWeights } from "../model/weights";
import { promptText } from "../rewards/task_rewards";
import { completionText, type Task } from "../tasks";
import type { Tokenizer } from "../tokenizer/tokenizer";

export interface EvalOptions {
  /** Held-out prompts used (capped at the task's eval set). */
  prompts: number;
  /** Completions per prompt (pass@k uses them). */
  samples: number;
  /** Sampling temperature τ (> 0). */
  temperature: number;
  /** Picks the prompts' order and the sampler's seeds. */
  seed: number;
  /** Completion length limit in tokens (≥ 1; default the task's `generation.maxNewTokens`), capped by the context. */
  maxNewTokens?: number;
  /** The sampler's seed when it differs from `seed` (which then picks only the prompts). */
  sampleSeed?: number;
}

export interface Evaluation {
  prompts: number;
  samples: number;
  temperature: number;
  /** The task's evaluation of the samples. */
  metrics: Record<string, number>;
  examples: { prompt: string; completion: string }[];
  /** Gold score of every (prompt, sample), prompt-major: the win-rate comparison pairs these up. */
  gold: number[];
}

/**
 * Sample and evaluate `weights` on held-out prompts. Completion length: `o.maxNewTokens` (default the task's),
 * capped by the model's context.
 * @throws RangeError when the prompts leave no room in the context.
 */
export async function evaluateWeights(
  ctx: GpuContext,
  task: Task,
  tok: Tokenizer,
  weights: GptWeights,
  o: EvalOptions,
): Promise<Evaluation> {
  const prompts = shuffledPrompts(
    task.prompts.eval.map((p) => tok.encode(p, { bos: true })),
    o.seed,
  ).batch(0, Math.min(o.prompts, task.prompts.eval.length));
  const P = Math.max(...prompts.map((p) => p.length));
  const S = Math.min(o.maxNewTokens ?? task.generation.maxNewTokens, weights.config.contextLength - P);
  if (S < 1) throw new RangeError(`held-out prompts of ${P} tokens leave no room in the model's context`);
  const B = prompts.length;
  const gen = new Generator(ctx, weights, B, P, S);
  const completions: string[][] = prompts.map(() => []);
  try {
    for (let k = 0; k < o.samples; k++) {
      const g = await gen.generate({
        prompts,
        maxNewTokens: S,
        eosId: tok.eosId,
        padId: tok.padId,
        temperature: o.temperature,
        seed: (o.sampleSeed ?? o.seed) + k,
      });
      for (let b = 0; b < B; b++)
        completions[b].push(completionText(g.tokens.subarray(b * S, b * S + g.lengths[b]), tok).text);
    }
  } finally {
    gen.destroy();
  }
  const samples = prompts.map((p, b) => ({ prompt: promptText(p, tok), completions: completions[b] }));
  return {
    prompts: B,
    samples: o.samples,
    temperature: o.temperature,
    metrics: task.evaluate(samples),
    examples: samples.slice(0, 5).map((s) => ({ prompt: s.prompt, completion: s.completions[0] })),
    gold: samples.flatMap((s) => s.completions.map((c) => task.gold(s.prompt, c))),
  };
}

/** Seed offset of the second model's samples: each model samples with its own seeds (a fair coin vs itself). */
export const VS_SEED_OFFSET = 7919;

export interface Comparison extends WinRate {
  judge: "gold";
  metricsA: Record<string, number>;
  metricsB: Record<string, number>;
}

/** Win rate of `a` over `b` on the same held-out prompts by the gold scorer. */
export async function compareWeights(
  ctx: GpuContext,
  task: Task,
  tok: Tokenizer,
  a: GptWeights,
  b: GptWeights,
  o: EvalOptions,
): Promise<Comparison> {
  const ra = await evaluateWeights(ctx, task, tok, a, o);
  const rb = await evaluateWeights(ctx, task, tok, b, { ...o, sampleSeed: o.seed + VS_SEED_OFFSET });
  return { judge: "gold", ...winRate(ra.gold, rb.gold), metricsA: ra.metrics, metricsB: rb.metrics };
}
