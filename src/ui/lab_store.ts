/**
 * The lab's state (zustand): the experiment spec (the single source of truth that the URL and IndexedDB
 * mirror), each run's status, metric history, markers and latest samples, and the view settings of the
 * charts. The worker client (src/ui/client.ts) applies RunUpdates here; components read it. No weights here.
 */

import { create } from "zustand";
import type { AutotuneResult } from "../kernels/autotune";
import type { RunOrigin } from "../lab/export/origin";
import type { PresetId } from "../lab/presets/ids";
import type {
  ExperimentSpec,
  InspectView,
  Marker,
  MetricPoint,
  RunErrorKind,
  RunSpec,
  RunStatus,
  RunUpdate,
  RunWinRate,
  SampleView,
  SettingValue,
  StepProgress,
} from "../lab/protocol";
import { detachForks, restartedSpecs } from "../lab/run_labels";
import { MAX_RUNS } from "../lab/settings";
import { applyRunUpdates } from "./apply_updates";
import { reloadForEdit } from "./hot_reload";
import { withColours } from "./lab/palette";
import { keepSpeed, savedSpeed } from "./speed_pref";

/** A run's win-rate measurement (src/lab/evaluate.ts through the worker). */
export type WinRateState =
  | { status: "measuring" }
  | { status: "done"; result: RunWinRate }
  | { status: "error"; message: string };

export type XAxis = "step" | "samples" | "tokens" | "kl" | "sqrt_kl";
export type KlEstimator = "objective/kl" | "objective/kl_k2" | "objective/kl_k3" | "objective/kl_exact";
export type ColourMode = "none" | "logp" | "prob" | "advantage" | "ratio" | "kl";

/** A step's progress on the page: where it is, and when the step began (Date.now() ms, from the worker's elapsed). */
export interface ShownProgress extends StepProgress {
  since: number;
  /** The run's step count when reported: the step in flight is step + 1. */
  step: number;
}

export interface RunState {
  spec: RunSpec;
  status: RunStatus;
  step: number;
  history: MetricPoint[];
  markers: Marker[];
  samples: SampleView[];
  error: string | null;
  /** With `error`: the failed step left the run as it was (its reward source failed): it can try it again. */
  retryable?: true;
  /** With `error`: its kind, when the card offers something else than going back to its last checkpoint. */
  errorKind?: RunErrorKind;
  /** With `error`: the run has no weights (it could not start, or its rebuild failed): no checkpoint or ONNX. */
  noWeights?: true;
  /** The inspector data of the latest step (src/ui/inspect/), once a step was taken. */
  inspect?: InspectView;
  /**
   * Imported for comparison without weights (src/ui/lab/import_run.ts): its curves are drawn, but the worker
   * does not know it, so nothing trains, forks, evaluates or exports its weights.
   */
  comparison?: boolean;
  /** With `comparison`: where its run file came from (task, seed, lab, models: src/lab/export/origin.ts). */
  origin?: RunOrigin;
  /**
   * Settings changed since the run's last step, which no trained step used yet: key → the value its steps
   * trained with (null: the default). Exports say so (a paused run's weights are not its new settings').
   */
  untrained?: Record<string, SettingValue | null>;
  /**
   * Restored from saved weights at this step (a reload, an import): the optimizer's moments come back with a
   * reload's checkpoint and start over after an import (src/lab/runs.ts loadSaved). Set with `resuming` while the worker loads the checkpoint; the worker's
   * updates from before (the run as added: step 0) are then not the run's.
   */
  resumedAt?: number;
  resuming?: boolean;
}

export interface ViewSettings {
  xAxis: XAxis;
  klEstimator: KlEstimator;
  /** Exponential moving-average smoothing in [0, 0.99] (TensorBoard style). */
  smoothing: number;
  /** Runs hidden from the charts (legend toggles). */
  hidden: string[];
  colourMode: ColourMode;
}

export type LabPhase = "idle" | "loading" | "ready" | "error";

