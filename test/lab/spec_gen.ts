/** Random experiment specs and views for the URL and persistence tests (seeded). */
import { defaultsOf, type Field, validateConfig } from "../../src/algorithms/fields";
import { startModelProblem } from "../../src/lab/experiment_change";
import { PIPELINE_FIELDS } from "../../src/lab/pipeline/fields";
import { PRESET_IDS } from "../../src/lab/presets/ids";
import { COLOUR_SLOTS, type ExperimentSpec, type RunSpec, type SettingValue } from "../../src/lab/protocol";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import {
  EXPERIMENT_FIELDS,
  MAX_RUNS,
  type SharedView,
  TASK_COSTS,
  VIEW_FIELDS,
} from "../../src/lab/settings";
import { fieldProblem } from "../../src/lab/spec_check";
import type { Rng } from "../../src/util/rng";

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)];

/** A valid random value of a field (numbers: sometimes an endpoint, usually a uniform draw). */
export function randomValue(rng: Rng, f: Field): SettingValue {
  if (f.kind === "bool") return rng.float() < 0.5;
  if (f.kind === "enum") return pick(rng, f.options);
  const u = rng.float();
  const x = u < 0.1 ? f.min : u < 0.2 ? f.max : f.min + (f.max - f.min) * rng.float();
  return f.kind === "int" ? Math.round(x) : x;
}

const LABELS = ["PPO", "GRPO (β = 0)", "fast lr", "DPO · hinge", "β→0 ✓", "日本語のラベル", "a"];

/** A random valid spec: up to MAX_RUNS runs, unique ids and labels, random subsets of settings. */
export function randomSpec(rng: Rng): ExperimentSpec {
  const n = rng.int(0, MAX_RUNS);
  const runs: RunSpec[] = [];
  for (let i = 0; i < n; i++) {
    const algo = pick(rng, ALGO_IDS);
    const config: Record<string, SettingValue> = {};
    for (const f of ALGORITHMS[algo].fields) if (rng.float() < 0.3) config[f.key] = randomValue(rng, f);
    // Valid together too (PPO's minibatches within its prompts, its adaptive β's horizon): else the defaults.
    const problem = ALGORITHMS[algo].configProblem?.({ ...defaultsOf(ALGORITHMS[algo].fields), ...config });
    if (problem) for (const k of Object.keys(config)) delete config[k];
    // Labels are distinct in a valid spec (a link's repeats are numbered when read: spec_check.ts).
    const drawn = rng.float() < 0.5 ? ALGORITHMS[algo].title : pick(rng, LABELS);
    const label = runs.some((r) => r.label === drawn) ? `${drawn} ${i + 1}` : drawn;
    const run: RunSpec = { id: `${algo}-${i + 1}`, algo, label, config };
    if (rng.float() < 0.3) run.colour = rng.int(0, COLOUR_SLOTS - 1);
    runs.push(run);
  }
  const task = pick(rng, EXPERIMENT_FIELDS[0].options) as ExperimentSpec["task"];
  // Valid means valid for the task too: a cost only the other task defines becomes "length".
  for (const r of runs)
    if (
      typeof r.config.cost === "string" &&
      r.config.cost !== "length" &&
      !TASK_COSTS[task].includes(r.config.cost)
    )
      r.config.cost = "length";
  // …and a start model whose context fits the task's prompts (nano's 32 tokens do not fit sentiment's 62).
  const models = EXPERIMENT_FIELDS[1].options.filter((m) => startModelProblem(m, task) === null);
  return {
    task,
    model: pick(rng, models),
    seed: rng.float() < 0.2 ? 0 : rng.int(0, 2147483647),
    runs,
    ...(rng.float() < 0.3 && { steps: rng.int(1, 100000) }),
    ...(rng.float() < 0.3 && { preset: pick(rng, PRESET_IDS) }),
  };
}

export function randomView(rng: Rng): SharedView {
  return {
    xAxis: pick(rng, VIEW_FIELDS[0].options),
    klEstimator: pick(rng, VIEW_FIELDS[1].options),
    smoothing: randomValue(rng, VIEW_FIELDS[2]) as number,
  };
}

/** Pipeline settings with about half the fields set (random valid values), and those that differ from the defaults. */
export function randomPipeline(rng: Rng): {
  set: Record<string, SettingValue>;
  nonDefault: Record<string, SettingValue>;
} {
  const set: Record<string, SettingValue> = {};
  const nonDefault: Record<string, SettingValue> = {};
  for (const f of PIPELINE_FIELDS)
    if (rng.float() < 0.5) {
      const v = rng.float() < 0.2 ? f.default : randomValue(rng, f);
      set[f.key] = v;
      if (v !== f.default) nonDefault[f.key] = v;
    }
  return { set, nonDefault };
}

/** The spec as the lab stores it: each run's config without the values equal to the defaults. */
export function normalized(spec: ExperimentSpec): ExperimentSpec {
  return {
    ...spec,
    runs: spec.runs.map((r) => {
      const config: Record<string, SettingValue> = {};
      for (const f of ALGORITHMS[r.algo].fields)
        if (f.key in r.config && r.config[f.key] !== f.default) config[f.key] = r.config[f.key];
      return { ...r, config };
    }),
  };
}

/** Throws unless every field of the spec is valid by the settings tables. */
export function assertValidSpec(spec: ExperimentSpec): void {
  for (const f of EXPERIMENT_FIELDS) {
    // steps and preset are optional (absent = no limit, free play).
    if (spec[f.key] === undefined && (f.key === "steps" || f.key === "preset")) continue;
    const problem = fieldProblem("experiment", f, spec[f.key]);
    if (problem) throw new Error(problem);
  }
  const ids = new Set<string>();
  for (const r of spec.runs) {
    if (ids.has(r.id)) throw new Error(`duplicate id ${r.id}`);
    ids.add(r.id);
    if (!Object.hasOwn(ALGORITHMS, r.algo)) throw new Error(`bad algo ${r.algo}`);
    validateConfig(r.algo, ALGORITHMS[r.algo].fields, r.config);
  }
}
