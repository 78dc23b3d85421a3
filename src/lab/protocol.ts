/**
 * The contract between the page and the training worker (src/lab/worker.ts, exposed with comlink). The page
 * holds no weights: it sends experiment specs and commands, and receives metric points, samples and status.
 * Everything here is structured-clone friendly (plain objects, arrays, typed arrays).
 */
import type { StepProgress } from "../algorithms/run";
import type { WinRate } from "../algorithms/win_rate";
import type { AdapterReport } from "../gpu/device";
import type { AutotuneResult } from "../kernels/autotune";
import type { PresetName } from "../model/config";
import type { TaskId } from "../tasks/task";
import type { InspectView } from "./inspect/types";
import type {
  PipelineModels,
  PipelineProgress,
  PipelineSettings,
  PipelineStage,
  PipelineStageResult,
} from "./pipeline/fields";
import type { PresetId } from "./presets/ids";
import type { AlgoId } from "./registry";
import type { RewardModelInfo } from "./reward_sources";
import type { StartStage } from "./start_progress";

export type { StepProgress } from "../algorithms/run";
export type { InspectView } from "./inspect/types";
export type {
  PipelineEval,
  PipelineModels,
  PipelineProgress,
  PipelineSettings,
  PipelineStage,
  PipelineStageResult,
} from "./pipeline/fields";
export type { RewardModelInfo } from "./reward_sources";

export type SettingValue = number | string | boolean;

/** One run of the experiment: an algorithm and its settings. */
export interface RunSpec {
  /** Stable id (e.g. "ppo-1"); also the key in the URL and IndexedDB. */
  id: string;
  algo: AlgoId;
  /** Display name, e.g. "PPO" or "GRPO (β = 0)". */
  label: string;
  /** Settings that differ from the algorithm's defaults (field keys of its table). */
  config: Record<string, SettingValue>;
  /**
   * Its colour: a slot of the lab's palette, 0 … COLOUR_SLOTS − 1, shown as colour slot % RUN_COLOURS
   * (src/ui/lab/palette.ts): the 8th run's slot 7 shows the first colour again, but stays its own, so that no
   * two runs share a slot and a reload cannot reorder who gets which. Set when a run is added, imported or
   * duplicated, and on every run left when one is removed, so that a reload or a shared link keeps each run's
   * colour; absent (a fresh default or lesson), runs are coloured in order.
   */
  colour?: number;
  /**
   * A duplicate's source: the run it was forked from (`id`) and that run's step then (`step`, ≥ 0). The fork's
   * history up to that step is a copy of the source's, so while the source is on the charts the fork's lines
   * start at `step`, where the two branch. Set by forkSpec (src/ui/lab/run_specs.ts); dropped when the runs
   * restart from the start model (run_labels.ts), on import, and in links (a link's fork starts over).
   */
  forkOf?: { id: string; step: number };
  /**
   * Its own training seed (0 … 2³¹ − 1, src/lab/settings.ts RUN_SEED_FIELD): the order of its prompts and its
   * sampler's draws. Absent: the experiment's seed (every link, session and run file made before 2027-01). The
   * start model is the experiment's whatever this is (a preset model is initialised from the experiment's seed),
   * so runs on several seeds start from the same weights. Kept by a fork and across Change… of the experiment's
   * seed.
   */
  seed?: number;
}

/** Colours in the run palette (Okabe–Ito without white). */
export const RUN_COLOURS = 7;

/** Completions the worker sends per run and update: the first rows of the batch (src/lab/samples.ts). */
export const SAMPLE_LIMIT = 8;
/** The range of {@link RunSpec.colour}: more slots than a lab's runs, imports for comparison included. */
export const COLOUR_SLOTS = 64;

/**
 * The whole experiment: every run shares the task, the start model and the seed (fairness), but for a run given
 * its own training seed (RunSpec.seed: the same start model, another prompt order and sampling).
 */
export interface ExperimentSpec {
  task: TaskId;
  /** "sft": the task's shipped checkpoint; a preset name: a fresh seeded init (tests, demos). */
  model: "sft" | PresetName;
  seed: number;
  runs: RunSpec[];
  /** Pause once every run has done this many steps (a lesson's length). Absent or 0: train until paused. */
  steps?: number;
  /** The guided lesson (src/lab/presets) this experiment came from; absent: free play. */
  preset?: PresetId;
}