export interface LabState {
  spec: ExperimentSpec;
  phase: LabPhase;
  /** Why loading failed or the worker died (shown on the page). */
  phaseError: string | null;
  /** With phase "error": a reload may help (false for an error of the browser's: no "Try again"). */
  phaseReloadHelps: boolean;
  /**
   * The page is opening its experiment: runs saved before are being restored (their checkpoints loaded into the
   * worker). No Play or Step meanwhile: a step from the start model would land in a restored curve.
   */
  restoring: boolean;
  playing: boolean;
  /** While a Step is in flight: each run's step when it was pressed (a run is "stepping" until it passes it). */
  steppingFrom: Record<string, number> | null;
  /** Steps pressed and not finished yet (each press queues one more behind the one in flight). */
  stepsQueued: number;
  /**
   * Where each run's step in flight is, when it has taken over a second (RunUpdate.progress), by run id. Kept
   * apart from `runs`, so that a progress-only update leaves the runs (and every chart) untouched.
   */
  stepProgress: Record<string, ShownProgress>;
  /** Steps per second cap, 0 = unlimited. */
  speed: number;
  runs: Record<string, RunState>;
  view: ViewSettings;
  /** A notice shown once (e.g. "the link was malformed; defaults loaded"). */
  notice: string | null;
  /**
   * The address the page opened with when its link could not be used whole (the notice says why): the lab then
   * rewrites the address to the experiment it opened, and the notice offers this one for a bug report.
   */
  brokenLink: string | null;
  /** The autosaver is writing (true), has nothing left to write (false), or there is none (null). */
  saving: boolean | null;
  /**
   * Why the lab's last save failed (storage full, unavailable), until a save succeeds again; null when saving
   * works. The save indicator then says "not saved", even while playing.
   */
  saveFailed: string | null;
  /** Model description from the worker. */
  model: string | null;
  /** The matmul kernel the worker picked at start-up (null: not yet, or its timing failed). */
  kernels: AutotuneResult | null;

  setSpec(spec: ExperimentSpec): void;
  /** The experiment's step limit (0 = none), keeping the runs and their progress. */
  setStopAt(steps: number): void;
  /** Per run: its win rate over the start model, being measured, or why it failed. */
  winRates: Record<string, WinRateState>;
  setWinRate(runId: string, state: WinRateState | null): void;
  /** Mark the experiment as a lesson's, or (null) as free play, keeping the runs and their progress. */
  setLesson(preset: PresetId | null): void;
  /** `reloadHelps` false: the error is the browser's (a reload gives the same), so no "Try again". */
  setPhase(phase: LabPhase, error?: string | null, reloadHelps?: boolean): void;
  setRestoring(restoring: boolean): void;
  setPlaying(playing: boolean): void;
  setStepping(from: Record<string, number> | null): void;
  setStepsQueued(n: number): void;
  setSpeed(speed: number): void;
  /** The model description and (when given) the worker's kernel pick. */
  setModel(model: string | null, kernels?: AutotuneResult | null): void;
  applyUpdates(updates: RunUpdate[]): void;
  /** Reset every run's progress (keeps the specs). */
  clearProgress(): void;
  upsertRun(spec: RunSpec): void;
  removeRun(id: string): void;
  setRunConfig(id: string, patch: Record<string, SettingValue>): void;
  /** A run's new name (checked by labActions.renameRun), in its card, the legend and the link at once. */
  setRunLabel(id: string, label: string): void;
  setView(patch: Partial<ViewSettings>): void;
  setNotice(notice: string | null): void;
  setBrokenLink(link: string | null): void;
  setSaving(saving: boolean | null): void;
  setSaveFailed(line: string | null): void;
  /** Restore runs with their history (IndexedDB or an imported run). */
  restoreRuns(runs: RunState[]): void;
  /**
   * Run `id` starts over: it is no fork any more, and its forks become forks of its source, or of nothing
   * (run_labels.ts detachForks).
   */
  unfork(id: string): void;
}

/**
 * The experiment as links carry it: without the runs imported for comparison (they are curves from a file,
 * which a link cannot carry; this browser keeps them across reloads instead).
 */
export function sharedSpec(s: { spec: ExperimentSpec; runs: Record<string, RunState> }): ExperimentSpec {
  const own = s.spec.runs.filter((r) => !s.runs[r.id]?.comparison);
  return own.length === s.spec.runs.length ? s.spec : { ...s.spec, runs: own };
}

/** Whether the lab holds MAX_RUNS runs of its own, so it takes no more (scheduler.ts refuses them too). */
export const labFull = (s: { spec: ExperimentSpec; runs: Record<string, RunState> }): boolean =>
  sharedSpec(s).runs.length >= MAX_RUNS;

