/**
 * A worker update that rewinds a run: the markers of the undone steps go; back at step 0 (a run rebuilt from the
 * start model after a lost GPU, or Reset) nothing of the old run stays, and a fork is a fork of nothing, named as
 * the worker names it (run_labels.ts restartedRun).
 */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { restartedRun, restartedSpecs } from "../../lab/run_labels";
import { useLab } from "../lab_store";

const a: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
const b: RunSpec = {
  id: "ppo-2",
  algo: "ppo",
  label: "PPO (fork @ 2)",
  config: {},
  forkOf: { id: "ppo-1", step: 2 },
};
const c: RunSpec = {
  id: "ppo-3",
  algo: "ppo",
  label: "PPO (fork @ 4)",
  config: {},
  forkOf: { id: "ppo-2", step: 4 },
};
const point = (step: number) => ({ step, samples: step, tokens: step, metrics: { reward: step } });
const marker = (runId: string, step: number) => ({ runId, step, label: `β → ${step}` });

function lab() {
  const s = useLab.getState();
  s.setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [a, b, c] });
  s.restoreRuns(
    [a, b, c].map((spec) => ({
      spec,
      status: "error",
      step: 5,
      history: [1, 2, 3, 4, 5].map(point),
      markers: [marker(spec.id, 1), marker(spec.id, 3), marker(spec.id, 5)],
      samples: [{ prompt: "1+1=", completion: [], reward: 1, gold: 1 }],
      error: "the GPU device was lost",
    })),
  );
}

describe("a rewind from the worker", () => {
  it("to step N > 0 keeps the markers up to N", () => {
    lab();
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 3, points: [], rewindTo: 3 }]);
    const r = useLab.getState().runs["ppo-1"];
    expect(r.markers.map((m) => m.step)).toEqual([1, 3]);
    expect(r.history.map((p) => p.step)).toEqual([1, 2, 3]);
    expect(r.samples).toHaveLength(1);
  });

  it("to step 0: a fork starts over as a fork of nothing; its forks become forks of its source", () => {
    lab();
    useLab.getState().setRunConfig("ppo-2", { beta: 0.3 });
    useLab.getState().applyUpdates([{ runId: "ppo-2", status: "ready", step: 0, points: [], rewindTo: 0 }]);
    const s = useLab.getState();
    const r = s.runs["ppo-2"];
    expect(r).toMatchObject({ step: 0, history: [], markers: [], samples: [], error: null });
    expect(r.untrained).toBeUndefined();
    expect(r.spec).toMatchObject({ label: "PPO 2" });
    expect(r.spec.forkOf).toBeUndefined();
    expect(s.spec.runs.find((x) => x.id === "ppo-2")).toBe(r.spec);
    // ppo-3 branched off ppo-2 at 4, whose first 2 steps were ppo-1's: now a fork of ppo-1 at 2.
    expect(s.runs["ppo-3"].spec.forkOf).toEqual({ id: "ppo-1", step: 2 });
    expect(s.runs["ppo-1"].spec).toBe(a);
  });

  it("names restarted forks in id order, as a Reset's restartedSpecs does", () => {
    const runs = [a, { ...c, forkOf: { id: "ppo-1", step: 4 } }, b];
    let specs = runs;
    for (const id of ["ppo-2", "ppo-3"]) specs = restartedRun(specs, id);
    expect(specs.map((r) => r.label)).toEqual(["PPO", "PPO 3", "PPO 2"]);
    expect(specs.map((r) => r.label)).toEqual(restartedSpecs(runs).map((r) => r.label));
  });
});
