/**
 * The run file: one run's spec, experiment, metric history and markers as JSON, for "export run (JSON)" and
 * "import run". Import trusts nothing: the file is checked with the same field tables as a link (bad
 * settings fall back to their defaults, with issues), and bad points or markers are dropped and counted.
 *
 * Format (version 1):
 *   { format: "rlhf-playground.run", version: 1, lab: { version, commit }, settingsRevision, exportedAt: ISO date,
 *     models: { start, reward } (each { path, sha256 } or null; ./provenance.ts),
 *     experiment: { task, model, seed, startModel? }, run: { id, algo, label, config, colour?, forkOf?, seed? },
 *     status, step, history: MetricPoint[], markers: Marker[] }
 * `experiment.seed` is the experiment's seed (a preset start model is initialised from it); the seed the run
 * trained with is `run.seed` (RunSpec.seed) where it has its own, else `experiment.seed`.
 * `settingsRevision` (../default_changes.ts; absent in files from before 2026-12-07): a run of an older one gets
 * its settings as they were then.
 */

import { plainText, quoted } from "../../util/quote";
import { migrateRaw, revisionOf } from "../default_changes";
import { currentMetricNames } from "../metric_names";
import { isStep, readMetricPoint } from "../metric_point";
import type { ExperimentSpec, Marker, MarkerChange, MetricPoint, RunSpec, RunStatus } from "../protocol";
import { EXPERIMENT_FIELDS, MAX_LABEL } from "../settings";
import { checkRun, fieldProblem, freshRunId, isRecord, kindOf, runAsWritten } from "../spec_check";
import { readMarkerChange } from "./changes";
import { type ImportedProvenance, originProvenance, type RunOrigin, readOrigin } from "./origin";
import { type Provenance, provenance } from "./provenance";

export const RUN_FILE_FORMAT = "rlhf-playground.run";
export const RUN_FILE_VERSION = 1;
/** Largest run file read (bytes of text). */
export const MAX_RUN_FILE = 64 * 1024 * 1024;

/** Task, start model and seed: the experiment part of a run file. */
export type ExperimentRef = Pick<ExperimentSpec, "task" | "model" | "seed">;

/**
 * A run file's experiment: {@link ExperimentRef} and, when the runs started from the Pipeline view's hand-off
 * rather than `model`, that model's source text (the worker's "pipeline: nano (…) after 40 SFT steps (this
 * page)"): a run trained from it continues only where the runs start from the same model (its KL is measured
 * against it).
 */
export type RunFileExperiment = ExperimentRef & { startModel?: string };

/** Longest start-model text a run file keeps. */
const MAX_START_MODEL = 120;

/**
 * Also which lab wrote it and the model files' SHA-256 (./provenance.ts; absent in files before 2027-01); a run
 * imported for comparison, re-exported, keeps its own file's (./origin.ts), and its experiment where known.
 */
export type RunFile = RunFileBody & (Provenance | ImportedProvenance);

interface RunFileBody {
  format: typeof RUN_FILE_FORMAT;
  version: typeof RUN_FILE_VERSION;
  experiment: Partial<RunFileExperiment>;
  run: RunSpec;
  status: RunStatus;
  step: number;
  history: MetricPoint[];
  markers: Marker[];
}

/** What a run file export needs (the lab store's RunState has all of it). */
export interface RunRecord {
  spec: RunSpec;
  status: RunStatus;
  step: number;
  history: readonly MetricPoint[];
  markers: readonly Marker[];
  /** Imported for comparison: where its file came from (./origin.ts); its experiment and provenance, not this lab's. */
  comparison?: boolean;
  origin?: RunOrigin;
}

/** The run file object of a run; `handedOff`: the Pipeline model the runs started from, if any. */
export function runFile(
  experiment: ExperimentRef,
  run: RunRecord,
  now = new Date(),
  handedOff?: string | null,
): RunFile {
  // A comparison run's own experiment and provenance (where its file said them), else this lab's.
  const origin = run.comparison ? (run.origin ?? {}) : undefined;
  const { lab: _l, models: _m, exportedAt: _e, experimentSeed, ...where } = origin ?? {};
  return {
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    ...(origin ? originProvenance(origin, now) : provenance(experiment, run.spec, now, handedOff)),
    experiment: origin
      ? // Its file's experiment seed (where it trained on its own seed, that one is its run.seed).
        { ...where, ...(experimentSeed !== undefined && { seed: experimentSeed }) }
      : {
          task: experiment.task,
          model: experiment.model,
          // The experiment's (the start model's); the run's own training seed is run.seed.
          seed: experiment.seed,
          ...(handedOff && { startModel: handedOff.slice(0, MAX_START_MODEL) }),
        },
    run: run.spec,
    status: run.status,
    step: run.step,
    history: [...run.history],
    markers: [...run.markers],
  };
}

