/**
 * A guided lesson (issue "teaching layer"): a URL-loadable experiment, a short "what to watch" narrative, the
 * papers, and a numeric check that the effect it teaches happened (run headless by `npm run lab -- lesson`).
 */
import type { ExperimentSpec, RunSpec, SettingValue } from "../protocol";
import type { AlgoId } from "../registry";
import type { SharedView } from "../settings";
import type { LessonHistories, LessonVerdict } from "./checks";
import type { PresetId } from "./ids";

export interface PaperRef {
  label: string;
  url: string;
}

export interface Lesson {
  id: PresetId;
  /** Shown in the lesson picker and on the lesson card. */
  title: string;
  /** One line for the picker. */
  summary: string;
  /** What to watch, in order: 2–4 short sentences for a student. */
  watch: readonly string[];
  refs: readonly PaperRef[];
  /** The experiment (task, model, seed, runs, length `steps`, and `preset` = this id). */
  experiment(seed?: number): ExperimentSpec;
  /** Chart settings the lesson opens with (the rest: defaults). */
  view?: Partial<SharedView>;
  /** Did the effect show? On the per-step metrics of every run (keys: the experiment's run ids). */
  check(h: LessonHistories): LessonVerdict;
}

/** A run of a lesson (settings that differ from the algorithm's defaults). */
export function run(
  id: string,
  algo: AlgoId,
  label: string,
  config: Record<string, SettingValue> = {},
): RunSpec {
  return { id, algo, label, config };
}
