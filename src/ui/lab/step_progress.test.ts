/** A run card's line on a slow step in flight: its text, its bar, and how the store keeps and clears it. */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { progressFraction, progressText } from "./step_progress";

const spec: RunSpec = { id: "grpo", algo: "grpo", label: "GRPO", config: {} };
const point = (step: number) => ({ step, samples: step, tokens: step, metrics: { reward: step } });
const progressOf = () => useLab.getState().stepProgress.grpo;

describe("step progress", () => {
  it("reads as the stage and its count (the update running now, 1-based)", () => {
    expect(progressText({ stage: "sampling", done: 16, total: 48 })).toBe("sampling 16/48 tokens");
    expect(progressText({ stage: "scoring", done: 0, total: 0 })).toBe("scoring");
    expect(progressText({ stage: "update", done: 0, total: 4 })).toBe("update 1/4");
    expect(progressText({ stage: "update", done: 3, total: 4 })).toBe("update 4/4");
    expect(progressText({ stage: "update", done: 0, total: 1 })).toBe("updating");
    expect(progressFraction({ stage: "sampling", done: 16, total: 48 })).toBeCloseTo(1 / 3, 12);
    expect(progressFraction({ stage: "scoring", done: 0, total: 0 })).toBeNull();
    expect(progressFraction({ stage: "update", done: 0, total: 1 })).toBeNull();
    expect(progressFraction({ stage: "update", done: 2, total: 4 })).toBe(0.5);
  });

  it("the store keeps it while the step is in flight and drops it when the step lands, fails or pauses", () => {
    useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [spec] });
    const apply = useLab.getState().applyUpdates;
    apply([
      {
        runId: "grpo",
        status: "finishing",
        step: 0,
        points: [],
        progress: { stage: "sampling", done: 8, total: 16 },
      },
    ]);
    expect(progressOf()).toEqual({ stage: "sampling", done: 8, total: 16 });
    // An update without the field (another change, e.g. a marker) keeps it.
    apply([{ runId: "grpo", status: "finishing", step: 0, points: [] }]);
    expect(progressOf()?.done).toBe(8);
    // The step lands: the worker's null goes with its point.
    apply([{ runId: "grpo", status: "paused", step: 1, points: [point(1)], progress: null }]);
    expect(progressOf()).toBeUndefined();
    // Playing: kept between updates; a status that cannot have a step in flight drops it even without the null.
    apply([
      {
        runId: "grpo",
        status: "running",
        step: 1,
        points: [],
        progress: { stage: "update", done: 1, total: 2 },
      },
    ]);
    apply([{ runId: "grpo", status: "running", step: 1, points: [] }]);
    expect(progressOf()?.stage).toBe("update");
    apply([{ runId: "grpo", status: "error", step: 1, points: [], error: "step 2: loss is NaN" }]);
    expect(progressOf()).toBeUndefined();
    apply([
      {
        runId: "grpo",
        status: "finishing",
        step: 1,
        points: [],
        progress: { stage: "scoring", done: 0, total: 0 },
      },
    ]);
    apply([{ runId: "grpo", status: "paused", step: 1, points: [] }]); // paused without the worker's null
    expect(progressOf()).toBeUndefined();
  });

  it("a progress-only update leaves the runs (and so every chart) untouched", () => {
    useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [spec] });
    const apply = useLab.getState().applyUpdates;
    apply([{ runId: "grpo", status: "finishing", step: 0, points: [] }]);
    const runs = useLab.getState().runs;
    const specs = useLab.getState().spec;
    apply([
      {
        runId: "grpo",
        status: "finishing",
        step: 0,
        points: [],
        progress: { stage: "sampling", done: 8, total: 16 },
      },
    ]);
    apply([
      {
        runId: "grpo",
        status: "finishing",
        step: 0,
        points: [],
        progress: { stage: "scoring", done: 0, total: 0 },
      },
    ]);
    expect(useLab.getState().runs).toBe(runs);
    expect(useLab.getState().spec).toBe(specs);
    expect(progressOf()?.stage).toBe("scoring");
    // The step lands with the worker's null: the run changes, the progress goes.
    apply([{ runId: "grpo", status: "paused", step: 1, points: [point(1)], progress: null }]);
    expect(useLab.getState().runs).not.toBe(runs);
    expect(useLab.getState().stepProgress).toEqual({});
  });
});
