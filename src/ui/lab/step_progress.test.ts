/** A run card's line on a slow step in flight: its text, its bar, and how the store keeps and clears it. */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { applyRunUpdates } from "../apply_updates";
import { type ShownProgress, useLab } from "../lab_store";
import { elapsedText, progressFraction, progressText } from "./step_progress";

const spec: RunSpec = { id: "grpo", algo: "grpo", label: "GRPO", config: {} };
const point = (step: number) => ({ step, samples: step, tokens: step, metrics: { reward: step } });
const progressOf = () => useLab.getState().stepProgress.grpo;

describe("step progress", () => {
  it("reads as the stage and its count (the update running now, 1-based)", () => {
    expect(progressText({ stage: "sampling", done: 16, total: 48 })).toBe("sampling 16/48 tokens");
    expect(progressText({ stage: "scoring", done: 0, total: 0 })).toBe("scoring");
    expect(progressText({ stage: "baseline", done: 8, total: 48 })).toBe("greedy baseline 8/48 tokens");
    expect(progressText({ stage: "update", done: 0, total: 4 })).toBe("update 1/4");
    expect(progressText({ stage: "update", done: 3, total: 4 })).toBe("update 4/4");
    expect(progressText({ stage: "update", done: 0, total: 1 })).toBe("updating");
    expect(progressFraction({ stage: "sampling", done: 16, total: 48 })).toBeCloseTo(1 / 3, 12);
    expect(progressFraction({ stage: "scoring", done: 0, total: 0 })).toBeNull();
    expect(progressFraction({ stage: "update", done: 0, total: 1 })).toBeNull();
    expect(progressFraction({ stage: "update", done: 2, total: 4 })).toBe(0.5);
  });

  it("times the step from when it began, as the worker measured it", () => {
    expect([0, 999, 4000, 59_999, 60_000, 65_400, 720_000].map(elapsedText)).toEqual([
      "0 s",
      "0 s",
      "4 s",
      "59 s",
      "1 min 00 s",
      "1 min 05 s",
      "12 min 00 s",
    ]);
    const runs = {
      grpo: {
        spec,
        status: "finishing" as const,
        step: 0,
        history: [],
        markers: [],
        samples: [],
        error: null,
      },
    };
    const s0 = {
      runs,
      spec: { task: "arithmetic" as const, model: "nano" as const, seed: 0, runs: [spec] },
      stepProgress: {} as Record<string, ShownProgress>,
    };
    const at = (stage: "sampling" | "scoring", elapsedMs: number) => ({
      runId: "grpo",
      status: "finishing" as const,
      step: 0,
      points: [],
      progress: { stage, done: 0, total: stage === "sampling" ? 16 : 0, elapsedMs },
    });
    // The step began 1.2 s before the first report reached the page (at t = 10 000).
    const s1 = { ...s0, ...applyRunUpdates(s0, [at("sampling", 1200)], 10_000) };
    expect(s1.stepProgress.grpo?.since).toBe(8800);
    // A later report, delivered late, does not move the start (the count would jump).
    const s2 = { ...s1, ...applyRunUpdates(s1, [at("scoring", 5000)], 14_300) };
    expect(s2.stepProgress.grpo).toEqual({ stage: "scoring", done: 0, total: 0, step: 0, since: 8800 });
    // The next step is timed from its own start.
    const s3 = { ...s2, ...applyRunUpdates(s2, [{ ...at("sampling", 0), progress: null }], 15_000) };
    const s4 = { ...s3, ...applyRunUpdates(s3, [at("sampling", 1000)], 16_500) };
    expect(s4.stepProgress.grpo?.since).toBe(15_500);
    // The worker's null for a step can be replaced by the next step's first report (sent before the page read
    // the null): that report comes with the landed step's point and a new step count, and is timed anew.
    const next = {
      ...at("sampling", 1000),
      step: 1,
      points: [{ step: 1, samples: 8, tokens: 40, metrics: { reward: 0.5 } }],
    };
    const s5 = { ...s4, ...applyRunUpdates(s4, [next], 90_000) };
    expect(s5.stepProgress.grpo).toMatchObject({ step: 1, since: 89_000 });
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
        progress: { stage: "sampling", done: 8, total: 16, elapsedMs: 1000 },
      },
    ]);
    expect(progressOf()).toEqual({
      stage: "sampling",
      done: 8,
      total: 16,
      step: 0,
      since: expect.any(Number),
    });
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
        progress: { stage: "update", done: 1, total: 2, elapsedMs: 1000 },
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
        progress: { stage: "scoring", done: 0, total: 0, elapsedMs: 1000 },
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
        progress: { stage: "sampling", done: 8, total: 16, elapsedMs: 1000 },
      },
    ]);
    apply([
      {
        runId: "grpo",
        status: "finishing",
        step: 0,
        points: [],
        progress: { stage: "scoring", done: 0, total: 0, elapsedMs: 1000 },
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
