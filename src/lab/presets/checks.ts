/**
 * Numeric checks of the lessons' effects on finished runs (the headless verification, `npm run lab -- lesson`):
 * small statistics over a run's per-step metrics. A step without the metric (or with a non-finite value) is
 * skipped. Plain functions, no GPU.
 */

/** Per-step metrics of one run, in step order (TRL names, as the algorithms report them). */
export type MetricRows = readonly Record<string, number>[];

/** Runs of a lesson by run id. */
export type LessonHistories = Readonly<Record<string, MetricRows>>;

/**
 * What a lesson's check found: whether the effect showed (`ok`: every one of its `conditions` holds), each
 * condition by name (e.g. `{ "margin rises": true, "accuracy above 0.5": false }`; {} when not checked), the
 * numbers it looked at, and one sentence.
 */
export interface LessonVerdict {
  ok: boolean;
  conditions: Record<string, boolean>;
  numbers: Record<string, number>;
  summary: string;
}

/**
 * A verdict from named conditions: ok only when every one holds (a check states its conditions, never its own
 * `ok`, so no condition can be or-ed away unseen: test/lab/lesson_mutations.test.ts breaks each one).
 */
export function verdict(
  conditions: Record<string, boolean>,
  numbers: Record<string, number>,
  summary: string,
): LessonVerdict {
  return { ok: Object.values(conditions).every(Boolean), conditions, numbers, summary };
}

/** The finite values of `metric` over the rows. */
export function series(rows: MetricRows, metric: string): number[] {
  const out: number[] = [];
  for (const r of rows) {
    const v = r[metric];
    if (typeof v === "number" && Number.isFinite(v)) out.push(v);
  }
  return out;
}

const avg = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/** Mean of the first `n` values of `metric` (NaN when there are none). */
export function headMean(rows: MetricRows, metric: string, n: number): number {
  return avg(series(rows, metric).slice(0, n));
}

/** Mean of the last `n` values of `metric` (NaN when there are none). */
export function tailMean(rows: MetricRows, metric: string, n: number): number {
  return avg(series(rows, metric).slice(-n));
}

/** Mean of all values of `metric` (NaN when there are none). */
export function allMean(rows: MetricRows, metric: string): number {
  return avg(series(rows, metric));
}

/**
 * Centred moving average with a window of `w` values (shorter at the ends): the curve a reader sees with
 * smoothing, used to find a peak that is not one lucky batch.
 */
export function movingAverage(xs: readonly number[], w: number): number[] {
  const h = Math.floor(w / 2);
  return xs.map((_, i) => avg(xs.slice(Math.max(0, i - h), i + h + 1)));
}

/** A check asked for a run the histories lack (the lesson and its check disagree, or the run was not trained). */
export class MissingRunError extends RangeError {
  constructor(readonly run: string) {
    super(`the lesson has no run "${run}"`);
    this.name = "MissingRunError";
  }
}

/** Rows of the lesson's run `id`. @throws MissingRunError when the histories lack the run. */
export function runRows(h: LessonHistories, id: string): MetricRows {
  const rows = h[id];
  if (!rows) throw new MissingRunError(id);
  return rows;
}

/** Round for a report (4 significant digits). */
export function r4(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(4)) : x;
}
