/**
 * A run's metric history as files: CSV (one row per step; columns step, samples, tokens, then every TRL
 * metric name that appears, in order of first appearance; an empty cell where a step lacks a metric) and
 * the run JSON that {@link parseRunFile} (./run_file.ts) reads back. Numbers are written in JavaScript's
 * shortest round-trip form, so a CSV or JSON export re-reads to the same float64 values.
 */
import Papa from "papaparse";
import type { MetricPoint } from "../protocol";

/** The x-axis columns that lead every CSV. */
export const AXIS_COLUMNS = ["step", "samples", "tokens"] as const;

/** Every metric name in `history`, in order of first appearance. */
export function metricNames(history: readonly MetricPoint[]): string[] {
  const seen = new Set<string>();
  for (const p of history) for (const k of Object.keys(p.metrics)) seen.add(k);
  return [...seen];
}

/**
 * A metric's CSV column name: the algorithms also log per-step `samples` and `tokens`, which would collide with
 * the cumulative axis columns, so those become `samples_step` and `tokens_step`.
 */
export function csvName(metric: string): string {
  return (AXIS_COLUMNS as readonly string[]).includes(metric) ? `${metric}_step` : metric;
}

/** The CSV columns of a history: step, samples, tokens, then its metric names. */
export function csvColumns(history: readonly MetricPoint[]): string[] {
  return [...AXIS_COLUMNS, ...metricNames(history).map(csvName)];
}

/**
 * A cell a spreadsheet would run as a formula: it starts with = + - @ or a tab/CR (Papa's own pattern ends in
 * `.*$`, which misses a cell holding a line break).
 */
const FORMULA = /^[=+\-@\t\r]/;

/** The history as CSV text (RFC 4180, a header row, "\n" after every row). */
export function metricsCsv(history: readonly MetricPoint[]): string {
  const names = metricNames(history);
  const data = history.map((p) => [
    p.step,
    p.samples,
    p.tokens,
    ...names.map((k) => (Object.hasOwn(p.metrics, k) ? p.metrics[k] : null)),
  ]);
  // escapeFormulae: a cell starting with = + - @ gets a leading ' (a spreadsheet would run it; numbers are not
  // touched), in case a name that came from a file ever gets here.
  const text = Papa.unparse(
    { fields: [...AXIS_COLUMNS, ...names.map(csvName)], data },
    { newline: "\n", escapeFormulae: FORMULA },
  );
  return text.endsWith("\n") ? text : `${text}\n`;
}