/** The run file as JSON text (indented, one point per line would be huge: 1-space indent). */
export function runFileJson(
  experiment: ExperimentRef,
  run: RunRecord,
  now = new Date(),
  handedOff?: string | null,
): string {
  return JSON.stringify(runFile(experiment, run, now, handedOff), null, 1);
}

/** What a run file's "experiment" says of where the run trained: each must be given for it to be known. */
const WHERE_KEYS: readonly string[] = ["task", "model", "seed"];

export type ImportResult =
  | {
      ok: true;
      /** The defaults where the file's task, model or seed was invalid or left out (see knownExperiment). */
      experiment: RunFileExperiment;
      /** False when the file's task, model or seed was invalid or left out: where it trained is then unknown. */
      knownExperiment: boolean;
      run: RunSpec;
      /** The settings revision the file was written at (undefined: not said); `run` is under today's defaults. */
      revision?: number;
      /** Its run as written, before the check (for ../default_changes.ts revisionNote). */
      written: RunSpec | null;
      step: number;
      history: MetricPoint[];
      markers: Marker[];
      /** What was wrong and dropped or reset (for the lab's notice). */
      issues: string[];
      /** Where it came from, as far as the file says (./origin.ts): kept on a run imported for comparison. */
      origin: RunOrigin;
    }
  | { ok: false; error: string };

/** Most setting-change markers a run file brings (a run makes one a step at most; a file with more is forged). */
export const MAX_MARKERS = 10_000;

