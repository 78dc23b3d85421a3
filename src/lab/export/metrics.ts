/**
 * A run's metric history as files: CSV (one row per step; columns step, samples, tokens, then every TRL
 * metric name that appears, in order of first appearance; an empty cell where a step lacks a metric; then,
 * given the run's markers, `settings_changed`: the labels of the setting changes that applied from that step
 * ("β 0.2 → 0.5"), empty on other steps) and
 * the run JSON that {@link parseRunFile} (./run_file.ts) reads back. Numbers are written in JavaScript's
 * shortest round-trip form, so a CSV or JSON export re-reads to the same float64 values.
 */
import Papa from "papaparse";
import type { Marker, MetricPoint } from "../protocol";
import { changeCells } from "./changes";
import { AXIS_COLUMNS, csvName } from "./columns";

export { AXIS_COLUMNS, csvName };

/** Every metric name in `history`, in order of first appearance. */
export function metricNames(history: readonly MetricPoint[]): string[] {
  const seen = new Set<string>();
  for (const p of history) for (const k of Object.keys(p.metrics)) seen.add(k);
  return [...seen];
}

/** The last column of an exported run's CSV: the setting changes that applied from the row's step. */
export const CHANGES_COLUMN = "settings_changed";

/**
 * The CSV columns of a history: step, samples, tokens, then its metric names, then `settings_changed` when
 * `withChanges` (as {@link metricsCsv} writes them given markers).
 */
export function csvColumns(history: readonly MetricPoint[], withChanges = false): string[] {
  return [...AXIS_COLUMNS, ...metricNames(history).map(csvName), ...(withChanges ? [CHANGES_COLUMN] : [])];
}

/**
 * A cell a spreadsheet would run as a formula: it starts with = + - @ or a tab/CR (Papa's own pattern ends in
 * `.*$`, which misses a cell holding a line break).
 */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * The history as CSV text (RFC 4180, a header row, "\n" after every row). Given `markers` (the run's, any
 * order; resume markers are left out), the last column is `settings_changed` (see the module note); without,
 * there is no such column.
 */
export function metricsCsv(history: readonly MetricPoint[], markers?: readonly Marker[]): string {
  return csvText(csvColumns(history, markers !== undefined), csvRows(history, markers));
}

/** The rows of {@link metricsCsv}, one per point: cells in {@link csvColumns}' order (null: empty). */
export function csvRows(
  history: readonly MetricPoint[],
  markers?: readonly Marker[],
): (number | string | null)[][] {
  const names = metricNames(history);
  const cells = markers ? changeCells(markers) : null;
  return history.map((p) => [
    p.step,
    p.samples,
    p.tokens,
    ...names.map((k) => (Object.hasOwn(p.metrics, k) ? p.metrics[k] : null)),
    ...(cells ? [cells.get(p.step) ?? null] : []),
  ]);
}

/** CSV text of a header and rows, written as {@link metricsCsv} writes them. */
export function csvText(fields: readonly string[], data: readonly (number | string | null)[][]): string {
  // escapeFormulae: a cell starting with = + - @ gets a leading ' (a spreadsheet would run it; numbers are not
  // touched), in case a name that came from a file ever gets here.
  const text = Papa.unparse(
    { fields: [...fields], data: data.map((r) => [...r]) },
    { newline: "\n", escapeFormulae: FORMULA },
  );
  return text.endsWith("\n") ? text : `${text}\n`;
}