/** One step's metrics, with the x-axis candidates. TRL metric names. */
export interface MetricPoint {
  step: number;
  /** Cumulative completions generated (sampled; ReMax's greedy ones too) and their completion tokens. */
  samples: number;
  tokens: number;
  metrics: Record<string, number>;
}

/** Where a run stands on the x-axes (a checkpoint resumes from these). */
export interface RunCounters {
  step: number;
  samples: number;
  tokens: number;
}

/** How a marker after a lost GPU device starts ("GPU lost: resumed from step 40"). */
export const DEVICE_LOST_MARKER = "GPU lost";

/** The marker of a run sent back to its last checkpoint after an error (worker.ts rewindRun). */
export const rewindMarker = (step: number) => `back to step ${step} after an error`;

/**
 * Whether a marker tells of a run put back to a checkpoint (a lost device, a rewind after an error) rather than
 * of a setting changed: the steps after it train as before, with the same settings.
 */
export function isResumeMarker(label: string): boolean {
  return label.startsWith(`${DEVICE_LOST_MARKER}:`) || /^back to step \d+ after an error$/.test(label);
}

/** A settings change mid-run: drawn as a labelled vertical marker on every chart. */
export interface Marker {
  runId: string;
  /** The change applies from this step on. */
  step: number;
  /** e.g. "β 0.05 → 0" (several changes of one step: "β 0.05 → 0, lr 1e-4 → 3e-5"). */
  label: string;
  /**
   * The setting changes it tells of, one per key, when it tells of changes (absent in a resume marker, and in
   * markers saved before 2027-01: exports then fall back to `label`). Each change's `label` is its part of the
   * marker's label ("β 0.05 → 0").
   */
  changes?: MarkerChange[];
}

/** One setting changed mid-run: its key ("beta"), the value before and from the marker's step on, its text. */
export interface MarkerChange {
  key: string;
  from: SettingValue;
  to: SettingValue;
  /** "β 0.05 → 0": the key's label and both values as the marker says them. */
  label: string;
}

/** One token of a sample, for the hover card and the colour modes. */
export interface TokenView {
  text: string;
  logp: number;
  prob: number;
  advantage: number | null;
  ratio: number | null;
  /** Per-token KL (k1: log π − log π_ref), nats. */
  kl: number;
  entropy: number;
}

export interface SampleView {
  prompt: string;
  completion: TokenView[];
  reward: number;
  gold: number;
}

/**
 * "finishing": the lab paused while this run's step was on the device; it lands, then the run is "paused".
 * "recovering": the GPU device was lost; the worker is getting a new one, then the run goes back to its last
 * checkpoint (./recovery.ts) and on as before (or to "error" when no device can be had).
 */
export type RunStatus = "ready" | "running" | "finishing" | "paused" | "recovering" | "error";

/**
 * What kind of failure a run's error is, where the card offers something else than "Back to its last
 * checkpoint" with a lower learning rate: the GPU device is gone for good (only a reload helps), the GPU ran out
 * of memory on its step (a smaller step helps), an internal GPU error (a bug in the lab), or the run could not
 * start (it has no checkpoint: a change of its settings starts it again with them).
 */
export type RunErrorKind = "device-gone" | "gpu-memory" | "gpu-internal" | "could-not-start";

/** What the worker pushes to the page (batched, at most every ~250 ms). */
export interface RunUpdate {
  runId: string;
  status: RunStatus;
  /** Steps done. */
  step: number;
  /** New points since the last update. */
  points: MetricPoint[];
  /** The latest completions (replaces the previous ones), when a step produced samples. */
  samples?: SampleView[];
  markers?: Marker[];
  /** Set with status "error": what happened, naming the metric and step for a non-finite metric. */
  error?: string;
  /**
   * With `error`: the run is as it was before the failed step (its reward source failed while scoring, before
   * any update), so it can try the step again (rewindRun) rather than go back to its last checkpoint.
   */
  retryable?: true;
  /** With `error`: its kind, when it is one the card treats apart (RunErrorKind). */
  errorKind?: RunErrorKind;
  /** With `error`: the run has no weights (it could not start, or its rebuild failed): nothing to export but its curves. */
  noWeights?: true;
  /**
   * The run went back to an earlier state (reset: 0; resumed from its last checkpoint after a lost GPU device:
   * that step): drop the history after this step before appending `points`.
   */
  rewindTo?: number;
  /** Something the user should be told about this run (e.g. "the GPU device was lost; resumed from step 40"). */
  notice?: string;
  /** The worker stopped playing by itself (a run's step lost the GPU device twice in a row): the page shows Play. */
  stopped?: true;
  /** The inspector data of the latest step (replaces the previous one), when a step was taken. */
  inspect?: InspectView;
  /**
   * Where the run's step in flight is (sampling token n of S, scoring, update k of μ), sent only for a step that
   * has taken over a second (on a GPU most never do); null: no step of this run in flight any more.
   */
  progress?: LiveProgress | null;
}

