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

/**
 * Whether the lesson's check was run on the shipped models (`npm run lab -- lesson ID --seeds 0,1,2`, logs in
 * docs/lesson-runs/): "verified" it passed on seeds 0, 1 and 2; "unverified" not (yet) checked as the lesson now
 * is; "fails-on-shipped" its check fails there (the lesson still shows its mechanism, not the papers' effect).
 * `reason`: one plain sentence for the student, e.g. where the logs are or what did not show.
 */
export interface LessonStatus {
  kind: "verified" | "unverified" | "fails-on-shipped";
  reason: string;
}

/**
 * The status line the lesson card shows in small text and `lab lesson --help` prints after the title, in words a
 * student reads without knowing the repository: "Tested in this lab: …", "Not yet re-tested in this lab: …",
 * "Heads-up: on this lab's small models the effect below did not show: …".
 */
export function lessonStatusText(s: LessonStatus): string {
  const head = {
    verified: "Tested in this lab",
    unverified: "Not yet re-tested in this lab",
    "fails-on-shipped": "Heads-up: on this lab's small models the effect below did not show",
  }[s.kind];
  return `${head}: ${s.reason}`;
}

/** The lesson picker's mark of a lesson not verified on the shipped models ("" when verified). */
export function lessonStatusMark(s: LessonStatus): string {
  return { verified: "", unverified: " · not yet re-tested", "fails-on-shipped": " · effect not shown here" }[
    s.kind
  ];
}

export interface Lesson {
  id: PresetId;
  /** Shown in the lesson picker and on the lesson card. */
  title: string;
  /** One line for the picker. */
  summary: string;
  /** What to watch, in order: 2–5 short sentences for a student (plain Unicode, no TeX). */
  watch: readonly string[];
  refs: readonly PaperRef[];
  /** The experiment (task, model, seed, runs, length `steps`, and `preset` = this id). */
  experiment(seed?: number): ExperimentSpec;
  /** Chart settings the lesson opens with (the rest: defaults). */
  view?: Partial<SharedView>;
  /** Whether its check passed on the shipped models (shown on the card and by the CLI). */
  status: LessonStatus;
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
