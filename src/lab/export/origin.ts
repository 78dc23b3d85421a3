/**
 * Where a run imported for comparison came from: its run file's experiment (task, start model, seed) and the
 * file's provenance (the lab that wrote it, its model files' SHA-256, when; ./provenance.ts). Kept on the run
 * (src/ui/lab_store.ts RunState.origin) and saved with it (../session_store.ts), so that its exports say its own
 * seed and lab, not this lab's: the all-runs CSV's task and seed columns (empty where unknown), and a re-export
 * of its run.json and config.json ({@link originProvenance}). Older run files lack lab/models/exportedAt: what
 * they have is kept. Everything is checked ({@link readOrigin}): it comes from a file or from storage.
 */
import { plainText } from "../../util/quote";
import { LAB_BUILD, type LabBuild } from "../build_info";
import { SETTINGS_REVISION } from "../default_changes";
import { isRecord } from "../metric_point";
import type { ExperimentSpec } from "../protocol";
import { EXPERIMENT_FIELDS } from "../settings";
import { fieldProblem } from "../spec_check";
import type { ModelFile, Provenance } from "./provenance";

/** An imported run's origin; a key is absent where its file did not say (or said something unreadable). */
export interface RunOrigin {
  task?: ExperimentSpec["task"];
  model?: ExperimentSpec["model"];
  /** The seed it trained with: its file's run.seed (its own), else its experiment.seed. */
  seed?: number;
  /**
   * Its file's experiment.seed where that is not `seed` (a run on its own seed): the seed its lab's start model
   * was initialised from (a preset). Absent: `seed` (saved origins of older builds have none).
   */
  experimentSeed?: number;
  /** The Pipeline model its runs started from (the file's experiment.startModel). */
  startModel?: string;
  lab?: Provenance["lab"];
  models?: Provenance["models"];
  /** ISO time its file was exported. */
  exportedAt?: string;
}

/** A re-export's provenance: the origin's lab, models and time (null: unknown), and this lab's as `importedInto`. */
export interface ImportedProvenance {
  lab: Provenance["lab"] | null;
  settingsRevision: number;
  exportedAt: string | null;
  models: Provenance["models"] | null;
  importedInto: { version: string; commit: string; exportedAt: string };
}

const text = (x: unknown, max: number): string | undefined =>
  typeof x === "string" && x.length > 0 && x.length <= max ? plainText(x) : undefined;

function readLab(x: unknown): Provenance["lab"] | undefined {
  if (!isRecord(x)) return undefined;
  const version = text(x.version, 64);
  const commit = text(x.commit, 64);
  return version && commit ? { version, commit } : undefined;
}

function readModel(x: unknown): ModelFile | null | undefined {
  if (x === null) return null;
  if (!isRecord(x)) return undefined;
  const path = text(x.path, 200);
  const sha256 = x.sha256 === null ? null : typeof x.sha256 === "string" && /^[0-9a-f]{64}$/.test(x.sha256);
  if (!path || sha256 === false) return undefined;
  return { path, sha256: sha256 === null ? null : (x.sha256 as string) };
}

function readModels(x: unknown): Provenance["models"] | undefined {
  if (!isRecord(x)) return undefined;
  const start = readModel(x.start);
  const reward = readModel(x.reward);
  return start === undefined || reward === undefined ? undefined : { start, reward };
}

/**
 * The origin in `x` (a run file's fields, or a saved one): each field kept when valid (task, model, seed and
 * experimentSeed as a link's would be), dropped otherwise; undefined when `x` is no object.
 */
export function readOrigin(x: unknown): RunOrigin | undefined {
  if (!isRecord(x)) return undefined;
  const o: Record<string, unknown> = {};
  for (const f of EXPERIMENT_FIELDS)
    if (x[f.key] !== undefined && !fieldProblem("o", f, x[f.key])) o[f.key] = x[f.key];
  const seedField = EXPERIMENT_FIELDS.find((f) => f.key === "seed");
  const experimentSeed =
    seedField && x.experimentSeed !== undefined && !fieldProblem("o", seedField, x.experimentSeed)
      ? (x.experimentSeed as number)
      : undefined;
  const startModel = text(x.startModel, 120);
  const lab = readLab(x.lab);
  const models = readModels(x.models);
  const exportedAt = text(x.exportedAt, 40);
  return {
    ...(o as Pick<RunOrigin, "task" | "model" | "seed">),
    ...(experimentSeed !== undefined && experimentSeed !== o.seed && { experimentSeed }),
    ...(startModel && { startModel }),
    ...(lab && { lab }),
    ...(models && { models }),
    ...(exportedAt && !Number.isNaN(Date.parse(exportedAt)) && { exportedAt }),
  };
}

/**
 * Its task, seed and start model ("sft", "nano", …) for the exports' names and the all-runs CSV: a comparison
 * run's origin's (null: unknown), else this lab's task and model and the run's own seed (RunSpec.seed; absent:
 * the lab's).
 */
export function runWhere(
  run: { comparison?: boolean; origin?: RunOrigin; spec?: { seed?: number } },
  lab: Pick<ExperimentSpec, "task" | "seed" | "model">,
): { task: string | null; seed: number | null; model: string | null } {
  if (!run.comparison) return { task: lab.task, seed: run.spec?.seed ?? lab.seed, model: lab.model };
  return { task: run.origin?.task ?? null, seed: run.origin?.seed ?? null, model: run.origin?.model ?? null };
}

/** The provenance of a re-export of an imported run: its origin's, and this lab (`build`) as `importedInto`. */
export function originProvenance(
  origin: RunOrigin,
  now: Date,
  build: LabBuild = LAB_BUILD,
): ImportedProvenance {
  return {
    lab: origin.lab ?? null,
    // Its settings were read under today's defaults on import (../default_changes.ts): this lab's revision.
    settingsRevision: SETTINGS_REVISION,
    exportedAt: origin.exportedAt ?? null,
    models: origin.models ?? null,
    importedInto: { version: build.version, commit: build.commit, exportedAt: now.toISOString() },
  };
}
