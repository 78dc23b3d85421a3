/**
 * The reward-model training script's options, defaults per task and result (../train-rm.ts trainRewardModel).
 */

import type { PresetName } from "../../src/model/config";
import type { PairAccuracy } from "../../src/rewards/rm_eval";
import type { TaskId } from "../../src/tasks/task";

/** Defaults per task: steps and learning rate (tiny models fine-tuned from SFT). */
export const RM_DEFAULTS: Record<TaskId, { steps: number; lr: number; batch: number }> = {
  sentiment: { steps: 60, lr: 1e-3, batch: 16 },
  // 9,673 train pairs, 5 epochs: held-out gold accuracy 0.761 (the 906 shared pairs stayed at chance).
  arithmetic: { steps: 1500, lr: 1e-4, batch: 32 },
};

/** What trainRewardModel (../train-rm.ts) trains: each option's default is said beside it. */
export interface TrainRmOptions {
  task: TaskId;
  steps?: number;
  seed?: number;
  /** Pairs per step. Default 16. */
  batch?: number;
  lr?: number;
  /** Reward centring η ≥ 0. Default 0. */
  center?: number;
  /** Preference JSONL. Default public/models/<task>/ + RM_DATA[task]. */
  data?: string;
  /** Start checkpoint, which must exist. Default public/models/<task>/sft.safetensors (a fresh tiny init when missing). */
  init?: string;
  /** Start from a fresh init of this preset instead of a checkpoint (not with `init`). */
  preset?: PresetName;
  /** Output folder. Default public/models/<task>. */
  out?: string;
  /** Log every K steps (0: never). Default 10. */
  logEvery?: number;
  /** Train pairs scored after training (a seeded sample). Default 256. */
  trainEvalPairs?: number;
  /** Where the training step runs. Default "tfjs-wasm". */
  backend?: RmBackend;
  /** EOS on the completions that ended (default) or on every completion (`always`, the old rule). */
  eos?: RmEos;
  log?: (line: string) => void;
}

/** Where the training step runs: TensorFlow.js on WebAssembly (CPU), or the lab's WGSL kernels. */
export type RmBackend = "tfjs-wasm" | "wgsl";
/** Which completions get an EOS token before scoring. */
export type RmEos = "ended" | "always";

/** What a training gave: its files, accuracies before and after, final loss, ONNX check, wall time (s). */
export interface TrainRmResult {
  rmPath: string;
  onnxPath: string;
  initFrom: string;
  before: { eval: PairAccuracy };
  after: { eval: PairAccuracy; train: PairAccuracy };
  finalLoss: number;
  /** Worst |ORT − WGSL| over the checked scores. */
  onnxMaxDiff: number;
  seconds: number;
}