/**
 * The step of the furthest and of the slowest run that can still step (not in error, not imported for
 * comparison; when every run is in error, of those); [0, 0] without one. A pause between two runs' steps, or a
 * run added later, leaves some behind.
 */
export const stepRange = (s: { runs: Record<string, RunState> }): [number, number] => {
  const trained = Object.values(s.runs).filter((r) => !r.comparison);
  const stepping = trained.filter((r) => r.status !== "error");
  // Every run in error: where they stopped.
  const live = (stepping.length ? stepping : trained).map((r) => r.step);
  const top = Math.max(0, ...live);
  return [top, Math.min(top, ...live)];
};

/** The lab had started (its model is shown): an error phase since is a worker that stopped, not a failed start. */
export const labStarted = (s: { model: string | null }): boolean => s.model !== null;

/** The furthest step any run trained here (runs imported for comparison do not count). */
export const trainedSteps = (s: { runs: Record<string, RunState> }): number =>
  Math.max(0, ...Object.values(s.runs).map((r) => (r.comparison ? 0 : r.step)));

const emptyRun = (spec: RunSpec): RunState => ({
  spec,
  status: "ready",
  step: 0,
  history: [],
  markers: [],
  samples: [],
  error: null,
});

export const DEFAULT_VIEW: ViewSettings = {
  xAxis: "step",
  klEstimator: "objective/kl",
  smoothing: 0.6,
  hidden: [],
  colourMode: "none",
};

