/**
 * The pipeline view's settings (SFT → reward model → RL, issue 7 item 4) as a field table in the style of the
 * algorithms' (src/algorithms/fields.ts): one row per setting, validated with validateConfig, documented in the
 * controls' tooltips. Step counts are small on purpose: a nano model learns the task's format in tens of steps.
 * Plus the messages the worker sends while a stage trains. Plain data: no DOM, no GPU.
 */
import { type Field, validateConfig } from "../../algorithms/fields";
import type { GPTConfig } from "../../model/config";

export const PIPELINE_FIELDS = [
  {
    key: "size",
    label: "model size",
    kind: "enum",
    default: "nano",
    options: ["nano", "tiny"],
    doc: "The preset trained from scratch in stage 1 (nano: 2 layers, C = 32; tiny: 4 layers, C = 128); the context grows to fit the task's prompts and completions.",
    source: "implementation",
  },
  {
    key: "sftSteps",
    label: "SFT steps",
    kind: "int",
    default: 40,
    min: 1,
    max: 5000,
    doc: "Stage 1: AdamW steps of next-token cross-entropy on the task's text (sums a+b=c, or the book's sentences).",
    source: "Radford et al. 2018; Ouyang et al. 2022 §3.5 (SFT)",
  },
  {
    key: "sftBatch",
    label: "SFT batch",
    kind: "int",
    default: 16,
    min: 1,
    max: 256,
    doc: "Stage 1: rows (sequences) per step.",
    source: "implementation",
  },
  {
    key: "sftLr",
    label: "SFT lr",
    kind: "number",
    default: 3e-3,
    min: 0,
    max: 1,
    unit: "log",
    doc: "Stage 1: AdamW learning rate.",
    source: "Loshchilov & Hutter 2019",
  },
  {
    key: "rmSteps",
    label: "RM steps",
    kind: "int",
    default: 20,
    min: 1,
    max: 5000,
    doc: "Stage 2: AdamW steps of the Bradley–Terry loss −log σ(r_w − r_l) on the task's preference pairs; the reward model starts from the stage-1 model plus a scalar reward head.",
    source: "Ouyang et al. 2022 §3.5; Stiennon et al. 2020",
  },
  {
    key: "rmBatch",
    label: "RM pairs/step",
    kind: "int",
    default: 8,
    min: 1,
    max: 256,
    doc: "Stage 2: preference pairs per step (2 sequences each).",
    source: "implementation",
  },
  {
    key: "rmLr",
    label: "RM lr",
    kind: "number",
    default: 1e-3,
    min: 0,
    max: 1,
    unit: "log",
    doc: "Stage 2: AdamW learning rate.",
    source: "Loshchilov & Hutter 2019",
  },
  {
    key: "evalPairs",
    label: "held-out pairs",
    kind: "int",
    default: 32,
    min: 1,
    max: 1000,
    doc: "Stage 2: held-out (eval split) pairs the accuracy is measured on, before training, every few steps and at the end.",
    source: "implementation",
  },
] as const satisfies readonly Field[];

export interface PipelineSettings {
  size: "nano" | "tiny";
  sftSteps: number;
  sftBatch: number;
  sftLr: number;
  rmSteps: number;
  rmBatch: number;
  rmLr: number;
  evalPairs: number;
}

/** Fill defaults and check every setting. @throws RangeError naming the field and its range. */
export function pipelineSettings(values: Partial<PipelineSettings> = {}): PipelineSettings {
  return validateConfig<PipelineSettings & Record<string, string | number>>(
    "pipeline",
    PIPELINE_FIELDS,
    values as Partial<PipelineSettings & Record<string, string | number>>,
  );
}

export type PipelineStage = "sft" | "rm";

/** Held-out accuracies of the reward model (src/rewards/rm_eval.ts PairAccuracy), at a step (0 = before). */
export interface PipelineEval {
  step: number;
  pairs: number;
  /** Share of pairs ordered as the annotator labelled them, in [0, 1]. */
  labelAccuracy: number;
  /** Share of non-tied pairs ordered as the gold scorer orders them, in [0, 1] (NaN: no such pair). */
  goldAccuracy: number;
}

/** One step of a stage, as the worker reports it. */
export interface PipelineProgress {
  stage: PipelineStage;
  /** 1-based step just done. */
  step: number;
  steps: number;
  /** SFT: mean token cross-entropy (nats); RM: Bradley–Terry loss (nats). Before the update. */
  loss: number;
  gradNorm: number;
  /** RM: share of the step's pairs with r_w > r_l. */
  accuracy?: number;
  /** SFT: a sampled completion of a held-out prompt (now and then). */
  sample?: { prompt: string; completion: string };
  /** RM: held-out accuracies (every few steps and at the end). */
  eval?: PipelineEval;
}

/** What a finished stage reports. */
export interface PipelineStageResult {
  stage: PipelineStage;
  /** Steps trained: the model's. */
  steps: number;
  /**
   * Steps asked for: more than `steps` when the stage was stopped early (its model is the one trained so far).
   * Absent in results saved before stages could be stopped.
   */
  planned?: number;
  /** Loss of the first and the last step. */
  firstLoss: number;
  lastLoss: number;
  seconds: number;
  /** SFT: the model trained, e.g. "nano (2 layers, C = 32, context 32)". */
  model?: string;
  /** RM: held-out accuracies before training and at the end. */
  evalBefore?: PipelineEval;
  evalAfter?: PipelineEval;
}

/**
 * The Pipeline's models as plain arrays (IndexedDB keeps them, so a reload brings the stages and a hand-off
 * back): the stage-1 policy and stage-2 reward model, each with its step count, and the last hand-off's copies
 * (what the runs start from and optimise). All share `config`. Float32 parameters in the engine's flat layout.
 */
export interface PipelineModels {
  task: string;
  size: PipelineSettings["size"];
  config: GPTConfig;
  sft: { steps: number; params: Float32Array } | null;
  rm: { steps: number; params: Float32Array } | null;
  /**
   * The last hand-off: its own shape (`config`, `size`), which differs from the stages' when a stage was trained
   * again at another size since (absent in saves of older pages: the stages' `config` and `size`).
   */
  handed: {
    source: string;
    policy: Float32Array;
    rm: Float32Array;
    config?: GPTConfig;
    size?: PipelineSettings["size"];
  } | null;
}
