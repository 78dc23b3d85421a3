/**
 * A Reset while an imported run's checkpoint loads (lab_store.ts clearProgress): the worker keeps the held import
 * (Scheduler.reset: it resumes at its saved step when its checkpoint is in), so the page keeps its restored curve
 * and label too (a reviewer found them emptied: the run then resumed at step 12 with no curve up to 12).
 */
import { expect, it } from "vitest";
import type { RunSpec } from "../../src/lab/protocol";
import { restartedSpecs } from "../../src/lab/run_labels";
import { useLab } from "../../src/ui/lab_store";

it("Reset keeps an import whose checkpoint is still loading, on the page as in the worker", () => {
  const spec = (id: string, label: string): RunSpec => ({ id, algo: "ppo", label, config: {} });
  const imported = spec("ppo-2", "PPO (fork @ 4) (imported)");
  useLab
    .getState()
    .setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [spec("ppo-1", "PPO"), imported] });
  const history = Array.from({ length: 12 }, (_, i) => ({ step: i + 1 }) as never);
  // import_run.ts: addRun(spec, held) then restoreRuns({ …, resuming: true, resumedAt }) then loadRunCheckpoint.
  useLab.getState().restoreRuns([
    {
      spec: imported,
      status: "ready",
      step: 12,
      history,
      markers: [],
      samples: [],
      error: null,
      resuming: true,
      resumedAt: 12,
    },
  ]);
  // The worker's Reset (scheduler.ts reset: `if (old.held) return old`) keeps this run's spec and its saved step.
  expect(restartedSpecs([imported])[0].label).not.toBe(imported.label); // what the page's clearProgress applies
  useLab.getState().clearProgress(); // client.ts reset(), after api.reset() resolved
  const r = useLab.getState().runs["ppo-2"];
  expect(r.spec.label).toBe(imported.label); // the worker kept it
  expect(r.history.length).toBe(12); // the worker resumes it at step 12
});
