/**
 * `arithmetic` — verifiable reward in the R1-Zero style (DeepSeek-AI 2025): the policy completes `a+b=` and a
 * verifier checks the answer exactly.
 *
 * Prompts: `${a}+${b}=` for every ordered pair a, b ∈ [10, 99] (2-digit addition; 8,100 prompts, sums
 * 20..198); options change the operand range. The train/eval split is by the task seed (default 256 held out).
 * Completion: the text after "=" up to EOS (see ../task.ts); the answer is that text with surrounding
 * whitespace trimmed.
 * Gold, in [0, 1]:
 * - 1 when the answer equals the decimal sum exactly ("82" for 37+45; "082", "82.0" or "+82" are wrong);
 * - else `formatScore` (default 0, e.g. 0.1 to reward format) when the answer is a well-formed number
 *   (`/^(0|[1-9][0-9]*)$/`: digits, no sign, no leading zero);
 * - else 0 (empty, no digits, trailing text, …).
 * Evaluation: pass@1 and pass@k (Chen et al. 2021, unbiased estimator; ../pass_at_k.ts) over n samples per
 * prompt, with k ∈ `passK` (default 1, 4, 8; a k is reported only when every prompt has ≥ k samples).
 * Pretraining text: {@link arithmeticLines}, an endless seeded stream of `a+b=c` lines from the TRAIN prompts
 * only (each trained as `<bos> a+b=c <eos>`), so no eval prompt is trained on as written; its commuted twin
 * (b+a= for a+b=) usually is a train prompt (242 of the 256), so eval pass@k measures a sum the model saw the
 * other way round, not an unseen one.
 */
import { Rng } from "../../util/rng";
import { meanPassAtK } from "../pass_at_k";
import {
  checkSamples,
  mean,
  type PromptSamples,
  shuffle,
  splitPrompts,
  type Task,
  tokenizerPathOf,
} from "../task";

export interface ArithmeticOptions {
  /** Seed of the train/eval split. Default 0. */
  seed?: number;
  /** Held-out prompts. Default 256. */
  evalSize?: number;
  /** Smallest operand. Default 10. */
  minOperand?: number;
  /** Largest operand. Default 99. */
  maxOperand?: number;
  /** Gold score of a well-formed but wrong number, in [0, 1). Default 0 (a pure 1/0 verifier). */
  formatScore?: number;
  /** The k of the pass@k metrics, each ≥ 1. Default [1, 4, 8]. */
  passK?: readonly number[];
}

const PROMPT = /^(\d+)\+(\d+)=$/;
const NUMBER = /^(0|[1-9][0-9]*)$/;

/**
 * The exact answer string of an arithmetic prompt: "37+45=" → "82".
 * @throws RangeError if the prompt is not of the form `a+b=`.
 */
export function arithmeticAnswer(prompt: string): string {
  const m = PROMPT.exec(prompt);
  if (!m) throw new RangeError(`not an arithmetic prompt ("a+b="): ${JSON.stringify(prompt)}`);
  return String(Number(m[1]) + Number(m[2]));
}

/** True when the trimmed completion is a well-formed non-negative decimal number (no sign, no leading 0). */
export function isWellFormedNumber(completion: string): boolean {
  return NUMBER.test(completion.trim());
}

/**
 * The verifier: 1 for the exact answer, `formatScore` for another well-formed number, 0 otherwise.
 * @throws RangeError on a malformed prompt.
 */
export function arithmeticGold(prompt: string, completion: string, formatScore = 0): number {
  const answer = completion.trim();
  if (answer === arithmeticAnswer(prompt)) return 1;
  return NUMBER.test(answer) ? formatScore : 0;
}

/**
 * Every prompt `a+b=` with a, b ∈ [lo, hi], a-major order: (hi − lo + 1)² prompts. Defaults lo = 10, hi = 99
 * (2-digit operands, 8100 prompts).
 * @throws RangeError if lo or hi is not an integer, lo < 0, or hi < lo.
 */
