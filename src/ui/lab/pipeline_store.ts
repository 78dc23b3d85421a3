/**
 * The Pipeline view's state (zustand): its settings, and per stage (SFT, reward model) its status, the
 * points the worker reported (one per step), the latest sample and held-out evaluations, and the result.
 * Numbers only: the models stay in the training worker. A new worker starts an empty pipeline.
 */
import { create } from "zustand";
import {
  PIPELINE_FIELDS,
  type PipelineEval,
  type PipelineProgress,
  type PipelineSettings,
  type PipelineStage,
  type PipelineStageResult,
} from "../../lab/pipeline/fields";
import { reloadForEdit } from "../hot_reload";
import { tabWords } from "./tab_words";

export type StageStatus = "idle" | "running" | "done" | "error";

export interface StageState {
  status: StageStatus;
  points: PipelineProgress[];
  sample: { prompt: string; completion: string } | null;
  evals: PipelineEval[];
  result: PipelineStageResult | null;
  error: string | null;
  /** When it began training (performance.now(), ms), while it trains: its time left is estimated from it. */
  startedAt?: number;
}

export interface PipelineState {
  settings: PipelineSettings;
  sft: StageState;
  rm: StageState;
  /** The start model the runs got from the last hand-off, or null. */
  handedOff: string | null;
  /**
   * A stage trained again since the hand-off: the runs still use the models handed over then, not the ones the
   * view shows (absent in views saved by older pages: false).
   */
  handOffOld?: boolean;
  /**
   * Shown from a saved view that could not be read whole (./pipeline_view.ts): the Pipeline saver writes the view
   * as shown back when it starts (./pipeline_saver.ts), so the next load reads it whole and says nothing. Not
   * saved itself; absent: false.
   */
  repaired?: boolean;
  /** Hand-offs made in this page (a new one with the same description is still new models: saved again). */
  handOffs: number;
  /** The stage asked to stop (it ends after its step in progress), or null. */
  stopping: PipelineStage | null;
  setSettings(patch: Partial<PipelineSettings>): void;
  begin(stage: PipelineStage): void;
  setStopping(stage: PipelineStage | null): void;
  /** Steps the worker reported, in order (batched: ./pipeline_actions.ts hands them over a few times a second). */
  progress(ps: readonly PipelineProgress[]): void;
  finish(result: PipelineStageResult): void;
  fail(stage: PipelineStage, error: string): void;
  setHandedOff(model: string | null): void;
  /** Forget the trained stages (a new worker). */
  clear(): void;
  /** Show a saved view again (a reload that brought the Pipeline's models back). */
  restore(view: PipelineViewState): void;
}

/** What the view shows, as saved with the Pipeline's models (src/lab/persist.ts SavedPipeline.view). */
export type PipelineViewState = Pick<
  PipelineState,
  "settings" | "sft" | "rm" | "handedOff" | "handOffOld" | "repaired"
>;

/** The view's state worth saving: stages still running are saved as not trained. */
export function pipelineViewState(s: PipelineState): PipelineViewState {
  const settled = (st: StageState) => (st.status === "done" ? st : idle());
  return {
    settings: s.settings,
    sft: settled(s.sft),
    rm: settled(s.rm),
    handedOff: s.handedOff,
    handOffOld: s.handOffOld === true,
  };
}

/** The stage training now, or null. */
export function trainingStage(s: Pick<PipelineState, "sft" | "rm">): PipelineStage | null {
  return s.sft.status === "running" ? "sft" : s.rm.status === "running" ? "rm" : null;
}

/**
 * What leaving for another experiment does to the stage in training (`training`: {@link trainingLine}), for the
 * confirmations of Change… and the lesson picker; `saves`: whether this tab saves.
 */
export function stopFirstLine(training: string, saves: boolean): string {
  return saves
    ? `The Pipeline's ${training} stops first, at the end of its current step: its model so far is kept with this experiment under Recent experiments, like the Pipeline's other models.`
    : tabWords(`The Pipeline's ${training} stops, and its model is not kept: this tab does not save.`);
}

/** A stage's name in sentences: "SFT", "reward model". */
export const STAGE_NAMES: Record<PipelineStage, string> = { sft: "SFT", rm: "reward model" };

/**
 * The stage training now as words for a sentence, "SFT training in progress (step 44 of 300)", or null (a
 * string, so that a component can select it from the store).
 */
export function trainingLine(s: Pick<PipelineState, "sft" | "rm">): string | null {
  const stage = trainingStage(s);
  if (!stage) return null;
  const last = s[stage].points.at(-1);
  const where = last ? `step ${last.step} of ${last.steps}` : "before its first step";
  return `${STAGE_NAMES[stage]} training in progress (${where})`;
}

/** Whether a finished stage was stopped before the steps asked for. */
export const stoppedEarly = (st: StageState) =>
  st.status === "done" && st.result !== null && (st.result.planned ?? st.result.steps) > st.result.steps;

const idle = (): StageState => ({
  status: "idle",
  points: [],
  sample: null,
  evals: [],
  result: null,
  error: null,
});

export const DEFAULT_PIPELINE_SETTINGS = Object.fromEntries(
  PIPELINE_FIELDS.map((f) => [f.key, f.default]),
) as unknown as PipelineSettings;

export const usePipelineStore = create<PipelineState>()((set) => ({
  settings: DEFAULT_PIPELINE_SETTINGS,
  sft: idle(),
  rm: idle(),
  handedOff: null,
  handOffOld: false,
  handOffs: 0,
  stopping: null,
  setSettings: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
  // A new stage 1 makes stage 2 stale; a new stage 2 keeps stage 1. Either makes a hand-off old.
  begin: (stage) =>
    set((s) => ({
      [stage]: { ...idle(), status: "running", startedAt: performance.now() },
      ...(stage === "sft" && { rm: idle() }),
      ...(s.handedOff !== null && { handOffOld: true }),
      stopping: null,
    })),
  setStopping: (stopping) => set({ stopping }),
  progress: (ps) =>
    set((s) => {
      const out: Partial<Record<PipelineStage, StageState>> = {};
      for (const stage of ["sft", "rm"] as const) {
        const mine = ps.filter((p) => p.stage === stage);
        if (!mine.length) continue;
        const st = s[stage];
        const sampled = mine.filter((p) => p.sample).at(-1)?.sample;
        out[stage] = {
          ...st,
          points: st.points.concat(mine),
          sample: sampled ?? st.sample,
          evals: st.evals.concat(mine.flatMap((p) => (p.eval ? [p.eval] : []))),
        };
      }
      return out;
    }),
  finish: (result) =>
    set((s) => {
      const st = s[result.stage];
      const evals = result.evalBefore ? [result.evalBefore, ...st.evals] : st.evals;
      return { [result.stage]: { ...st, status: "done", result, evals }, stopping: null };
    }),
  fail: (stage, error) => set((s) => ({ [stage]: { ...s[stage], status: "error", error }, stopping: null })),
  setHandedOff: (handedOff) =>
    set((s) => ({ handedOff, handOffOld: false, handOffs: s.handOffs + (handedOff === null ? 0 : 1) })),
  clear: () =>
    set({ sft: idle(), rm: idle(), handedOff: null, handOffOld: false, repaired: false, stopping: null }),
  restore: (view) =>
    set({
      handOffOld: false,
      repaired: false,
      ...view,
      settings: { ...DEFAULT_PIPELINE_SETTINGS, ...view.settings },
    }),
}));

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
