/**
 * The lesson card's pure helpers (src/ui/lessons/LessonCard.tsx): its progress and time-left lines, the lesson's
 * runs that were removed or can be added back, and which "What to watch" items are scrolled out of view. Kept
 * out of the component file so that Vite's Fast Refresh can swap LessonCard.tsx in place.
 */
import type { RunSpec } from "../../lab/protocol";
import { freeLabel } from "../lab/run_specs";
import { durationText } from "../lab/step_progress";
import type { RunState } from "../lab_store";

/**
 * The progress toward a lesson's length `steps` (> 0, the Stop at in force) from the furthest and the slowest
 * run's steps (lab_store stepRange): "step 5 of 12", "step 12 of 12, slowest run at 3" while a run catches up,
 * "finished"; when Stop at was lowered below the lesson's own length `planned`, "stopped at step 4 of the
 * lesson's 60 (Stop at)" rather than finished; raised past it, "step 20 of 66 (the lesson's check: 16)".
 */
export function progressText(top: number, low: number, steps: number, planned = steps): string {
  if (low >= steps)
    return steps < planned ? `stopped at step ${steps} of the lesson's ${planned} (Stop at)` : "finished";
  const shown = Math.min(top, steps);
  const longer = steps > planned ? ` (the lesson's check: ${planned})` : "";
  return `step ${shown} of ${steps}${longer}${low < shown ? `, slowest run at ${low}` : ""}`;
}

/** The steps a run's pace is read from: its latest ones (the first step also builds the kernels: left out when later ones exist). */
const PACE_STEPS = 5;

/**
 * The time the lesson has left at the runs' pace: each run's steps still to go (to `steps`) times its median
 * `step_time` (seconds) over its latest steps, summed (the runs take turns on one device), and at least the
 * Speed cap's `speed` steps a second per run allow (0: none). Null until every run that still has steps to go
 * has a timed step, and when nothing is left. E.g. "about 6 h 50 min left at this pace".
 */
export function lessonTimeLeft(
  runs: readonly Pick<RunState, "step" | "history" | "status" | "comparison">[],
  steps: number,
  speed = 0,
): string | null {
  let ms = 0;
  let most = 0;
  for (const r of runs) {
    if (r.comparison || r.status === "error" || r.step >= steps) continue;
    // Read on every store update: only the latest points are looked at, not the whole history.
    const latest = r.history.slice(-(PACE_STEPS + 1));
    const times = latest
      .filter((p) => p.step > 1 || latest.length === 1)
      .slice(-PACE_STEPS)
      .map((p) => p.metrics.step_time)
      .filter((t) => t !== undefined && Number.isFinite(t) && t > 0)
      .sort((a, b) => a - b);
    if (times.length === 0) return null;
    ms += (steps - r.step) * times[Math.floor(times.length / 2)] * 1000;
    most = Math.max(most, steps - r.step);
  }
  if (speed > 0) ms = Math.max(ms, (most / speed) * 1000);
  return ms > 0 ? `about ${durationText(ms)} left at this pace` : null;
}

/**
 * The labels of the lesson's own runs (`lessonRuns`, its experiment's) that are no longer among `runs`, the
 * experiment's now (matched by id): its "what to watch" refers to them.
 */
export function removedLessonRuns(
  lessonRuns: readonly Pick<RunSpec, "id" | "label">[],
  runs: readonly Pick<RunSpec, "id">[],
): string[] {
  return lessonRuns.filter((l) => !runs.some((r) => r.id === l.id)).map((l) => l.label);
}

/**
 * The items of a list `el` that end below its visible part (1-based), or [] when every item shows: a short
 * window makes "What to watch" scroll inside the card (lessons.css), and a reader must see that it goes on.
 * The items' offsetTop is measured from the list (it is `position: relative`).
 */
export function hiddenItems(el: Pick<HTMLElement, "scrollTop" | "clientHeight" | "children">): number[] {
  const bottom = el.scrollTop + el.clientHeight;
  const out: number[] = [];
  Array.from(el.children).forEach((c, i) => {
    const item = c as HTMLElement;
    // 2 px of slack: a last line that shows but for its descenders counts as shown.
    if (item.offsetTop + item.offsetHeight > bottom + 2) out.push(i + 1);
  });
  return out;
}

/**
 * The lesson's own runs missing from `runs` (matched by id), as its link would open them, each from step 0, under
 * its name unless a run was renamed to it meanwhile ("PPO 2" then): what "Add it back" adds.
 */
export function lessonRunsBack(lessonRuns: readonly RunSpec[], runs: readonly RunSpec[]): RunSpec[] {
  const named = [...runs];
  for (const p of lessonRuns.filter((p) => !runs.some((s) => s.id === p.id)))
    named.push({ ...p, label: freeLabel(named, p.label) });
  return named.slice(runs.length);
}
