/**
 * The lesson's check (src/lab/presets/checks.ts), run on the page once the lesson is finished: the same verdict
 * `npm run lab -- lesson` prints, on the steps up to the lesson's length, so a student who ran it to its end reads
 * whether the effect showed, with the numbers it looked at. Pure.
 */
import { type LessonVerdict, MissingRunError } from "../../lab/presets/checks";
import type { Lesson } from "../../lab/presets/lesson";
import {
  isResumeMarker,
  type Marker,
  type MetricPoint,
  type RunSpec,
  type SettingValue,
} from "../../lab/protocol";
import { runChange } from "./lesson_changes";

export type PageVerdict =
  | { kind: "verdict"; verdict: LessonVerdict }
  | { kind: "unavailable"; reason: string };

/**
 * The check on the lesson's own runs (`own`: its runs as it was made, matched by id), each history up to step
 * `steps` (the lesson's length). Runs beside them (added, forked: a fork's history repeats its source's) and
 * runs imported for comparison are not read: the check pools some metrics over runs (KL estimators).
 */
export function lessonVerdict(
  lesson: Pick<Lesson, "check">,
  runs: Readonly<Record<string, { history: readonly MetricPoint[]; comparison?: boolean }>>,
  steps: number,
  own: readonly Pick<RunSpec, "id" | "label">[],
): PageVerdict {
  const h: Record<string, Record<string, number>[]> = {};
  for (const { id } of own) {
    const r = runs[id];
    if (!r || r.comparison) continue;
    h[id] = r.history.filter((p) => p.step <= steps).map((p) => p.metrics);
  }
  try {
    return { kind: "verdict", verdict: lesson.check(h) };
  } catch (e) {
    if (e instanceof MissingRunError) {
      const label = own.find((r) => r.id === e.run)?.label ?? e.run;
      return { kind: "unavailable", reason: `the lesson's run “${label}” was removed` };
    }
    return { kind: "unavailable", reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Whether the steps the verdict reads (1 … `steps`) trained otherwise than the lesson was made: its task or start
 * model differ (`setupChanged`: another task, model, or the Pipeline's models handed over), a lesson run is
 * missing, a setting changed during those steps (a marker at a step ≤ `steps`; not one of a run put back to a
 * checkpoint, isResumeMarker), or a lesson run's algorithm or
 * trained settings differ from the lesson's (`trained`: settings as its steps trained them, see asTrained) while
 * none of its markers is later than `steps` (a change after the end explains the difference; a link's change
 * made before the start as well as one after the end is then missed). A new name changes nothing.
 */
export function verdictOnChangedRuns(o: {
  planned: readonly RunSpec[];
  trained: readonly RunSpec[];
  markers: Readonly<Record<string, readonly Pick<Marker, "step" | "label">[]>>;
  steps: number;
  setupChanged: boolean;
}): boolean {
  if (o.setupChanged) return true;
  for (const p of o.planned) {
    const r = o.trained.find((x) => x.id === p.id);
    if (!r) return true;
    // Settings changes only: a run put back to a checkpoint (lost device, rewind) trains on as before.
    const marks = (o.markers[p.id] ?? []).filter((m) => !isResumeMarker(m.label));
    if (marks.some((m) => m.step <= o.steps)) return true;
    if (!marks.some((m) => m.step > o.steps) && runChange(p, { ...r, label: p.label }) !== "") return true;
  }
  return false;
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
