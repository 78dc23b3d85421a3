/**
 * The training loops of the Pipeline's stages 1 (SFT) and 2 (reward model), for src/lab/pipeline/pipeline.ts
 * (which owns the models). Each loop reports every step, with a sample (SFT) or a held-out evaluation (RM) every
 * ~steps/REPORTS steps and at its last step, and can be stopped between steps: asked to stop
 * ({@link StageControl.stopped}), it finishes the step in progress, reports it with a sample or evaluation (so
 * the stage ends with one, as a completed stage does) and returns a result for the steps it did, with `planned`
 * the steps asked for. The model trained so far is then the stage's model, as after a full run.
 */
import type { GpuContext } from "../../gpu/context";
import type { GPTConfig } from "../../model/config";
import { Generator } from "../../model/generate";
import { nextTokenTargets, SftTrainer } from "../../model/sft";
import type { GptWeights } from "../../model/weights";
import { type EncodedPair, pairAccuracy } from "../../rewards/rm_eval";
import type { RewardModelScorer } from "../../rewards/rm_trainer";
import { RewardModelTrainer } from "../../rewards/rm_trainer";
import { completionText, type Task } from "../../tasks";
import { shuffle } from "../../tasks/task";
import type { Tokenizer } from "../../tokenizer/tokenizer";
import { Rng } from "../../util/rng";
import type { PipelineEval, PipelineProgress, PipelineSettings, PipelineStageResult } from "./fields";
import { sftData } from "./sft_data";

/** Longest SFT row (tokens): book windows longer than this only slow a nano model down. */
const SFT_MAX_ROW = 64;
/** Samples and held-out evaluations per stage (spread over its steps, the last step included). */
const REPORTS = 5;

/** What the pipeline needs from the lab. */
export interface PipelineDeps {
  task: Task;
  tokenizer: Tokenizer;
  seed: number;
  /**
   * The task's reward-model pairs (JSONL text of models/<task>/<RM_PAIRS_FILE>, ./pairs.ts), fetched when stage 2
   * first needs them; null when none are shipped.
   */
  preferences(): Promise<string | null>;
}

/** How a stage's loop reports and learns that it should stop. */
export interface StageControl {
  onProgress(p: PipelineProgress): void;
  /** True once a stop was asked for: the loop ends after the step in progress (at least one step is done). */
  stopped(): boolean;
}

/** True every ~steps/REPORTS steps and at the last step. */
export const reportAt = (step: number, steps: number) =>
  step === steps || step % Math.max(1, Math.round(steps / REPORTS)) === 0;

/**
 * Stage 1's loop: `w` (a fresh model of `config`) trained for up to s.sftSteps steps of next-token
 * cross-entropy on the task's text. @throws RangeError when the loss is not finite; whatever the GPU throws.
 */
export async function trainSft(
  ctx: GpuContext,
  w: GptWeights,
  config: GPTConfig,
  d: PipelineDeps,
  s: PipelineSettings,
  c: StageControl,
): Promise<Omit<PipelineStageResult, "model">> {
  const { task, tokenizer: tok, seed } = d;
  const data = await sftData(task, tok, s.sftBatch, Math.min(SFT_MAX_ROW, config.contextLength), seed + 1);
  const trainer = new SftTrainer(ctx, w, s.sftBatch, data.T);
  const prompt = task.prompts.eval[0];
  const promptIds = tok.encode(prompt, { bos: true });
  const S = Math.min(task.generation.maxNewTokens, config.contextLength - promptIds.length);
  const gen = new Generator(ctx, w, 1, promptIds.length, S);
  const t0 = performance.now();
  let first = Number.NaN;
  let last = Number.NaN;
  let done = 0;
  try {
    for (let step = 1; step <= s.sftSteps; step++) {
      const batch = data.next();
      const m = await trainer.step(batch, nextTokenTargets(batch), { lr: s.sftLr });
      if (!Number.isFinite(m.loss)) throw new RangeError(`the SFT loss became ${m.loss} at step ${step}`);
      if (step === 1) first = m.loss;
      last = m.loss;
      done = step;
      const p: PipelineProgress = {
        stage: "sft",
        step,
        steps: s.sftSteps,
        loss: m.loss,
        gradNorm: m.gradNorm,
      };
      const report = reportAt(step, s.sftSteps) || c.stopped();
      if (report) {
        const g = await gen.generate({
          prompts: [promptIds],
          maxNewTokens: S,
          eosId: tok.eosId,
          padId: tok.padId,
          seed: seed + step,
        });
        p.sample = { prompt, completion: completionText(g.tokens.subarray(0, g.lengths[0]), tok).text };
      }
      c.onProgress(p);
      // A stop asked for during the sample ends here too: this step has its report.
      if (report && c.stopped()) break;
    }
  } finally {
    trainer.destroy();
    gen.destroy();
  }
  return {
    stage: "sft",
    steps: done,
    planned: s.sftSteps,
    firstLoss: first,
    lastLoss: last,
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * Stage 2's loop: `w` (a copy of the stage-1 model with its reward head; `scorer` reads it) trained with the
 * Bradley–Terry loss for up to s.rmSteps steps of s.rmBatch pairs, its held-out accuracy measured before, every
 * few steps and at its last step. @throws RangeError when the loss is not finite; whatever the GPU throws.
 */
export async function trainRm(
  ctx: GpuContext,
  w: GptWeights,
  scorer: RewardModelScorer,
  pairs: { train: EncodedPair[]; eval: EncodedPair[] },
  d: PipelineDeps,
  s: PipelineSettings,
  c: StageControl,
): Promise<PipelineStageResult> {
  const trainer = new RewardModelTrainer(ctx, w, d.tokenizer.padId);
  const held = pairs.eval.slice(0, s.evalPairs);
  const evaluate = async (step: number): Promise<PipelineEval> => {
    const a = await pairAccuracy(held, (seqs) => scorer.score(seqs));
    return { step, pairs: a.pairs, labelAccuracy: a.labelAccuracy, goldAccuracy: a.goldAccuracy };
  };
  const rng = new Rng(d.seed + 2);
  let order: EncodedPair[] = [];
  const nextPairs = () =>
    Array.from({ length: s.rmBatch }, () => {
      if (!order.length) order = shuffle(pairs.train, rng);
      return order.pop() as EncodedPair;
    });
  const t0 = performance.now();
  let first = Number.NaN;
  let last = Number.NaN;
  let done = 0;
  let evalAfter: PipelineEval | undefined;
  try {
    const evalBefore = await evaluate(0);
    for (let step = 1; step <= s.rmSteps; step++) {
      const m = await trainer.step(nextPairs(), { lr: s.rmLr });
      if (!Number.isFinite(m.loss))
        throw new RangeError(`the reward model's loss became ${m.loss} at step ${step}`);
      if (step === 1) first = m.loss;
      last = m.loss;
      done = step;
      const p: PipelineProgress = {
        stage: "rm",
        step,
        steps: s.rmSteps,
        loss: m.loss,
        gradNorm: m.gradNorm,
        accuracy: m.accuracy,
      };
      const report = reportAt(step, s.rmSteps) || c.stopped();
      if (report) p.eval = evalAfter = await evaluate(step);
      c.onProgress(p);
      if (report && c.stopped()) break;
    }
    return {
      stage: "rm",
      steps: done,
      planned: s.rmSteps,
      firstLoss: first,
      lastLoss: last,
      seconds: (performance.now() - t0) / 1000,
      evalBefore,
      evalAfter,
    };
  } finally {
    trainer.destroy();
  }
}