/** "1 metric value", "3 metric values". */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Read a run file. Never throws: an unreadable file is `{ ok: false, error }` in plain words. */
export function parseRunFile(text: string): ImportResult {
  if (text.length > MAX_RUN_FILE) return { ok: false, error: `the file is too large (${text.length} bytes)` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: "the file is not JSON" };
  }
  if (isRecord(raw) && raw.format === "rlhf-playground.config")
    return {
      ok: false,
      error:
        "it is a run's config (Export → Config (JSON)), which holds settings but no curves: import the run's Run (JSON) export instead",
    };
  if (!isRecord(raw) || raw.format !== RUN_FILE_FORMAT)
    return { ok: false, error: `the file is not an exported run (no "format": "${RUN_FILE_FORMAT}")` };
  if (raw.version !== RUN_FILE_VERSION)
    return {
      ok: false,
      error: `the file has format version ${quoted(raw.version)}; this lab reads ${RUN_FILE_VERSION}`,
    };
  const issues: string[] = [];
  const exp = isRecord(raw.experiment) ? raw.experiment : {};
  const experiment: Record<string, unknown> = {};
  for (const f of EXPERIMENT_FIELDS) {
    // Left out (a comparison run re-exported without a known origin writes "experiment": {}): unknown, not valid.
    const problem =
      exp[f.key] === undefined && WHERE_KEYS.includes(f.key)
        ? `experiment.${f.key} must be given (the file leaves it out)`
        : fieldProblem("experiment", f, exp[f.key]);
    if (problem) issues.push(`${problem}; using the default ${JSON.stringify(f.default)}`);
    experiment[f.key] = problem ? f.default : exp[f.key];
  }
  const knownExperiment = issues.length === 0;
  // Shown in the import notice: no control or invisible characters (a bidi override would reverse the lab's
  // own words after it), and as long as the lab's own descriptions get.
  const startModel =
    typeof exp.startModel === "string" ? plainText(exp.startModel).slice(0, MAX_START_MODEL) : "";
  if (startModel.length > 0) experiment.startModel = startModel;
  if (!isRecord(raw.run))
    return {
      ok: false,
      error: `its "run" entry (the run's algorithm, label and settings) is ${kindOf(raw.run)}, not an object`,
    };
  // Under today's defaults before the check drops the values at them (an explicit ε_high = 0 of before 3 Dec
  // 2026 stays what it was, and is said: ../default_changes.ts).
  const revision = revisionOf(raw.settingsRevision);
  const written = runAsWritten(raw.run);
  const run = checkRun(migrateRaw(raw.run, written, revision), 0, new Set(), issues, 'its "run" entry');
  if (!run) return { ok: false, error: issues.join("; ") };
  if (raw.history !== undefined && !Array.isArray(raw.history))
    issues.push(`its "history" is ${kindOf(raw.history)}, not a list of metric points: no curves`);
  const list = Array.isArray(raw.history) ? raw.history : [];
  const history: MetricPoint[] = [];
  const dropped = { values: 0 };
  for (const p of list) {
    const point = readMetricPoint(p, dropped);
    if (point && (history.length === 0 || point.step > history[history.length - 1].step)) history.push(point);
  }
  if (history.length < list.length)
    issues.push(`${counted(list.length - history.length, "malformed metric point")} dropped`);
  if (dropped.values)
    issues.push(
      `${counted(dropped.values, "metric value")} dropped (not a finite number, or not under a metric's name)`,
    );
  const named = currentMetricNames(run.algo, history);
  const markers: Marker[] = [];
  const rawMarkers = Array.isArray(raw.markers) ? raw.markers : [];
  // A run makes one marker a step at most (changes between steps merge): repeats and a flood are dropped.
  const seen = new Set<string>();
  let bad = 0;
  let beyond = 0;
  for (const m of rawMarkers) {
    if (!(isRecord(m) && isStep(m.step) && typeof m.label === "string")) bad++;
    else {
      const label = m.label.slice(0, 200);
      const key = `${m.step}\u0000${label}`;
      if (seen.has(key)) continue;
      if (markers.length >= MAX_MARKERS) beyond++;
      else {
        seen.add(key);
        // Its structured changes (files from before 2027-01 have none: the label stands alone).
        const changes = Array.isArray(m.changes) ? m.changes.map(readMarkerChange) : [];
        const valid = changes.every((c) => c !== null) && changes.length > 0;
        markers.push({
          runId: run.id,
          step: m.step,
          label,
          ...(valid && { changes: changes as MarkerChange[] }),
        });
      }
    }
  }
  if (bad) issues.push(`${counted(bad, "malformed setting-change marker")} dropped`);
  if (beyond)
    issues.push(`${counted(beyond, "setting-change marker")} beyond the first ${MAX_MARKERS} dropped`);
  // The step is where the curves end: a checkpoint pairs with it and the run resumes after it, so the two must
  // agree. A file's own "step" that says otherwise (hand-edited, damaged) is named and not used.
  const step = history.at(-1)?.step ?? 0;
  if (raw.step !== undefined && raw.step !== step)
    issues.push(`its "step" ${quoted(raw.step)} is not where its curves end: ${step} used`);
  return {
    ok: true,
    experiment: experiment as RunFileExperiment,
    knownExperiment,
    run,
    ...(revision && { revision }),
    written,
    step,
    history: named,
    markers,
    issues,
    origin:
      readOrigin({
        // Its training seed (its own, else the experiment's) and, where they differ, the experiment's.
        ...(knownExperiment
          ? { ...experiment, seed: run.seed ?? experiment.seed, experimentSeed: experiment.seed }
          : { startModel: experiment.startModel }),
        lab: raw.lab,
        models: raw.models,
        exportedAt: raw.exportedAt,
      }) ?? {},
  };
}

/**
 * An imported run made to fit the lab: a fresh id when its id is taken, the label marked "(imported)", and
 * "(imported, seed 0)" when `seed` is given: the seed it trained on where that is not this lab's (a run imported
 * for comparison; its curves are another seed's).
 */
export function importedSpec(run: RunSpec, existing: readonly RunSpec[], seed?: number): RunSpec {
  const used = new Set(existing.map((r) => r.id));
  const id = used.has(run.id) ? freshRunId(run.algo, used) : run.id;
  // "PPO (imported)", then "PPO (imported 2)", … : cards, legend and Remove buttons tell imports apart.
  const base = run.label.replace(/ \(imported(?: \d+)?(?:, seed \d+)?\)$/, "");
  const labels = new Set(existing.map((r) => r.label));
  const cut = (l: string) => [...l].slice(0, MAX_LABEL).join("");
  const where = seed === undefined ? "" : `, seed ${seed}`;
  let label = cut(`${base} (imported${where})`);
  for (let n = 2; labels.has(label); n++) label = cut(`${base} (imported ${n}${where})`);
  // Its history is whole: the run it was forked from is not here (a run id here is another run).
  const { forkOf: _, ...rest } = run;
  return { ...rest, id, label };
}
