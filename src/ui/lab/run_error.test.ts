/**
 * What a run card offers for its error (./run_error.ts), from the worker's updates: a device gone for good
 * offers a reload, not "Back to its last checkpoint"; out of GPU memory advises a smaller step, not a lower
 * learning rate; a run without weights (it could not start) says why its checkpoint and ONNX are unavailable.
 */
import { describe, expect, it } from "vitest";
import type { RunSpec, RunUpdate } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { noWeightsReason, reloadOnly, restartHint, rewindTitle } from "./run_error";

const spec: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };

function withError(u: Partial<RunUpdate>) {
  useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [spec] });
  useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 0, points: [] }]);
  useLab.getState().applyUpdates([{ runId: "ppo-1", status: "error", step: 0, points: [], ...u }]);
  return useLab.getState().runs["ppo-1"];
}

describe("a run card's error", () => {
  it("the device gone for good: a reload, not going back to a checkpoint", () => {
    const run = withError({
      error: "The GPU device was lost, and no GPU device could be had again (x). Reload the page to retry.",
      errorKind: "device-gone",
    });
    expect(reloadOnly(run)).toBe(true);
    expect(reloadOnly(withError({ error: "loss became NaN at step 2; the run was stopped" }))).toBe(false);
  });

  it("out of GPU memory: a smaller step, not a lower learning rate", () => {
    const run = withError({
      error: "step 3 failed: the GPU ran out of memory on this step.",
      errorKind: "gpu-memory",
    });
    expect(rewindTitle(run.errorKind)).not.toMatch(/learning rate/);
    expect(rewindTitle(run.errorKind)).toMatch(/fewer prompts per step/);
    expect(rewindTitle(withError({ error: "internal", errorKind: "gpu-internal" }).errorKind)).not.toMatch(
      /learning rate/,
    );
    expect(rewindTitle(undefined)).toMatch(/a lower learning rate/);
  });

  it("could not start: no 'Back to its last checkpoint', a change of its settings instead", () => {
    const run = withError({
      error: "Big GRPO could not start: a batch of 16384 sequences … needs 8192.6 MiB",
      errorKind: "could-not-start",
      noWeights: true,
    });
    expect(restartHint(run)?.text).toMatch(
      /^Change its settings \(e\.g\. fewer prompts per step\): the run starts again/,
    );
    expect(restartHint(run)?.title).not.toMatch(/learning rate/);
    expect(reloadOnly(run)).toBe(false);
    expect(restartHint(withError({ error: "loss became NaN at step 2; the run was stopped" }))).toBeNull();
  });

  it("a run without weights says why its checkpoint and ONNX are unavailable", () => {
    const run = withError({ error: "PPO could not start: its prompts do not fit", noWeights: true });
    expect(noWeightsReason(run)).toMatch(/^This run has no weights now/);
    // The mark stays with the error through updates that do not repeat it, and goes with it.
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "error", step: 0, points: [] }]);
    expect(useLab.getState().runs["ppo-1"].noWeights).toBe(true);
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "ready", step: 0, points: [] }]);
    expect(noWeightsReason(useLab.getState().runs["ppo-1"])).toBeNull();
    expect(
      noWeightsReason(withError({ error: "loss became NaN at step 2; the run was stopped" })),
    ).toBeNull();
  });
});
