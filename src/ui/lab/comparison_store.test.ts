import { beforeEach, describe, expect, it } from "vitest";
import { defaultExperiment } from "../../lab/defaults";
import type { MetricPoint } from "../../lab/protocol";
import { trainedSteps, useLab } from "../lab_store";

const points = (n: number): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, samples: 8, tokens: 80, metrics: { reward: i } }));

describe("a run imported for comparison in the lab store", () => {
  beforeEach(() => {
    const lab = useLab.getState();
    lab.setSpec(defaultExperiment());
    const spec = { ...defaultExperiment().runs[0], id: "ppo-2", label: "PPO (imported)" };
    lab.upsertRun(spec);
    lab.restoreRuns([
      {
        spec,
        status: "paused",
        step: 40,
        history: points(40),
        markers: [],
        samples: [],
        error: null,
        comparison: true,
      },
    ]);
    lab.applyUpdates([{ runId: "ppo-1", status: "paused", step: 3, points: points(3) }]);
  });

  it("does not count as training: the steps a new experiment or a lesson replaces are the trained runs'", () => {
    expect(trainedSteps(useLab.getState())).toBe(3);
  });

  it("keeps its curves on Reset, which restarts the runs the worker trains", () => {
    useLab.getState().clearProgress();
    const s = useLab.getState();
    expect(s.runs["ppo-1"].history).toHaveLength(0);
    expect(s.runs["ppo-2"].history).toHaveLength(40);
    expect(s.runs["ppo-2"].comparison).toBe(true);
    expect(trainedSteps(s)).toBe(0);
  });
});
