/**
 * Untrusted experiment specs (a URL hash, an imported file, an old IndexedDB record) → valid ones, field by
 * field: a bad value is dropped (the field keeps its default) and the rest is kept; each problem is reported
 * in plain words for the lab's notice. Nothing here throws on bad input. Every check is the field tables'
 * own (validateConfig), so the URL, imports and the worker agree on what is valid.
 */

import { type ConfigValues, defaultsOf, type Field, validateConfig } from "../algorithms/fields";
import { errorMessage } from "../util/errors";
import { plainText, quoted } from "../util/quote";
import { defaultExperiment } from "./defaults";
// Called only inside checkSpec: the import cycle (experiment_change uses fieldProblem) is safe.
import { startModelProblem } from "./experiment_change";
import { PIPELINE_FIELDS } from "./pipeline/fields";
import type { PresetId } from "./presets/ids";
import { COLOUR_SLOTS, type ExperimentSpec, type RunSpec, type SettingValue } from "./protocol";
import { ALGO_IDS, ALGORITHMS, type AlgoId } from "./registry";
import {
  DEFAULT_SHARED_VIEW,
  EXPERIMENT_FIELDS,
  MAX_LABEL,
  MAX_RUNS,
  RUN_ID,
  RUN_SEED_FIELD,
  type SharedView,
  TASK_COSTS,
  VIEW_FIELDS,
} from "./settings";

/** A plain object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Why `value` is not valid for `field` (the field table's own message), or null when it is. */
export function fieldProblem(owner: string, field: Field, value: unknown): string | null {
  try {
    validateConfig(owner, [field], { [field.key]: value } as ConfigValues);
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}

/**
 * An issue as a notice shows it: a setting named as the page names it ("PPO small.lr must be…" → "PPO small's
 * “lr” must be…", "experiment.steps must be…" → "“stop at step” must be…"). The issues themselves keep the table's
 * names (callers sort them by their "experiment." prefix); other issues are returned unchanged. An owner that is a
 * table's name is that table: a run is never named so in its issues (checkRun, {@link readsAsTable}).
 */
export function issueText(issue: string): string {
  // The owner is a table's name or a run's label (any characters, dots included): up to the first ".key must".
  const m = /^(.+?)\.(\w+) (must .*)$/s.exec(issue);
  if (!m) return issue;
  const [, owner, key, rest] = m;
  // (TABLE_OWNERS, by name.)
  const tables: readonly (readonly Field[])[] =
    owner === "experiment"
      ? [EXPERIMENT_FIELDS]
      : owner === "view"
        ? [VIEW_FIELDS]
        : owner === "Pipeline"
          ? [PIPELINE_FIELDS]
          : [...ALGO_IDS.map((id) => ALGORITHMS[id].fields), [RUN_SEED_FIELD]];
  const label = tables.flat().find((f) => f.key === key)?.label;
  if (!label) return issue;
  const who =
    owner === "experiment"
      ? ""
      : owner === "view"
        ? "the charts' "
        : owner === "Pipeline"
          ? "the Pipeline's "
          : `${owner}'s `;
  return `${who}“${label}” ${rest}`;
}

/** The owners of the settings tables' issues ("experiment.steps must be…", "view.…", "Pipeline.…"). */
export const TABLE_OWNERS = ["experiment", "view", "Pipeline"] as const;

/**
 * Whether issues owned by `name` would read as a settings table's: the table's name, or it and a dot
 * ("experiment.v2.lr must be…" starts with "experiment."). A run so labelled is named otherwise in its issues.
 */
export function readsAsTable(name: string): boolean {
  return TABLE_OWNERS.some((t) => name === t || name.startsWith(`${t}.`));
}

/** Values of `fields` read from `raw`: missing keys take the default silently, bad ones with an issue. */
function readFields(
  owner: string,
  fields: readonly Field[],
  raw: Record<string, unknown>,
  issues: string[],
): ConfigValues {
  const out: ConfigValues = {};
  for (const f of fields) {
    out[f.key] = f.default;
    if (!Object.hasOwn(raw, f.key)) continue;
    const problem = fieldProblem(owner, f, raw[f.key]);
    if (problem) issues.push(`${problem}; using the default ${JSON.stringify(f.default)}`);
    else out[f.key] = raw[f.key] as SettingValue;
  }
  return out;
}

/** True for an algorithm id the registry knows (own keys only: "constructor" is not an algorithm). */
export function isAlgoId(x: unknown): x is AlgoId {
  return typeof x === "string" && Object.hasOwn(ALGORITHMS, x);
}

/**
 * A run's settings that differ from its algorithm's defaults, each checked against the field table. Unknown
 * keys and invalid values are dropped with an issue; values equal to the default are dropped silently. Settings
 * valid one by one but not together (the algorithm's configProblem) go back to their defaults with an issue,
 * or, if that is not enough, all of the run's settings do.
 */
export function checkRunConfig(algo: AlgoId, owner: string, raw: unknown, issues: string[]): ConfigValues {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    issues.push(`${owner}: its settings are not a list of key/value pairs; all defaults`);
    return {};
  }
  const out = checkNonDefault(owner, ALGORITHMS[algo].fields, raw, issues);
  // Settings valid one by one but not together (PPO's minibatches above its prompts): back to their defaults.
  const together = (c: ConfigValues) =>
    ALGORITHMS[algo].configProblem?.({ ...defaultsOf(ALGORITHMS[algo].fields), ...c }) ?? null;
  const problem = together(out);
  if (!problem) return out;
  const kept = Object.fromEntries(Object.entries(out).filter(([k]) => !problem.keys.includes(k)));
  const fallback = together(kept) ? {} : kept;
  issues.push(
    `${owner}: ${problem.message}; using the defaults for ${fallback === kept ? problem.keys.filter((k) => k in out).join(", ") : "all its settings"}`,
  );
  return fallback;
}

