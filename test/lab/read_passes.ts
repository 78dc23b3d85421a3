/**
 * How a lesson check reads its history, for lesson_mutations.test.ts: the passes it makes over each (run,
 * metric). A pass is a run of reads over consecutive rows holding the metric, one direction (forward or back);
 * reading the same row again, or jumping, starts a new one. An early-exit reader (`rows.some(…)`, find,
 * findIndex) reads a longer or shorter stretch in one pass as the values change, but a lazy "A || B" makes a
 * whole new pass (B) once A fails: so the rule compares passes, not reads.
 *
 * Limits: a pass that stops early and a later one that starts just past it on the same metric (a `some` over the
 * first rows, then `rows.slice(-n)`) count as one pass when they meet; a reader that reads one row twice in a row
 * inside an early-exit loop counts a pass per row. Neither is in a shipped lesson.
 */
import type { LessonHistories, MetricRows } from "../../src/lab/presets/checks";

/** The passes `check` makes over each (run, metric) of `h`, keyed "run metric". */
export function readPasses(check: (h: LessonHistories) => unknown, h: LessonHistories): Map<string, number> {
  const passes = new Map<string, number>();
  const at = new Map<string, { last: number; dir: number }>(); // the current pass: last ordinal, direction
  const watched: Record<string, MetricRows> = {};
  for (const [run, rows] of Object.entries(h)) {
    const counts = new Map<string, number>();
    // Each row's place among the rows that hold the metric (a row without it is no gap in a pass).
    const places = rows.map((row) => {
      const out: Record<string, number> = {};
      for (const k of Object.keys(row)) {
        out[k] = counts.get(k) ?? 0;
        counts.set(k, out[k] + 1);
      }
      return out;
    });
    watched[run] = rows.map(
      (row, i) =>
        new Proxy(row, {
          get(t, k) {
            if (typeof k === "string" && k in t) {
              const key = `${run} ${k}`;
              const n = places[i][k];
              const cur = at.get(key);
              const step = cur ? n - cur.last : 0;
              if (cur && (step === 1 || step === -1) && (cur.dir === 0 || cur.dir === step)) {
                at.set(key, { last: n, dir: step });
              } else {
                passes.set(key, (passes.get(key) ?? 0) + 1);
                at.set(key, { last: n, dir: 0 });
              }
            }
            return Reflect.get(t, k);
          },
        }),
    );
  }
  check(watched);
  return passes;
}

/**
 * What reads `check` makes on `perturbed` beyond those on `shows` (a pass more over some (run, metric)), as
 * messages: a condition that reads more once a part of it fails is or-ed ("A || B").
 */
export function extraPasses(
  check: (h: LessonHistories) => unknown,
  shows: LessonHistories,
  perturbed: LessonHistories,
): string[] {
  const before = readPasses(check, shows);
  return [...readPasses(check, perturbed)]
    .filter(([k, n]) => n > (before.get(k) ?? 0))
    .map(([k, n]) => `"${k}" read in ${n} passes, on SHOWS ${before.get(k) ?? 0}`);
}
