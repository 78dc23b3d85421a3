/**
 * What the scheduler (./scheduler.ts) needs from a run and from whoever makes runs: the worker's GPU runs
 * (./runs.ts) implement it, and so do the unit tests' fakes.
 */
import type { InspectView, RunSpec, RunUpdate, SampleView, SettingValue, StepProgress } from "./protocol";

/** What one step of a run gives the scheduler. */
export interface StepOutput {
  /** 1-based step number. */
  step: number;
  /** TRL metric names; `samples` and `tokens` (this step's counts) feed the cumulative x-axes. */
  metrics: Record<string, number>;
  /** The step's completions as views; called lazily, only for the last step before a flush. */
  samples?: () => SampleView[];
  /** The step's inspector data (src/lab/inspect/); called lazily like `samples`. */
  inspect?: () => InspectView;
}

/** A run as the scheduler sees it. */
export interface SchedRun {
  /** The effective settings (all fields). */
  readonly config: Record<string, SettingValue>;
  /** One step; `onProgress` hears where it is (sampling, scoring, update) while it runs. */
  step(onProgress?: (p: StepProgress) => void): Promise<StepOutput>;
  /** Validate and apply settings from the next step on. @throws RangeError naming the bad field. */
  setConfig(patch: Record<string, SettingValue>): void;
  /**
   * After its weights were put back (a checkpoint: a reload, a lost device, a rewind after an error): the
   * settings those weights last trained with, and the keys whose value differs from `config` now (changed
   * after that step; not one the algorithm moves by itself, such as PPO's adaptive β). The scheduler marks
   * them at the next step. Null or absent: nothing recorded.
   */
  changesSinceTrained?(): { from: Record<string, SettingValue>; keys: string[] } | null;
  destroy(): void;
}

/** Makes runs (the worker's implementation owns the GPU). */
export interface RunFactory {
  /** A fresh run of `spec` from the start model. @throws RangeError on an invalid config. */
  create(spec: RunSpec): Promise<SchedRun>;
  /** A copy of `source` (weights, optimizer state, step count) with `spec`'s settings. */
  fork(source: SchedRun, sourceSpec: RunSpec, spec: RunSpec): Promise<SchedRun>;
  /** Called after each successful step, still between steps (e.g. a checkpoint every k steps). */
  afterStep?(runId: string, run: SchedRun, out: StepOutput): Promise<void>;
  /** Forget whatever afterStep kept for a run (removed, reset). */
  forget?(runId: string): void;
}

/**
 * What resuming a run from saved weights has to tell (Scheduler.resumeRun): a notice for the page (it follows the
 * run's label) and a change its settings do not show, marked at its next step as a setting's would be.
 */
export interface ResumeNote {
  notice: string;
  change?: { key: string; label: string; from: SettingValue; to: SettingValue };
}

/** A run rebuilt after a lost device: the new run and the step it resumes after. */
export interface Restored {
  run: SchedRun;
  step: number;
}

/** What a Scheduler (scheduler.ts) is built with. */
export interface SchedulerOptions {
  factory: RunFactory;
  /**
   * Receives the batched updates. When it returns a promise (the page's acknowledgement, e.g. once it has
   * rendered them), no further update is sent before it settles: a page that renders slowly gets fewer,
   * larger updates instead of a backlog (backpressure).
   */
  onUpdate(updates: RunUpdate[]): unknown;
  /** Minimum time between two onUpdate calls. Default 250 ms. */
  flushMs?: number;
  /** A step in flight longer than this (ms) sends where it is (RunUpdate.progress). Default 1000. */
  progressAfterMs?: number;
  /** Display label of a setting for markers (e.g. "beta" → "β"). Default: the key. */
  fieldLabel?(spec: RunSpec, key: string): string;
  /** True for an error that means the device is gone (the runs are not at fault). */
  isDeviceLoss?(e: unknown): boolean;
}

/** No GPU device could be had again: each run card's text, and the lab's notice (said once) with the advice. */
export interface GoneForGood {
  error: string;
  notice?: string;
}