/**
 * The values of `raw` that differ from their field's default (a run's settings, the Pipeline's), each checked
 * against `fields`: unknown keys and invalid values are dropped with an issue; default values silently.
 */
export function checkNonDefault(
  owner: string,
  fields: readonly Field[],
  raw: Record<string, unknown>,
  issues: string[],
): ConfigValues {
  const out: ConfigValues = {};
  for (const [key, value] of Object.entries(raw)) {
    const f = fields.find((x) => x.key === key);
    if (!f) {
      issues.push(`${owner}: unknown setting "${key.slice(0, 40)}" ignored`);
      continue;
    }
    const problem = fieldProblem(owner, f, value);
    if (problem) issues.push(`${problem}; using the default ${JSON.stringify(f.default)}`);
    else if (value !== f.default) out[key] = value as SettingValue;
  }
  return out;
}

/** A fresh run id "algo-n" not in `used`. */
export function freshRunId(algo: string, used: ReadonlySet<string>): string {
  for (let n = 1; ; n++) if (!used.has(`${algo}-${n}`)) return `${algo}-${n}`;
}

/**
 * A display label: trimmed, no control characters nor invisible format characters (the bidirectional controls
 * that would show "‮evil" as "live", zero-width spaces that make "GRPO" and "GRPO​" two labels), every run of
 * spaces of any kind (tabs, no-break spaces) one plain space, as a page shows it ("My  run" is "My run"), at most
 * MAX_LABEL characters; null when unusable.
 */
export function cleanLabel(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  // Controls (C0, DEL, C1) and invisible format characters (bidi marks and overrides, zero-width spaces and
  // joiners, BOM, soft hyphen): a label that looks like another's must be another's ("GRPO" + U+200B is "GRPO").
  const s = plainText(raw.replace(/[\s\p{Zs}]+/gu, " ")).replace(/ {2,}/g, " ");
  return s.length > 0 && [...s].length <= MAX_LABEL ? s : null;
}

/**
 * Letters of other scripts drawn like Latin ones (Cyrillic and Greek capitals and the common small ones, after
 * Unicode TR39's confusables): "РРО" in Cyrillic reads as "PPO".
 */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [
    ["АВЕЅІЈКМНОРСТХУ", "ABESIJKMHOPCTXY"],
    ["аеіјорсхуѕԁһ", "aeijopcxysdh"],
    ["ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"],
    ["οκνρ", "okvp"],
  ].flatMap(([from, to]) => [...from].map((c, i) => [c, to[i]])),
);

/** How a label reads: its look-alike letters as Latin ones (two labels alike here look alike on the page). */
export function labelLooks(label: string): string {
  return [...label.normalize("NFKC")].map((c) => LOOKALIKES[c] ?? c).join("");
}

/**
 * Runs whose labels all look different ({@link labelLooks}: "РРО" in Cyrillic is "PPO"): a repeated label becomes
 * "GRPO 2", "GRPO 3"… (cut to MAX_LABEL), as
 * "+ Add run" numbers them, so that cards, legend and Remove buttons tell the runs apart.
 */
