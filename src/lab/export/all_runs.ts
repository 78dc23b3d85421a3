/**
 * Every run of the lab in one CSV, long format, for a spreadsheet or pandas: columns `run,label,algorithm,seed,task`
 * (a run imported for comparison: its own file's, empty where unknown: ./origin.ts),
 * then the per-run CSV's (./metrics.ts: step, samples, tokens, the metric names in order of first appearance
 * across the runs, settings_changed last), one row per run and step, runs in the order given. A run lacking a
 * metric another one has gets an empty cell there. Written as the per-run CSV is (RFC 4180, "\n" line ends,
 * formula-like text cells escaped).
 */
import type { Marker, MetricPoint } from "../protocol";
import { AXIS_COLUMNS, CHANGES_COLUMN, csvColumns, csvRows, csvText } from "./metrics";

/** The leading columns that say which run a row is of. */
export const RUN_COLUMNS = ["run", "label", "algorithm", "seed", "task"] as const;

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

/** The long-format CSV text of `runs` (a header alone when there are none). */
export function allRunsCsv(runs: readonly LongRun[]): string {
  const columns = longColumns(runs);
  const data = runs.flatMap((r) => {
    const own = csvColumns(r.history, true);
    const at = columns.map((c) => own.indexOf(c));
    return csvRows(r.history, r.markers).map((cells) => [
      r.id,
      r.label,
      r.algo,
      r.seed,
      r.task,
      ...at.map((i) => (i < 0 ? null : cells[i])),
    ]);
  });
  return csvText([...RUN_COLUMNS, ...columns], data);
}
