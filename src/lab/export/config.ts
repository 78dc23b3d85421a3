/**
 * A run's configuration as JSON: what was trained (algorithm, every setting including the defaults, which
 * ones differ from the algorithm's defaults, and those defaults), on what (task, start model, seed), with each setting's TRL name where TRL has one, so
 * the file documents itself and re-creates the run elsewhere.
 */

import type { Field } from "../../algorithms/fields";
import { startRoom } from "../experiment_change";
import type { Marker, RunSpec, SettingValue } from "../protocol";
import { ALGORITHMS } from "../registry";
import { type RunChange, runChanges } from "./changes";
import { type ImportedProvenance, originProvenance, type RunOrigin } from "./origin";
import { type Provenance, provenance } from "./provenance";
import type { ExperimentRef } from "./run_file";
import { OFFLINE_PAIR_TOKENS } from "./trl_semantics";
import { trlMapping } from "./trl_targets";
import { untrainedChanges } from "./untrained";

/**
 * Besides its settings, which lab wrote it, when, and the model files' SHA-256 (./provenance.ts); a run imported
 * for comparison keeps its own file's, and its own task, model and seed (null: its file did not say; ./origin.ts).
 */
export type RunConfigFile = RunConfigBody & (Provenance | ImportedProvenance);

interface RunConfigBody {
  format: "rlhf-playground.config";
  version: 1;
  algorithm: string;
  title: string;
  label: string;
  task: string | null;
  /** The experiment's start model ("sft", "nano", …); see `startModel` when the Pipeline handed one over. */
  model: string | null;
  /** The Pipeline's model the run started from (as the page names it), when the Pipeline handed one over. */
  startModel?: string;
  /** The seed the run trained with (prompt order, sampling): its own (RunSpec.seed), else the experiment's. */
  seed: number | null;
  /**
   * The experiment's seed, only where it is not `seed` (a run on its own seed): the start model's (a preset
   * model, `nano`/`tiny`/`small`, is initialised from it; the shipped SFT model does not depend on it).
   */
  experimentSeed?: number;
  /** Every setting as the run uses it now (defaults filled in): after any mid-run `changes`. */
  settings: Record<string, SettingValue>;
  /**
   * Keys whose value differs from the algorithm's default (what "+ Add run" gives; the opening experiment sets
   * some itself, e.g. PPO's 16 prompts a step): the run's value is in `settings`, the default in `defaults`.
   */
  changed: string[];
  /** The algorithm's default of each changed key. */
  defaults: Record<string, SettingValue>;
  /** The TRL config class and its keyword arguments (null: best-of-n has no trainer). */
  trl: { config: string; args: Record<string, SettingValue> } | null;
  /** Settings changed after the last step, which no trained step used yet: key → both values (./untrained.ts). */
  untrained?: Record<string, { trained: SettingValue; next: SettingValue }>;
  /**
   * Settings changed mid-run, in step order (empty: none; the run's markers, ./changes.ts): from `step` on, `key`
   * was `to`, before it `from`. A marker saved before 2027-01 gives `{step, label}` only.
   */
  changes: RunChange[];
}

/**
 * The config file object of a run. `handedOff`: the Pipeline's model the runs started from, if any (TRL's
 * completion length is capped at its context then, not the experiment's start model's; see trlMapping).
 * `markers`: the run's markers, for `changes` (none given: no changes); `now`: the export's time. `origin`: a run
 * imported for comparison's (./origin.ts): its task, model, seed, start model and provenance replace this lab's
 * (TRL's lengths fall back to this lab's task and model where it does not say).
 * @throws RangeError when the run's settings are invalid.
 */
export function runConfig(
  here: ExperimentRef,
  run: RunSpec,
  handedHere?: string | null,
  untrained?: Record<string, SettingValue | null>,
  markers?: readonly Marker[],
  now = new Date(),
  origin?: RunOrigin,
): RunConfigFile {
  // The seed it trained with: a comparison run's origin's, else its own (RunSpec.seed) or the lab's.
  const experiment = origin ? { ...here, ...origin } : { ...here, seed: run.seed ?? here.seed };
  const handedOff = origin ? origin.startModel : handedHere;
  // The experiment's seed (the start model's) where the run trained on another.
  const startSeed = origin ? origin.experimentSeed : here.seed;
  const pending = untrainedChanges(run.algo, run.config, untrained);
  const info = ALGORITHMS[run.algo];
  const room = startRoom(experiment.task, experiment.model, handedOff);
  const m = trlMapping(run.algo, run.config, room, OFFLINE_PAIR_TOKENS[experiment.task]);
  return {
    format: "rlhf-playground.config",
    version: 1,
    ...(origin ? originProvenance(origin, now) : provenance(experiment, run, now, handedOff)),
    algorithm: run.algo,
    title: info.title,
    label: run.label,
    task: origin ? (origin.task ?? null) : experiment.task,
    model: origin ? (origin.model ?? null) : experiment.model,
    ...(handedOff ? { startModel: handedOff } : {}),
    seed: origin ? (origin.seed ?? null) : experiment.seed,
    ...(startSeed !== undefined && startSeed !== experiment.seed && { experimentSeed: startSeed }),
    settings: m.settings,
    ...changedFromDefaults(info.fields, m.settings),
    trl: m.target.config
      ? { config: m.target.config, args: Object.fromEntries(m.args.map((a) => [a.name, a.value])) }
      : null,
    ...(pending.length
      ? { untrained: Object.fromEntries(pending.map((c) => [c.key, { trained: c.trained, next: c.next }])) }
      : {}),
    changes: runChanges(markers),
  };
}

function changedFromDefaults(fields: readonly Field[], settings: Record<string, SettingValue>) {
  const changed = fields.filter((f) => settings[f.key] !== f.default);
  return {
    changed: changed.map((f) => f.key),
    defaults: Object.fromEntries(changed.map((f) => [f.key, f.default])),
  };
}

/** The config file as JSON text. */
export function runConfigJson(
  experiment: ExperimentRef,
  run: RunSpec,
  handedOff?: string | null,
  untrained?: Record<string, SettingValue | null>,
  markers?: readonly Marker[],
  origin?: RunOrigin,
): string {
  return JSON.stringify(
    runConfig(experiment, run, handedOff, untrained, markers, new Date(), origin),
    null,
    2,
  );
}