function distinctLabels(runs: readonly RunSpec[]): RunSpec[] {
  const taken = new Set<string>();
  return runs.map((r) => {
    const label = numberedLabel(r.label, (l) => taken.has(labelLooks(l)));
    taken.add(labelLooks(label));
    return label === r.label ? r : { ...r, label };
  });
}

/** `base`, or "`base` 2", "`base` 3"… (cut to MAX_LABEL characters): the first that is not `taken`. */
export function numberedLabel(base: string, taken: (label: string) => boolean): string {
  let label = base;
  for (let n = 2; taken(label); n++) {
    const end = ` ${n}`;
    label = `${[...base]
      .slice(0, MAX_LABEL - end.length)
      .join("")
      .trimEnd()}${end}`;
  }
  return label;
}

/** What a value is, for a message: "a list", "a string", "null", "missing". */
export function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return `a ${typeof v}`;
}

/**
 * One run from untrusted data, or null (with an issue) when it cannot be a run: not an object or an unknown
 * algorithm. A missing or taken id gets a fresh one; a bad label gets the algorithm's title. The issues name the
 * run by its label, or by `where` (default "run {index + 1}") and its algorithm when it has no usable label, or
 * by `where` and its quoted label when the label would read as a settings table's ({@link readsAsTable}: a run
 * labelled "experiment" is 'run 1 “experiment”'): its id is internal, shown nowhere.
 */
export function checkRun(
  raw: unknown,
  index: number,
  used: Set<string>,
  issues: string[],
  where = `run ${index + 1}`,
): RunSpec | null {
  if (!isRecord(raw)) {
    issues.push(`${where} is ${kindOf(raw)}, not a run (an object with at least its "algo"); dropped`);
    return null;
  }
  if (!isAlgoId(raw.algo)) {
    const name = typeof raw.algo === "string" ? `"${raw.algo.slice(0, 40)}"` : quoted(raw.algo ?? null);
    issues.push(`${where}: unknown algorithm ${name} (known: ${ALGO_IDS.join(", ")}); dropped`);
    return null;
  }
  const algo = raw.algo;
  const taken = typeof raw.id === "string" && RUN_ID.test(raw.id) && used.has(raw.id);
  let id = typeof raw.id === "string" && RUN_ID.test(raw.id) && !taken ? raw.id : null;
  // An id is internal (shown nowhere): an invalid one is replaced silently; a taken one is said without it.
  if (!id) id = freshRunId(algo, used);
  used.add(id);
  let label = cleanLabel(raw.label);
  // The run as the issues name it: its label, or where it was and its algorithm when it has none usable.
  const name =
    label === null
      ? `${where} (${ALGORITHMS[algo].title})`
      : readsAsTable(label)
        ? `${where} “${label}”`
        : label;
  if (taken) issues.push(`two runs had the same id; ${name} was given a new one`);
  if (!label) {
    label = ALGORITHMS[algo].title;
    if (raw.label !== undefined) issues.push(`${where}: its name was invalid; named "${label}"`);
  }
  const run: RunSpec = { id, algo, label, config: checkRunConfig(algo, name, raw.config, issues) };
  if (raw.colour !== undefined) {
    const c = raw.colour;
    if (typeof c === "number" && Number.isInteger(c) && c >= 0 && c < COLOUR_SLOTS) run.colour = c;
    else
      issues.push(
        `${name}: its colour ${JSON.stringify(c)?.slice(0, 20)} is not 0–${COLOUR_SLOTS - 1}; coloured in order`,
      );
  }
  if (raw.seed !== undefined) {
    // Its own training seed (RUN_SEED_FIELD): a bad one leaves the experiment's.
    const problem = fieldProblem(name, RUN_SEED_FIELD, raw.seed);
    if (problem) issues.push(`${problem}; using the experiment's seed`);
    else run.seed = raw.seed as number;
  }
  if (raw.forkOf !== undefined) {
    const f = raw.forkOf;
    if (
      isRecord(f) &&
      typeof f.id === "string" &&
      RUN_ID.test(f.id) &&
      f.id !== id &&
      Number.isInteger(f.step) &&
      Number(f.step) >= 0
    )
      run.forkOf = { id: f.id, step: Number(f.step) };
    else issues.push(`${name}: its fork point was invalid; dropped`);
  }
  return run;
}

/**
 * A whole experiment from untrusted data. Invalid experiment fields take their defaults; invalid runs are
 * dropped, and so are runs beyond MAX_RUNS. The default runs are used when the run list is missing, is not a
 * list, or held runs of which none is usable; an empty list stays empty (every run was removed).
 */
