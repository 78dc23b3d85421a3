/**
 * Where the run of a TRL script trained (./trl_script.ts): this lab's experiment, or, for a run imported for
 * comparison, its own run file's (its origin, ./origin.ts), never this lab's. A field its file did not say is
 * null, and the script says "unknown" there and leaves a placeholder (./trl_rewards.ts UNKNOWN_TASK_PY).
 */
import type { TaskId } from "../../tasks/task";
import type { ExperimentSpec } from "../protocol";
import type { RunOrigin } from "./origin";
import type { ExperimentRef } from "./run_file";
import { oneLine } from "./trl_py";

/** The task, start model, seed and Pipeline hand-off a script is written for (null: unknown). */
export interface ScriptWhere {
  task: TaskId | null;
  model: ExperimentSpec["model"] | null;
  seed: number | null;
  /** The Pipeline model the run started from (its source text), if any. */
  handedOff: string | null;
  /**
   * The task and start model its completion length is capped for: its own, else this lab's where its file did
   * not say (as its config.json does, ./config.ts), and the script says so ({@link importedNote}).
   */
  room: { task: TaskId; model: ExperimentSpec["model"]; handedOff: string | null };
  /** Whether it was imported for comparison. */
  imported: boolean;
}

/**
 * Where `run` trained: this lab's `experiment` (with the run's own seed, and its Pipeline hand-off
 * `run.handedOff`), or a comparison
 * run's origin (none: every field unknown).
 */
export function scriptWhere(
  experiment: ExperimentRef,
  run: { comparison?: boolean; origin?: RunOrigin; handedOff?: string | null; spec?: { seed?: number } },
): ScriptWhere {
  if (!run.comparison) {
    const handedOff = run.handedOff ?? null;
    // Its own training seed (RunSpec.seed) where it has one.
    const here = { ...experiment, seed: run.spec?.seed ?? experiment.seed };
    return { ...here, handedOff, room: { ...here, handedOff }, imported: false };
  }
  const o = run.origin ?? {};
  const handedOff = o.startModel ?? null;
  return {
    task: o.task ?? null,
    model: o.model ?? null,
    seed: o.seed ?? null,
    handedOff,
    room: { task: o.task ?? experiment.task, model: o.model ?? experiment.model, handedOff },
    imported: true,
  };
}

/** The start model in words, for the docstring. */
export function startModelText(where: ScriptWhere): string {
  if (where.handedOff)
    return `the SFT model trained in the page's Pipeline view (${oneLine(where.handedOff)})`;
  if (where.model === null) return "unknown";
  return where.model === "sft"
    ? `the shipped ${where.task ?? "(unknown task)"} SFT model`
    : `a fresh "${where.model}" GPT`;
}

/** What the user must fill in before running the script: always MODEL_NAME and PROMPTS; unknowns too. */
export function placeholders(where: ScriptWhere): string {
  return ["MODEL_NAME", "PROMPTS", where.task === null && "score", where.seed === null && "SEED"]
    .filter(Boolean)
    .join(", ");
}

/** The docstring paragraph of an imported run ("" for the lab's own): whose experiment, what is unknown. */
export function importedNote(where: ScriptWhere): string {
  if (!where.imported) return "";
  const unknown = [
    where.task === null && "task",
    where.model === null && !where.handedOff && "start model",
    where.seed === null && "seed",
  ].filter((x): x is string => typeof x === "string");
  const missing = unknown.length
    ? `\nIts file did not say its ${unknown.join(", ")}: unknown here, left as placeholders${
        where.task === null || where.model === null
          ? ";\nits completion length is capped as for this lab's task and start model"
          : ""
      }.`
    : "";
  return `\nIt was imported for comparison: its task, start model and seed are those of the run file it was imported
from, not those of the lab that exported this script.${missing}\n`;
}
