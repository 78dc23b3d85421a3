/**
 * Reward sources a run can optimise (src/algorithms/reward.ts RewardSource): the task's gold scorer, a learned
 * proxy RM or a user RM through ONNX (onnxruntime-web), or the proxy RM on the WGSL engine. Runs always score
 * the gold reward separately too, so proxy-vs-gold over-optimisation can be charted (Gao et al. 2022).
 *
 * Token convention (docs/reward-models.md): a sample is `prompt` ids (as the policy saw them, normally starting
 * with `<bos>`) and `completion` ids up to and including `<eos>` when it finished. An RM scores the sequence
 * `<bos> prompt completion`, `<bos>` added when the prompt lacks it, left-padded, and cut to the model's
 * maximum length from the left (the end is kept).
 */
import type { RewardSample, RewardSource } from "../algorithms/reward";
import { encodeCompletion } from "../tasks/preferences";
import type { Task } from "../tasks/task";
import type { Tokenizer } from "../tokenizer/tokenizer";
import type { OnnxRewardModel } from "./onnx_reward_model";
import type { RewardModelScorer } from "./rm_trainer";
import { truncateLeft } from "./rm_trainer";
import { goldRewardSource } from "./task_rewards";

/**
 * The task's gold scorer as a RewardSource (name "<task>-gold"): task.gold(prompt text without a leading
 * `<bos>`, completion text cut at its first `<eos>`); scores lie in task.goldRange. One implementation,
 * src/rewards/task_rewards.ts goldRewardSource, which every run also uses for `reward_gold`.
 */
export const goldReward: (task: Task, tokenizer: Tokenizer) => RewardSource = goldRewardSource;

/** `<bos> prompt completion` ids of a sample (BOS added when the prompt does not start with it). */
export function rmSequence(s: RewardSample, bosId: number): number[] {
  const head = s.prompt[0] === bosId ? [] : [bosId];
  return [...head, ...s.prompt, ...s.completion];
}

/**
 * The ids `<bos> prompt completion [<eos>]` of a preference record's texts, as the lab's samples look when
 * scored ({@link rmSequence}): EOS only when the completion ended, i.e. is shorter than `sampledLength`, the
 * limit it was sampled with (src/tasks/preferences.ts encodeCompletion). `sampledLength` null appends EOS to
 * every completion, how the shipped arithmetic RM was trained (scripts/train-rm.ts `--eos always`).
 */
export function rmSequenceFromText(
  tokenizer: Tokenizer,
  prompt: string,
  completion: string,
  sampledLength: number | null,
): number[] {
  // No limit: every completion counts as ended.
  const tail = encodeCompletion(tokenizer, completion, sampledLength ?? Number.POSITIVE_INFINITY);
  return [tokenizer.bosId, ...tokenizer.encode(prompt), ...tail];
}

export interface OnnxRewardOptions {
  /** Shown in the UI and logged. Default "proxy-rm". */
  name?: string;
  /** Rows per onnxruntime call. Default 32. */
  maxRows?: number;
}

/**
 * A RewardSource over an ONNX reward model (loaded and validated by loadOnnxRewardModel): left-padded int64
 * batches of `<bos> prompt completion` with the tokenizer's pad id, cut to the model's max_length from the left.
 * @throws OnnxRewardModelError from score() when the model fails at run time (the run stops with that error).
 */
export function onnxReward(
  model: OnnxRewardModel,
  tokenizer: Tokenizer,
  opts: OnnxRewardOptions = {},
): RewardSource {
  const maxRows = opts.maxRows ?? 32;
  return {
    name: opts.name ?? "proxy-rm",
    async score(samples) {
      const out = new Float64Array(samples.length);
      for (let start = 0; start < samples.length; start += maxRows) {
        const seqs = samples
          .slice(start, start + maxRows)
          .map((s) => rmSequence(s, tokenizer.bosId))
          .map((s) => (model.maxLength ? truncateLeft(s, model.maxLength) : s));
        const B = seqs.length;
        const T = Math.max(1, ...seqs.map((s) => s.length));
        const ids = new Array<number>(B * T).fill(tokenizer.padId);
        const mask = new Array<number>(B * T).fill(0);
        seqs.forEach((s, b) => {
          for (let i = 0; i < s.length; i++) {
            ids[b * T + T - s.length + i] = s[i];
            mask[b * T + T - s.length + i] = 1;
          }
        });
        out.set(await model.run(ids, mask, B, T), start);
      }
      return out;
    },
  };
}

/** A RewardSource over the proxy RM on the WGSL engine (same sequences and scores as its ONNX export). */
export function engineReward(scorer: RewardModelScorer, bosId: number, name = "proxy-rm"): RewardSource {
  return { name, score: (samples) => scorer.score(samples.map((s) => rmSequence(s, bosId))) };
}
