/**
 * Every run of the lab in one CSV, long format, for a spreadsheet or pandas: columns
 * `run,label,algorithm,seed,task,model` (a run imported for comparison: its own file's, empty where unknown:
 * ./origin.ts), then `setting/<key>` for each setting whose value differs between the exported runs (its
 * value per run, the algorithm's default filled in as the run's config.json `settings` has it; empty for a run
 * whose algorithm has no such setting), then the per-run CSV's (./metrics.ts: step, samples, tokens, the metric names in order of first appearance
 * across the runs, settings_changed last), one row per run and step, runs in the order given. A run lacking a
 * metric another one has gets an empty cell there. Written as the per-run CSV is (RFC 4180, "\n" line ends,
 * formula-like text cells escaped).
 *
 * Settings are the lab's keys (`beta`, `lr`, `numGenerations`: the settings table's, `--set`'s and config.json's),
 * not TRL's, whose names differ by trainer for one knob (PPO's `kl_coef`, GRPO's `beta`); prefixed, because a key
 * can be a metric's name too (`reward`: the reward source). Only the differing ones: a sweep over G, loss type,
 * ε or μ shows which run had which, without some sixty columns of one value each (every setting of every run is
 * in its config.json); a setting changed mid-run shows its final value here and the change in `settings_changed`.
 */
import { defaultsOf, validateConfig } from "../../algorithms/fields";
import type { Marker, MetricPoint, SettingValue } from "../protocol";
import { ALGORITHMS, type AlgoId } from "../registry";
import { AXIS_COLUMNS, CHANGES_COLUMN, csvColumns, csvRows, csvText } from "./metrics";

/** The leading columns that say which run a row is of. */
export const RUN_COLUMNS = ["run", "label", "algorithm", "seed", "task", "model"] as const;

/** A setting's column: `setting/beta`. */
export const settingColumn = (key: string) => `setting/${key}`;

/** One run for the long-format CSV. */
export interface LongRun {
  /** The run's id ("ppo-1"). */
  id: string;
  label: string;
  /** Its algorithm id ("ppo"). */
  algo: string;
  /** The seed and task it trained with (null: unknown, an imported run whose file did not say). */
  seed: number | null;
  task: string | null;
  /** The start model ("sft", "nano", …; null: unknown). */
  model: string | null;
  /** Its settings as set (the run card's; defaults may be left out). */
  config: Readonly<Record<string, SettingValue>>;
  history: readonly MetricPoint[];
  markers: readonly Marker[];
}

/** The union of the runs' per-run columns: axis columns first, metrics in order of first appearance, changes last. */
export function longColumns(runs: readonly LongRun[]): string[] {
  const seen = new Set<string>();
  for (const r of runs) for (const c of csvColumns(r.history)) seen.add(c);
  const metrics = [...seen].filter((c) => !(AXIS_COLUMNS as readonly string[]).includes(c));
  return [...AXIS_COLUMNS, ...metrics, CHANGES_COLUMN];
}

/** A run's settings with its algorithm's defaults filled in (as its config.json's `settings`). */
function filledSettings(r: Pick<LongRun, "algo" | "config">): Record<string, SettingValue> {
  const info = Object.hasOwn(ALGORITHMS, r.algo) ? ALGORITHMS[r.algo as AlgoId] : undefined;
  if (!info) return { ...r.config };
  try {
    return validateConfig<Record<string, SettingValue>>(r.algo, info.fields, { ...r.config });
  } catch {
    return { ...defaultsOf(info.fields), ...r.config };
  }
}

/**
 * The setting keys whose value differs among the runs that have them, in order of first appearance; none for
 * fewer than two runs. A key only some runs' algorithms have counts only where it varies among those (a PPO's
 * ppoEpochs beside a GRPO is one value, not a difference: the default three-algorithm lab gets no columns for it).
 */
export function differingSettings(settings: readonly Readonly<Record<string, SettingValue>>[]): string[] {
  const keys = [...new Set(settings.flatMap((s) => Object.keys(s)))];
  return keys.filter(
    (k) => new Set(settings.filter((s) => Object.hasOwn(s, k)).map((s) => String(s[k]))).size > 1,
  );
}

/** A setting's cell: a number as it is, a switch as true/false, empty where the run has no such setting. */
function cell(settings: Readonly<Record<string, SettingValue>>, key: string): string | number | null {
  if (!Object.hasOwn(settings, key)) return null;
  const v = settings[key];
  return typeof v === "number" ? v : String(v);
}

/** The long-format CSV text of `runs` (a header alone when there are none). */
export function allRunsCsv(runs: readonly LongRun[]): string {
  const columns = longColumns(runs);
  const settings = runs.map(filledSettings);
  const varying = differingSettings(settings);
  const data = runs.flatMap((r, i) => {
    const own = csvColumns(r.history, true);
    const at = columns.map((c) => own.indexOf(c));
    return csvRows(r.history, r.markers).map((cells) => [
      r.id,
      r.label,
      r.algo,
      r.seed,
      r.task,
      r.model,
      ...varying.map((k) => cell(settings[i], k)),
      ...at.map((i) => (i < 0 ? null : cells[i])),
    ]);
  });
  return csvText([...RUN_COLUMNS, ...varying.map(settingColumn), ...columns], data);
}
