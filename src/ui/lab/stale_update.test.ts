/**
 * A run restored after a reload (step 2, its curves) is not put back to step 0 by the worker's first update,
 * sent when the run was added and before its checkpoint resumed it; a rewind (Reset, a lost device) still is,
 * and so is any update once the run has resumed, or to a run that is not resuming (a new run under a reused id).
 */

import { describe, expect, it } from "vitest";
import type { RunSpec, RunUpdate } from "../../lab/protocol";
import { useLab } from "../lab_store";

const spec: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
const point = (step: number) => ({ step, samples: step, tokens: step, metrics: { reward: step } });

function restored(resuming = true) {
  useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [spec] });
  useLab.getState().restoreRuns([
    {
      spec,
      status: "paused",
      step: 2,
      history: [point(1), point(2)],
      markers: [],
      samples: [],
      error: null,
      ...(resuming && { resuming: true, resumedAt: 2 }),
    },
  ]);
}

describe("an update from before a restore", () => {
  it("leaves the restored step and curves alone", () => {
    restored();
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "ready", step: 0, points: [] }]);
    expect(useLab.getState().runs["ppo-1"]).toMatchObject({ step: 2, status: "paused" });
    // The resume's own update (its rewind to the checkpoint's step), and the steps after it, land as usual.
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 2, points: [], rewindTo: 2 }]);
    expect(useLab.getState().runs["ppo-1"].resuming).toBeUndefined();
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 3, points: [point(3)] }]);
    expect(useLab.getState().runs["ppo-1"].history.map((p) => p.step)).toEqual([1, 2, 3]);
  });

  it("only while the run resumes", () => {
    restored(false);
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "ready", step: 0, points: [] }]);
    expect(useLab.getState().runs["ppo-1"]).toMatchObject({ step: 0, status: "ready" });
  });

  it("but a rewind or an error still lands", () => {
    restored();
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "ready", step: 0, points: [], rewindTo: 0 }]);
    expect(useLab.getState().runs["ppo-1"]).toMatchObject({ step: 0, status: "ready", history: [] });
    restored();
    useLab
      .getState()
      .applyUpdates([{ runId: "ppo-1", status: "error", step: 0, points: [], error: "could not start" }]);
    expect(useLab.getState().runs["ppo-1"]).toMatchObject({ status: "error", error: "could not start" });
    expect(useLab.getState().runs["ppo-1"].retryable).toBeUndefined();
  });

  it("a retryable error stays retryable until the error goes", () => {
    restored(false);
    const apply = (u: Partial<RunUpdate>) =>
      useLab.getState().applyUpdates([{ runId: "ppo-1", status: "error", step: 0, points: [], ...u }]);
    apply({ error: "step 1 failed: the reward model took longer than 20 s", retryable: true });
    expect(useLab.getState().runs["ppo-1"].retryable).toBe(true);
    apply({}); // another update of the run in error, without the error's text
    expect(useLab.getState().runs["ppo-1"].retryable).toBe(true);
    apply({ status: "paused" });
    expect(useLab.getState().runs["ppo-1"]).toMatchObject({ error: null, retryable: undefined });
  });
});