export const useLab = create<LabState>()((set) => ({
  spec: { task: "sentiment", model: "sft", seed: 0, runs: [] },
  phase: "idle",
  phaseError: null,
  phaseReloadHelps: true,
  restoring: false,
  playing: false,
  steppingFrom: null,
  stepsQueued: 0,
  stepProgress: {},
  speed: savedSpeed(),
  runs: {},
  view: DEFAULT_VIEW,
  notice: null,
  brokenLink: null,
  saving: null,
  saveFailed: null,
  model: null,
  kernels: null,

  setSpec: (spec) =>
    set({
      spec,
      runs: Object.fromEntries(spec.runs.map((r) => [r.id, emptyRun(r)])),
      winRates: {},
      stepProgress: {},
    }),
  setStopAt: (steps) =>
    set((s) => {
      const { steps: _old, ...rest } = s.spec;
      return { spec: steps > 0 ? { ...rest, steps } : rest };
    }),
  winRates: {},
  setWinRate: (runId, state) =>
    set((s) => {
      const { [runId]: _old, ...rest } = s.winRates;
      return { winRates: state ? { ...rest, [runId]: state } : rest };
    }),
  setLesson: (preset) =>
    set((s) => {
      const { preset: _old, ...rest } = s.spec;
      return { spec: preset ? { ...rest, preset } : rest };
    }),
  setPhase: (phase, error = null, reloadHelps = true) =>
    set({ phase, phaseError: error, phaseReloadHelps: reloadHelps }),
  setRestoring: (restoring) => set({ restoring }),
  setSaving: (saving) => set({ saving }),
  setSaveFailed: (saveFailed) => set((s) => (s.saveFailed === saveFailed ? s : { saveFailed })),
  setPlaying: (playing) => set({ playing }),
  setStepping: (steppingFrom) => set({ steppingFrom }),
  setStepsQueued: (stepsQueued) => set({ stepsQueued }),
  setSpeed: (speed) => {
    keepSpeed(speed);
    set({ speed });
  },
  setModel: (model, kernels) => set(kernels === undefined ? { model } : { model, kernels }),
  applyUpdates: (updates) => set((s) => applyRunUpdates(s, updates)),
  clearProgress: () =>
    set((s) => {
      // A run imported for comparison keeps its curves: the worker has nothing of it to restart; so does an
      // import whose checkpoint is still loading (the worker keeps it: Scheduler.reset). The others restart, and
      // a fork's label stops saying it is one (as the worker's: ../lab/run_labels.ts).
      const kept = (id: string) => s.runs[id]?.comparison === true || s.runs[id]?.resuming === true;
      const restarted = restartedSpecs(s.spec.runs.filter((r) => !kept(r.id)));
      const specs = new Map(restarted.map((r) => [r.id, r]));
      const specOf = (r: RunSpec) => specs.get(r.id) ?? r;
      const relabelled = s.spec.runs.some((r) => specOf(r) !== r);
      return {
        spec: relabelled ? { ...s.spec, runs: s.spec.runs.map(specOf) } : s.spec,
        runs: Object.fromEntries(
          Object.values(s.runs).map((r) => [r.spec.id, kept(r.spec.id) ? r : emptyRun(specOf(r.spec))]),
        ),
        winRates: {},
      };
    }),
  upsertRun: (spec) =>
    set((s) => ({
      spec: {
        ...s.spec,
        runs: s.spec.runs.some((r) => r.id === spec.id)
          ? s.spec.runs.map((r) => (r.id === spec.id ? spec : r))
          : [...s.spec.runs, spec],
      },
      runs: {
        ...s.runs,
        // A run added while a lost device is recovered waits for it, as the others do (it read "ready").
        [spec.id]: s.runs[spec.id]
          ? { ...s.runs[spec.id], spec }
          : Object.values(s.runs).some((r) => r.status === "recovering")
            ? { ...emptyRun(spec), status: "recovering" }
            : emptyRun(spec),
      },
    })),
  removeRun: (id) =>
    set((s) => {
      const runs = { ...s.runs };
      delete runs[id];
      // Its own win rate and every result measured against it go too (a new run may reuse the id).
      const winRates = Object.fromEntries(
        Object.entries(s.winRates).filter(
          ([runId, w]) => runId !== id && !(w.status === "done" && w.result.vs === id),
        ),
      );
      // The runs left keep their colours after a reload or in a shared link: each spec records its slot.
      // Its forks become forks of its source, or of nothing (RunSpec.forkOf): a new run may reuse the id.
      const left = detachForks(withColours(s.spec.runs), id).filter((r) => r.id !== id);
      for (const r of left) if (runs[r.id] && runs[r.id].spec !== r) runs[r.id] = { ...runs[r.id], spec: r };
      return { spec: { ...s.spec, runs: left }, runs, winRates };
    }),
  setRunLabel: (id, label) =>
    set((s) => {
      const r = s.runs[id];
      if (!r || r.spec.label === label) return {};
      const spec = { ...r.spec, label };
      return {
        spec: { ...s.spec, runs: s.spec.runs.map((x) => (x.id === id ? spec : x)) },
        runs: { ...s.runs, [id]: { ...r, spec } },
      };
    }),
  setRunConfig: (id, patch) =>
    set((s) => {
      const r = s.runs[id];
      if (!r) return {};
      const spec = { ...r.spec, config: { ...r.spec.config, ...patch } };
      // What the trained steps used, for the keys changed since the last one (a change undone drops out).
      let untrained = r.untrained;
      if (r.step > 0) {
        const u = { ...r.untrained };
        for (const [k, v] of Object.entries(patch)) {
          if (!(k in u)) u[k] = r.spec.config[k] ?? null;
          if (u[k] === v) delete u[k];
        }
        untrained = Object.keys(u).length ? u : undefined;
      }
      return {
        spec: { ...s.spec, runs: s.spec.runs.map((x) => (x.id === id ? spec : x)) },
        runs: { ...s.runs, [id]: { ...r, spec, untrained } },
      };
    }),
  setView: (patch) => set((s) => ({ view: { ...s.view, ...patch } })),
  setNotice: (notice) => set({ notice }),
  setBrokenLink: (brokenLink) => set({ brokenLink }),
  restoreRuns: (list) =>
    set((s) => ({ runs: { ...s.runs, ...Object.fromEntries(list.map((r) => [r.spec.id, r])) } })),
  unfork: (id) =>
    set((s) => {
      const specs = detachForks(s.spec.runs, id);
      if (specs.every((r, i) => r === s.spec.runs[i])) return {};
      const runs = { ...s.runs };
      for (const r of specs)
        if (runs[r.id] && runs[r.id].spec.forkOf !== r.forkOf) runs[r.id] = { ...runs[r.id], spec: r };
      return { spec: { ...s.spec, runs: specs }, runs };
    }),
}));

// Editing this module under `npx vite` reloads the page, saving first (./hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
