/** The page numbers forks restarted together in id order, numerically, as the worker does (run_labels.ts). */
import { expect, it } from "vitest";
import type { RunSpec } from "../../src/lab/protocol";
import { restartedSpecs } from "../../src/lab/run_labels";
import { useLab } from "../../src/ui/lab_store";

it("forks ppo-2 and ppo-10 restarted in one update get the worker's labels (ppo-2 first)", () => {
  const src: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
  const fork = (id: string, step: number): RunSpec => ({
    id,
    algo: "ppo",
    label: `PPO (fork @ ${step})`,
    config: {},
    forkOf: { id: "ppo-1", step },
  });
  const runs = [src, fork("ppo-2", 2), fork("ppo-10", 3)];
  const s = useLab.getState();
  s.setSpec({ task: "arithmetic", model: "nano", seed: 0, runs });
  s.restoreRuns(
    runs.map((spec) => ({
      spec,
      status: "paused",
      step: 5,
      history: [],
      markers: [],
      samples: [],
      error: null,
    })),
  );
  s.applyUpdates(
    ["ppo-10", "ppo-2"].map((runId) => ({ runId, status: "ready", step: 0, points: [], rewindTo: 0 })),
  );
  const worker = restartedSpecs(runs);
  const page = useLab.getState().spec.runs;
  expect(page.map((r) => [r.id, r.label])).toEqual(worker.map((r) => [r.id, r.label]));
  expect(page.find((r) => r.id === "ppo-2")?.label).toBe("PPO 2");
});