export function checkSpec(raw: Record<string, unknown>, issues: string[]): ExperimentSpec {
  const exp = readFields("experiment", EXPERIMENT_FIELDS, raw, issues);
  let runs: RunSpec[] = defaultExperiment().runs;
  if (raw.runs !== undefined && !Array.isArray(raw.runs))
    issues.push("the run list is not a list; default runs");
  if (Array.isArray(raw.runs)) {
    const list: unknown[] = raw.runs;
    if (list.length > MAX_RUNS) issues.push(`${list.length} runs is more than ${MAX_RUNS}; the rest dropped`);
    const used = new Set<string>();
    const kept: RunSpec[] = [];
    list.slice(0, MAX_RUNS).forEach((r, i) => {
      const run = checkRun(r, i, used, issues);
      if (run) kept.push(run);
    });
    if (list.length > 0 && kept.length === 0) issues.push("no run was usable; default runs");
    else runs = distinctLabels(kept);
  }
  const task = exp.task as ExperimentSpec["task"];
  runs = runs.map((r) => taskCostChecked(r, task, issues));
  // A start model the task's prompts do not fit (a link's own pair, or its task fell back to the default):
  // every run would fail to start, so the task's shipped SFT model instead, as the Change… dialog would offer.
  let model = exp.model as ExperimentSpec["model"];
  const unfit = startModelProblem(model, task);
  if (unfit) {
    issues.push(`${unfit}; using the shipped SFT model`);
    model = "sft";
  }
  return {
    task,
    model,
    seed: exp.seed as number,
    runs,
    ...((exp.steps as number) > 0 && { steps: exp.steps as number }),
    ...(exp.preset !== "none" && { preset: exp.preset as PresetId }),
  };
}

/** `run` with a `cost` its task does not define dropped (back to "length"), with an issue. */
function taskCostChecked(run: RunSpec, task: ExperimentSpec["task"], issues: string[]): RunSpec {
  const cost = run.config.cost;
  if (cost === undefined || cost === "length" || TASK_COSTS[task].includes(String(cost))) return run;
  issues.push(`${run.label}: the ${task} task has no cost "${cost}"; using "length"`);
  const { cost: _, ...config } = run.config;
  return { ...run, config };
}

/** The shared view settings from untrusted data (missing: defaults; invalid: default with an issue). */
export function checkView(raw: unknown, issues: string[]): SharedView {
  if (raw === undefined) return { ...DEFAULT_SHARED_VIEW };
  if (!isRecord(raw)) {
    issues.push("the chart settings are not readable; defaults");
    return { ...DEFAULT_SHARED_VIEW };
  }
  return readFields("view", VIEW_FIELDS, raw, issues) as unknown as SharedView;
}

/** `config` minus the values equal to the algorithm's defaults (what a RunSpec should hold). */
export function nonDefaultConfig(algo: AlgoId, config: Record<string, SettingValue>): ConfigValues {
  const out: ConfigValues = {};
  for (const f of ALGORITHMS[algo].fields)
    if (Object.hasOwn(config, f.key) && config[f.key] !== f.default) out[f.key] = config[f.key];
  return out;
}

/**
 * A run as a link, a saved experiment or a run file wrote it, before the check drops the values at today's
 * defaults (default_changes.ts needs them: an explicit ε_high = 0 meant something else before 3 Dec 2026), for
 * the notice's sentences on defaults changed since: its label cleaned as the check cleans it (cleanLabel; the
 * algorithm's title when it has none usable), its settings those its fields accept, values at the default
 * included (a bad value is the check's to name: the run trains with the default, and the notice says so too);
 * null when it is no run (the check says what is wrong).
 */
export function runAsWritten(r: unknown): RunSpec | null {
  if (!isRecord(r) || !isAlgoId(r.algo)) return null;
  if (r.config !== undefined && !isRecord(r.config)) return null; // the check says what is wrong with it
  const algo = r.algo;
  const { fields } = ALGORITHMS[algo];
  const config = Object.fromEntries(
    Object.entries(isRecord(r.config) ? r.config : {}).filter(([key, value]) => {
      const f = fields.find((x) => x.key === key);
      return f !== undefined && fieldProblem(algo, f, value) === null;
    }),
  ) as ConfigValues;
  return { ...(r as object), algo, label: cleanLabel(r.label) ?? ALGORITHMS[algo].title, config } as RunSpec;
}
