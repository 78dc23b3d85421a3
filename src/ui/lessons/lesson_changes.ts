/**
 * How an experiment that carries a lesson (spec.preset) differs from the lesson's own: its "what to watch" and
 * the numbers it quotes were measured on the lesson's task, model, runs and settings, so a link someone edited
 * (a run added, a knob turned, a run renamed) says so on the lesson card. Removed runs are the card's own line
 * (LessonCard.tsx removedLessonRuns).
 */
import type { ExperimentSpec, RunSpec } from "../../lab/protocol";
import { ALGORITHMS } from "../../lab/registry";
import { MODEL_NAMES, TASK_NAMES } from "../lab/experiment_names";
import { formatSetting, settingOf } from "../lab/knobs";

export interface LessonChanges {
  /** The task or start model, when either differs: "the arithmetic task and the nano model". */
  setup: string | null;
  /** Runs that are not the lesson's (matched by id), by label. */
  added: string[];
  /**
   * The lesson's runs whose algorithm, settings or name differ: "GRPO lr 3e-5: lr 1e-4 (the lesson's 3e-5)",
   * "fast (the lesson's GRPO lr 3e-5)", "GRPO: now DPO".
   */
  changed: string[];
  /**
   * "Stop at 60 (the lesson's length: 150)" when the experiment stops before the lesson's length (a link made
   * when the lesson was shorter, or Stop at lowered): its effect may not have shown by then. Null otherwise.
   */
  shorter: string | null;
}

/** "the shipped SFT model", "the nano (random init) model". */
function modelText(model: ExperimentSpec["model"]): string {
  const name = MODEL_NAMES[model] ?? model;
  return `the ${name}${name.endsWith("model") ? "" : " model"}`;
}

/** "the arithmetic task". */
function taskText(task: ExperimentSpec["task"]): string {
  return `the ${(TASK_NAMES[task] ?? task).toLowerCase()} task`;
}

/** What differs in one of the lesson's runs `now` from its `planned` self (same id): "" when nothing does. */
export function runChange(planned: RunSpec, now: RunSpec): string {
  const name = now.label === planned.label ? now.label : `${now.label} (the lesson's ${planned.label})`;
  if (now.algo !== planned.algo) return `${name}: now ${ALGORITHMS[now.algo]?.title ?? now.algo}`;
  const fields = ALGORITHMS[now.algo]?.fields ?? [];
  const diffs = fields
    .filter((f) => settingOf(f, now.config) !== settingOf(f, planned.config))
    .map(
      (f) =>
        `${f.label} ${formatSetting(f, settingOf(f, now.config))} (the lesson's ${formatSetting(f, settingOf(f, planned.config))})`,
    );
  if (diffs.length > 0) return `${name}: ${diffs.join(", ")}`;
  return now.label === planned.label ? "" : name;
}

/**
 * How `now` differs from `planned` (the lesson's experiment at the same seed): its task and model (`handedOff`:
 * the start model the Pipeline handed over, lab/pipeline_store.ts), the runs it added, and the lesson's runs it
 * changed (settings compared as each run uses them, defaults filled in, so a
 * link that spells a default out changes nothing). Pure.
 */
export function lessonChanges(
  planned: Pick<ExperimentSpec, "task" | "model" | "runs" | "steps">,
  now: Pick<ExperimentSpec, "task" | "model" | "runs" | "steps">,
  handedOff: string | null = null,
): LessonChanges {
  const parts: string[] = [];
  if (now.task !== planned.task) parts.push(taskText(now.task));
  // The Pipeline's models handed over: the runs start from its SFT model (spec.model still names the lesson's).
  if (handedOff) parts.push(`the ${handedOff}`);
  else if (now.model !== planned.model) parts.push(modelText(now.model));
  const added = now.runs.filter((r) => !planned.runs.some((p) => p.id === r.id)).map((r) => r.label);
  const changed: string[] = [];
  for (const p of planned.runs) {
    const r = now.runs.find((x) => x.id === p.id);
    const text = r ? runChange(p, r) : "";
    if (text) changed.push(text);
  }
  const length = planned.steps ?? 0;
  const stop = now.steps ?? 0;
  const shorter =
    length > 0 && stop > 0 && stop < length ? `Stop at ${stop} (the lesson's length: ${length} steps)` : null;
  return { setup: parts.length > 0 ? parts.join(" and ") : null, added, changed, shorter };
}

/** The card's line for `c` ("" when nothing differs): what changed, then that the notes describe the lesson's. */
export function lessonChangesText(c: LessonChanges, planned: Pick<ExperimentSpec, "task" | "model">): string {
  const parts: string[] = [];
  if (c.setup)
    parts.push(`Runs on ${c.setup} (the lesson's: ${taskText(planned.task)}, ${modelText(planned.model)})`);
  if (c.changed.length > 0) parts.push(`Changed: ${c.changed.join("; ")}`);
  if (c.added.length > 0) parts.push(`Added: ${c.added.join(", ")}`);
  if (c.shorter) parts.push(c.shorter);
  if (parts.length === 0) return "";
  return `${parts.join(". ")}. What to watch below, and its numbers, are for the lesson as it was made.`;
}
