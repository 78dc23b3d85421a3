/**
 * The columns a run's metric history is written under, in the page's CSV (./metrics.ts) and the headless lab's
 * JSONL logs (cli/lab): `step`, then `samples` and `tokens` as running totals of the run's completions and
 * completion tokens, then the TRL metric names, the step's own counters renamed `samples_step` and
 * `tokens_step`. No dependencies: the training worker counts its points with {@link pointAfter}.
 */
import type { MetricPoint, RunCounters } from "../protocol";

/** The x-axis columns that lead every CSV. */
export const AXIS_COLUMNS = ["step", "samples", "tokens"] as const;

/**
 * A metric's CSV column name: the algorithms also log per-step `samples` and `tokens`, which would collide with
 * the cumulative axis columns, so those become `samples_step` and `tokens_step`.
 */
export function csvName(metric: string): string {
  return (AXIS_COLUMNS as readonly string[]).includes(metric) ? `${metric}_step` : metric;
}

/**
 * The point a step makes: its metrics, with the run's running totals advanced by the step's own `samples` and
 * `tokens` metrics (completions and completion tokens generated; 0 where a step logs none), as the page's runs
 * count them (src/lab/run_slot.ts) and the headless lab's logs (cli/lab/run_log.ts).
 */
export function pointAfter(
  before: Pick<RunCounters, "samples" | "tokens">,
  step: number,
  metrics: Record<string, number>,
): MetricPoint {
  const samples = before.samples + (metrics.samples ?? 0);
  return { step, samples, tokens: before.tokens + (metrics.tokens ?? 0), metrics };
}

/**
 * A point under the CSV's column names, as one record: `step`, `samples` and `tokens` (running totals), then
 * its metrics, the step's own counters as `samples_step` and `tokens_step` (what the headless lab logs a line).
 */
export function csvRecord(p: MetricPoint): Record<string, number> {
  const r: Record<string, number> = { step: p.step, samples: p.samples, tokens: p.tokens };
  for (const [k, v] of Object.entries(p.metrics)) r[csvName(k)] = v;
  return r;
}

/**
 * A step's metrics from a record with numeric cells (a {@link csvRecord} read back): every number but the
 * axis columns, with `samples_step` and `tokens_step` under their logged names `samples` and `tokens`. A
 * record without `samples_step` or `tokens_step` is read as the headless lab wrote its logs before it wrote
 * running totals (the logs under docs/lesson-runs): its `samples` and `tokens` are the step's own, kept.
 */
export function recordMetrics(record: Record<string, unknown>): Record<string, number> {
  const perStep = "samples_step" in record || "tokens_step" in record;
  const m: Record<string, number> = {};
  for (const [k, v] of Object.entries(record)) {
    if (typeof v !== "number" || k === "step") continue;
    if (perStep && (AXIS_COLUMNS as readonly string[]).includes(k)) continue;
    m[perStep && k.endsWith("_step") && csvName(k.slice(0, -5)) === k ? k.slice(0, -5) : k] = v;
  }
  return m;
}
