/**
 * The lesson's check (src/lab/presets/checks.ts), run on the page once the lesson is finished: the same verdict
 * `npm run lab -- lesson` prints, on the steps up to the lesson's length, so a student who ran it to its end reads
 * whether the effect showed, with the numbers it looked at. Pure.
 */
import type { LessonVerdict } from "../../lab/presets/checks";
import type { Lesson } from "../../lab/presets/lesson";
import type { MetricPoint } from "../../lab/protocol";

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