export function arithmeticPromptPool(lo = 10, hi = 99): string[] {
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi < lo)
    throw new RangeError(`operand range [${lo}, ${hi}] must be non-negative integers with lo ≤ hi`);
  const out: string[] = [];
  for (let a = lo; a <= hi; a++) for (let b = lo; b <= hi; b++) out.push(`${a}+${b}=`);
  return out;
}

/**
 * Endless pretraining lines `a+b=c` (no BOS/EOS: add them when encoding): epochs over `prompts`, each epoch a
 * fresh shuffle by Rng(seed). Pass `task.prompts.train` to keep the eval prompts unseen.
 * @throws RangeError on an empty prompt list or a malformed prompt.
 */
export function* arithmeticLines(prompts: readonly string[], seed: number): Generator<string, never> {
  if (prompts.length === 0) throw new RangeError("arithmeticLines needs at least one prompt");
  const rng = new Rng(seed);
  for (;;) for (const p of shuffle(prompts, rng)) yield `${p}${arithmeticAnswer(p)}`;
}

export interface ArithmeticTask extends Task {
  readonly id: "arithmetic";
  readonly formatScore: number;
  readonly passK: readonly number[];
}

/**
 * The arithmetic task.
 * @throws RangeError on a bad operand range, formatScore outside [0, 1), a k < 1, or evalSize out of range.
 */
export function createArithmeticTask(opts: ArithmeticOptions = {}): ArithmeticTask {
  const seed = opts.seed ?? 0;
  const formatScore = opts.formatScore ?? 0;
  if (!(formatScore >= 0 && formatScore < 1))
    throw new RangeError(`formatScore ${formatScore} must be in [0, 1)`);
  const passK = [...(opts.passK ?? [1, 4, 8])];
  if (passK.some((k) => !Number.isInteger(k) || k < 1))
    throw new RangeError(`passK [${passK}] must hold integers ≥ 1`);
  const pool = arithmeticPromptPool(opts.minOperand ?? 10, opts.maxOperand ?? 99);
  return {
    id: "arithmetic",
    title: "Arithmetic (2-digit addition, exact-match verifier)",
    tokenizerPath: tokenizerPathOf("arithmetic"),
    seed,
    prompts: splitPrompts(pool, seed, opts.evalSize ?? 256),
    goldRange: [0, 1],
    generation: { maxNewTokens: 6, temperature: 1 },
    formatScore,
    passK,
    metrics: [
      ...passK.map((k) => ({
        key: `pass@${k}`,
        label: `pass@${k}`,
        description: `chance that ${k} samples hold a correct answer (unbiased estimator, Chen et al. 2021)`,
      })),
      {
        key: "gold_mean",
        label: "gold",
        description: "mean gold score (1 correct, formatScore well-formed)",
      },
      {
        key: "format_rate",
        label: "well-formed",
        description: "share of answers that are well-formed numbers",
      },
      { key: "length_mean", label: "length", description: "mean completion length in characters" },
    ],
    gold: (prompt, completion) => arithmeticGold(prompt, completion, formatScore),
    evaluate(samples: readonly PromptSamples[]) {
      checkSamples(samples);
      const counts = samples.map(
        (s) =>
          [
            s.completions.length,
            s.completions.filter((c) => arithmeticGold(s.prompt, c) === 1).length,
          ] as const,
      );
      const minN = Math.min(...counts.map(([n]) => n));
      const out: Record<string, number> = {};
      for (const k of passK) if (k <= minN) out[`pass@${k}`] = meanPassAtK(counts, k);
      const texts = samples.flatMap((s) => s.completions);
      out.gold_mean = mean(
        samples.flatMap((s) => s.completions.map((c) => arithmeticGold(s.prompt, c, formatScore))),
      );
      out.format_rate = mean(texts.map((t) => (isWellFormedNumber(t) ? 1 : 0)));
      out.length_mean = mean(texts.map((t) => [...t].length));
      return out;
    },
  };
}