/** A step's progress as sent to the page: where it is, and how long the step had run when this was sent. */
export interface LiveProgress extends StepProgress {
  /** Milliseconds since the step began (the worker's clock) when this update was built for the page; ≥ 0. */
  elapsedMs: number;
}

/**
 * A run's win rate over the start model or another run (see LabWorkerApi.winRate): win_rate.ts's WinRate and
 * context.
 */
export interface RunWinRate extends WinRate {
  runId: string;
  /** The run's step when it was measured. */
  step: number;
  /** The opponent: null for the start model, else another run's id (at its step `vsStep`). */
  vs: string | null;
  vsStep: number;
  /** Mean gold score of the run's and the opponent's completions. */
  goldRun: number;
  goldStart: number;
}

export interface WorkerInfo {
  adapter: AdapterReport;
  /** e.g. "models/sentiment/sft.safetensors" or "tiny (random init, seed 0)". */
  model: string;
  vocabSize: number;
  /** What the user should know about the start (e.g. a shipped file was missing and a fallback is used). */
  notices: string[];
  /** The task ships a preference dataset (DPO "offline" possible); without one DPO runs train online. */
  preferences: boolean;
  /** A saved Pipeline hand-off was restored: runs with reward "pipeline" use it. */
  pipelineRestored: boolean;
  /** The matmul variant training uses, picked at start-up (src/lab/kernel_choice.ts); null if the timing failed. */
  kernels: AutotuneResult | null;
}

