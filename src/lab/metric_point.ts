/**
 * A metric point read from outside the running lab (a run file, a session saved in IndexedDB by this or an
 * older version): what a chart can draw, or null. Used by src/lab/export/run_file.ts and session_store.ts.
 */
import type { MetricPoint } from "./protocol";

/** A plain object (not null, not an array). */
export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

const isCount = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0;
/** Largest step a point may have (a lab run never comes near; 1e308 would stretch every x axis). */
export const MAX_STEP = 1e9;
/** A step: an integer in [0, MAX_STEP]. */
export const isStep = (x: unknown): x is number => isCount(x) && x <= MAX_STEP;
const isTally = (x: unknown): x is number => isCount(x) && x <= Number.MAX_SAFE_INTEGER;
/**
 * Largest metric magnitude a run can log: the float32 maximum (its tensors are float32). A larger value (1e300
 * typed into a file) would squash every chart it is drawn on, so its point counts as malformed.
 */
const MAX_METRIC = 3.4028234663852886e38;
/**
 * A metric's name as the lab and TRL write them ("objective/kl", "tokens/s", "clip_ratio/low_mean"), ≤ 100
 * characters: no spaces, quotes or a leading = + - @ (a spreadsheet would run an exported CSV's header cell).
 */
export const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_/.:-]{0,99}$/;

/**
 * A metric point, or null when its step or counters are unreadable or none of its metrics is a finite number;
 * a metric that is not (or whose name is no metric name: METRIC_NAME) is left out of a point whose other
 * metrics are, and counted in `dropped`.
 */
export function readMetricPoint(x: unknown, dropped: { values: number }): MetricPoint | null {
  if (!isRecord(x) || !isStep(x.step) || !isTally(x.samples) || !isTally(x.tokens) || !isRecord(x.metrics))
    return null;
  const metrics: Record<string, number> = {};
  let bad = 0;
  for (const [k, v] of Object.entries(x.metrics)) {
    if (typeof v !== "number" || !Number.isFinite(v) || Math.abs(v) > MAX_METRIC || !METRIC_NAME.test(k))
      bad++;
    else metrics[k] = v;
  }
  if (bad > 0 && Object.keys(metrics).length === 0) return null;
  dropped.values += bad;
  return { step: x.step, samples: x.samples, tokens: x.tokens, metrics };
}
