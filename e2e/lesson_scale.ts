/**
 * The lessons e2e/lessons.spec.ts opens and trains, and the test scale it opens them at (plain data, no browser:
 * test/lab/lesson_wiring.test.ts checks the list against PRESET_IDS).
 */

// Not ../src/lab/presets/index: its links pull in the URL codec, which Playwright's Node loader cannot read.
import { LESSONS } from "../src/lab/presets/all";
import { PRESET_IDS } from "../src/lab/presets/ids";
import type { Lesson } from "../src/lab/presets/lesson";
import type { ExperimentSpec, SettingValue } from "../src/lab/protocol";

/** Every lesson, in the lab's order: a lesson added to PRESET_IDS is opened and trained here with no edit. */
export const E2E_LESSONS: readonly Lesson[] = PRESET_IDS.map((id) => LESSONS[id]);
/** Steps each lesson trains in the e2e test. */
export const STEPS = 3;

/** The lesson's experiment at test scale (same runs and settings, small shapes). */
export function testScale(spec: ExperimentSpec): ExperimentSpec {
  const small: Record<string, (v: number) => number> = {
    batchPrompts: () => 2,
    batchPairs: () => 2,
    numGenerations: (g) => Math.min(g, 4),
    n: (n) => Math.min(n, 4),
    maxNewTokens: () => 4,
    ppoEpochs: () => 1,
  };
  return {
    ...spec,
    task: "arithmetic",
    model: "nano",
    steps: STEPS,
    runs: spec.runs.map((r) => ({
      ...r,
      config: Object.fromEntries(
        Object.entries(r.config).map(([k, v]): [string, SettingValue] => [
          k,
          k in small && typeof v === "number" ? small[k](v) : v,
        ]),
      ),
    })),
  };
}