/** The worker's API (comlink proxy). Commands never block training; updates arrive through `onUpdate`. */
export interface LabWorkerApi {
  /** Answers at once: the page's check that the worker is still there (src/ui/worker_watch.ts). */
  ping(): boolean;
  /**
   * Acquire the GPU, load task + model, create the runs (status "ready"; a run whose settings cannot start is
   * reported in status "error"). `baseUrl` is the app's base (models/ lives under it). Rejects with a clear
   * message when the GPU, the task or the model cannot be had. `pipeline` (a reload) brings back the Pipeline
   * view's models first, so runs with reward "pipeline" start from its hand-off; if it cannot be restored, a
   * notice says so and those runs fall back as without it. `onStage` hears how the start goes (which file
   * downloads and how far, then the kernels' timing and the runs' creation: ./start_progress.ts).
   */
  init(
    spec: ExperimentSpec,
    onUpdate: (updates: RunUpdate[]) => void,
    baseUrl: string,
    pipeline?: PipelineModels,
    onStage?: (s: StartStage) => void,
  ): Promise<WorkerInfo>;
  /** Train all runs in turn until paused (a run behind the others takes two turns in a row until level). */
  play(): void;
  pause(): void;
  /** One step of every run (after a pause mid-round: only the runs one step behind), then pause. */
  stepOnce(): Promise<void>;
  /** Discard progress and restart every run from the start model. */
  reset(): Promise<void>;
  /** Steps per second cap, per run (0 = as fast as possible). */
  setSpeed(stepsPerSecond: number): void;
  /** Pause once every run has done `steps` steps; 0 = no limit. Rejects on a negative or fractional count. */
  setStopAt(steps: number): void;
  /**
   * Add a run. `held`: not stepped until resumeRun has loaded its saved state (an imported run with a checkpoint).
   */
  addRun(run: RunSpec, held?: boolean): Promise<void>;
  removeRun(runId: string): void;
  /**
   * Duplicate a run from its current state (weights, optimizer, step count) under a new id. Resolves with the
   * spec as used: its `forkOf` and " (fork @ N)" label carry the source's step here, which may be ahead of
   * the page's.
   */
  forkRun(runId: string, run: RunSpec): Promise<RunSpec>;
  /** Change settings of a run; applies at its next step; a marker is recorded. Rejects on an invalid value. */
  setConfig(runId: string, patch: Record<string, SettingValue>): Promise<void>;
  /**
   * Rename a run (a label the page checked: spec_check.ts cleanLabel), in turn with adds and settings changes
   * (after a step in flight). Unknown runs: ignored.
   */
  renameRun(runId: string, label: string): Promise<void>;
  /**
   * AlpacaFarm-style win rate of the run's current policy over the start model on the task's held-out prompts
   * (gold scorer, 95 % CI), between steps. Rejects when the run is unknown.
   */
  winRate(runId: string, prompts: number, vs?: string | null): Promise<RunWinRate>;
  /** The run's current policy as an ONNX model (input_ids, attention_mask → logits [B, T, V]). */
  exportPolicyOnnx(runId: string): Promise<Uint8Array>;
  /**
   * The run's current policy as a safetensors checkpoint; `resume`: with its AdamW states too (~3× larger: what
   * the page keeps in IndexedDB, so that a reload goes on exactly as the run would have).
   */
  exportCheckpoint(runId: string, resume?: boolean): Promise<Uint8Array>;
  /**
   * Load a saved policy (safetensors from exportCheckpoint, e.g. kept in IndexedDB) into a run and continue it
   * after `at.step` (x-axis counters `at`). The optimizer's moments come back when the file holds them (saved
   * with `resume`), else restart from zero. Resolves with what the
   * page should be told (a run that optimised the proxy reward model comes back on another file of it:
   * ./saved_origin.ts), or null. Rejects when the run is unknown or the checkpoint does not fit the start model.
   */
  loadRunCheckpoint(runId: string, bytes: Uint8Array, at: RunCounters): Promise<string | null>;
  /**
   * Send a run in error (a non-finite metric, say) back to its last CPU checkpoint (every 10 steps; the start
   * model before the first), clearing the error: its history after that step goes, a marker says so. Resolves
   * with that step. Rejects when the run is unknown or not in error.
   */
  rewindRun(runId: string): Promise<number>;
  /**
   * Check a user's ONNX reward model (`name`: the file name) against the task's tokenizer and the contract of
   * docs/reward-models.md; on success runs may choose reward "custom" (runs already on "custom" use it from
   * their next step). Rejects with an OnnxRewardModelError message naming what is wrong; the runs and their
   * reward sources are untouched then.
   */
  loadRewardModel(bytes: Uint8Array, name: string): Promise<RewardModelInfo>;
  /** The user's reward model that runs can use now: null when none is loaded, or its worker was ended. */
  customRewardModel(): RewardModelInfo | null;
  /**
   * Train one stage of the Pipeline view (src/lab/pipeline/pipeline.ts): "sft" (a fresh model on the task's
   * text) or "rm" (a reward model from it on the task's preference pairs). Pauses the lab first; every step
   * goes to `onProgress`. Rejects on bad settings (the field named), a missing earlier stage or a GPU error.
   */
  pipelineStage(
    stage: PipelineStage,
    settings: Partial<PipelineSettings>,
    onProgress: (p: PipelineProgress) => void,
  ): Promise<PipelineStageResult>;
  /**
   * Stop the Pipeline stage in training after its step in progress (and that step's sample or evaluation): its
   * pipelineStage call then resolves with the steps it reached (`steps` < `planned`), and the model trained so
   * far is the stage's model (stage 2 and the hand-off use it). Returns the stage, or null when none trains.
   */
  stopPipelineStage(): PipelineStage | null;
  /**
   * Stage 3: the Pipeline's SFT model becomes every run's start model and its reward model the reward source
   * "pipeline" of every run; the runs restart from step 0 (paused). Returns the new start model's description
   * and the runs set to reward "pipeline". Rejects when stage 1 or 2 has not been trained.
   */
  handOffPipeline(): Promise<{ model: string; runs: string[] }>;
  /** The Pipeline's stage-2 reward model as ONNX bytes (the reward-model contract). Rejects before stage 2. */
  pipelineRmOnnx(): Promise<Uint8Array>;
  /** The Pipeline's models (to save them), or null when nothing was trained. */
  pipelineModels(): Promise<PipelineModels | null>;
}
