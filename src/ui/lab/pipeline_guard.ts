/**
 * What guards a Pipeline stage while it trains (./pipeline_actions.ts train): leaving or reloading the page asks
 * first (a `beforeunload` handler, added only then: browsers show their own text), and a small marker in this
 * tab's sessionStorage (it survives a reload, and other tabs do not see it) names the stage and the step it
 * reached; written when the stage starts and when the page is hidden, removed when the stage ends. A page that
 * finds the marker when it opens was reloaded or left while that stage trained, and its training was lost:
 * {@link takeInterrupted} words the notice and gives back the settings the stage trained with (the view's
 * settings are saved with a finished stage only: without them a reload would put the step counts back to 40).
 */
import { type PipelineSettings, type PipelineStage, pipelineSettings } from "../../lab/pipeline/fields";
import type { ExperimentSpec } from "../../lab/protocol";
import { pageStorage } from "../../lab/reached";
import { askBeforeUnload } from "../../util/leave_prompt";
import { STAGE_NAMES } from "./pipeline_store";

/** The sessionStorage key of the marker. */
export const TRAINING_KEY = "rlhf-playground:pipeline-training";

/** The part of Storage the marker needs (sessionStorage, or a stub in tests). */
export type MarkerStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** Where the page's `beforeunload` and `pagehide` fire (window, or a stub in tests). */
export type PageEvents = Pick<EventTarget, "addEventListener" | "removeEventListener">;

interface TrainingMarker {
  stage: PipelineStage;
  /** The last step done (0: none yet). */
  step: number;
  /** The steps asked for. */
  steps: number;
  /** {@link experimentKey} of the experiment it trained in. */
  experiment: string;
  /** The Pipeline's settings it trained with (absent in markers of older pages). */
  settings?: PipelineSettings;
}

/** What a reload interrupted: the notice's line, and the settings to show again (null: another experiment's). */
export interface Interrupted {
  line: string;
  settings: PipelineSettings | null;
}

/** The experiment a marker belongs to: its task, start model and seed (the Pipeline's models follow them). */
export function experimentKey(spec: Pick<ExperimentSpec, "task" | "model" | "seed">): string {
  return `${spec.task}/${spec.model}/${spec.seed}`;
}

/** This tab's sessionStorage with this deployment's keys (src/lab/reached.ts pageStorage), or undefined. */
export const tabStorage = (): MarkerStorage | undefined => pageStorage();

/** A stage's guard, from {@link guardTraining}. */
export interface TrainingGuard {
  /** The stage has done `step` steps (kept in memory; written when the page is hidden). */
  step(step: number): void;
  /** The stage has ended (done, stopped or failed): the handlers go and the marker is removed. */
  end(): void;
}

function write(store: MarkerStorage | undefined, m: TrainingMarker): void {
  try {
    store?.setItem(TRAINING_KEY, JSON.stringify(m));
  } catch {
    // Full or disabled storage: the notice after a reload is only a hint.
  }
}

/**
 * Guard `stage` (of `steps` steps, in experiment `experiment`, with the view's `settings`) from now until
 * {@link TrainingGuard.end}. `training()` is asked when the page is about to unload: a stage the page no longer
 * shows training (a new worker cleared the Pipeline) does not ask. Never throws.
 */
export function guardTraining(
  stage: PipelineStage,
  steps: number,
  experiment: string,
  settings: PipelineSettings | undefined,
  training: () => boolean,
  store: MarkerStorage | undefined = tabStorage(),
  page: PageEvents | undefined = typeof window !== "undefined" ? window : undefined,
): TrainingGuard {
  const marker: TrainingMarker = { stage, step: 0, steps, experiment, ...(settings && { settings }) };
  const ask = (e: Event) => {
    if (training()) askBeforeUnload(e);
  };
  const hidden = () => {
    if (training()) write(store, marker);
  };
  write(store, marker);
  page?.addEventListener("beforeunload", ask);
  page?.addEventListener("pagehide", hidden);
  let ended = false;
  return {
    step(step) {
      marker.step = step;
    },
    end() {
      if (ended) return;
      ended = true;
      page?.removeEventListener("beforeunload", ask);
      page?.removeEventListener("pagehide", hidden);
      try {
        store?.removeItem(TRAINING_KEY);
      } catch {
        // Nothing to do.
      }
    },
  };
}

/**
 * The notice for a stage a reload (or leaving the page) interrupted, with the settings it trained with when it
 * belongs to the experiment open now (`experiment`: its {@link experimentKey}) and they are valid; or null: the
 * marker, removed from storage. Never throws.
 */
export function takeInterrupted(
  experiment: string,
  store: MarkerStorage | undefined = tabStorage(),
): Interrupted | null {
  let m: Partial<TrainingMarker> | null = null;
  try {
    const text = store?.getItem(TRAINING_KEY) ?? null;
    if (text === null) return null;
    store?.removeItem(TRAINING_KEY);
    m = JSON.parse(text) as Partial<TrainingMarker>;
  } catch {
    return null;
  }
  if (!m || (m.stage !== "sft" && m.stage !== "rm")) return null;
  const step = Number.isInteger(m.step) && (m.step ?? 0) > 0 ? (m.step as number) : 0;
  const of = Number.isInteger(m.steps) && (m.steps ?? 0) >= step ? ` of ${m.steps}` : "";
  const at = step > 0 ? `at step ${step}${of}` : "before its first step";
  const name = STAGE_NAMES[m.stage];
  if (m.experiment !== experiment)
    return {
      line: `The Pipeline's ${name} training in the experiment open before was interrupted ${at} when the page left it; its model so far was not kept.`,
      settings: null,
    };
  let settings: PipelineSettings | null = null;
  try {
    if (m.settings && typeof m.settings === "object") settings = pipelineSettings(m.settings);
  } catch {
    // Tampered or from another version: the view keeps its defaults.
  }
  return {
    line: `The Pipeline's ${name} training was interrupted ${at} by the reload; train it again${settings ? " (its settings are back)" : ""}.`,
    settings,
  };
}
