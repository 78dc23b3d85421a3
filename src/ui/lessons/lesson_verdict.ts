/**
 * The lesson's check (src/lab/presets/checks.ts), run on the page once the lesson is finished: the same verdict
 * `npm run lab -- lesson` prints, on the steps up to the lesson's length, so a student who ran it to its end reads
 * whether the effect showed, with the numbers it looked at. Pure.
 */
import type { LessonVerdict } from "../../lab/presets/checks";
import type { Lesson } from "../../lab/presets/lesson";
import type { MetricPoint, RunSpec, SettingValue } from "../../lab/protocol";

export type PageVerdict =
  | { kind: "verdict"; verdict: LessonVerdict }
  | { kind: "unavailable"; reason: string };

/** The check on every run's history up to step `steps` (the lesson's own length). */
export function lessonVerdict(
  lesson: Pick<Lesson, "check">,
  runs: Readonly<Record<string, { history: readonly MetricPoint[]; comparison?: boolean }>>,
  steps: number,
): PageVerdict {
  const h: Record<string, Record<string, number>[]> = {};
  for (const [id, r] of Object.entries(runs)) {
    if (r.comparison) continue;
    h[id] = r.history.filter((p) => p.step <= steps).map((p) => p.metrics);
  }
  try {
    return { kind: "verdict", verdict: lesson.check(h) };
  } catch (e) {
    return { kind: "unavailable", reason: e instanceof Error ? e.message : String(e) };
  }
}

/** "proxy_gain 0.31 · gold_peak 0.29 …": the numbers as the CLI prints them. */
export function verdictNumbers(v: LessonVerdict): string {
  return Object.entries(v.numbers)
    .map(([k, x]) => `${k} ${Number.isFinite(x) ? x : "—"}`)
    .join(" · ");
}

/**
 * A run's settings as its steps trained them: the settings turned since its last step (`untrained`: key → the
 * trained value, null for the default) put back, so that a knob turned after the lesson's end does not count as
 * a change of the lesson, nor hide one that did train.
 */
export function asTrained(run: RunSpec, untrained: Record<string, SettingValue | null> | undefined): RunSpec {
  if (!untrained) return run;
  const config: Record<string, SettingValue> = { ...run.config };
  for (const [k, v] of Object.entries(untrained))
    if (v === null) delete config[k];
    else config[k] = v;
  return { ...run, config };
}
