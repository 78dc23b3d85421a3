/**
 * A run's checkpoint export (export_run.ts) is named by the step its weights hold: a reviewer exported during a
 * lost device's recovery and got "…-step1.safetensors" holding the step-0 weights, with nothing said.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { encodeSafetensors } from "../../model/safetensors";
import { useLab } from "../lab_store";

const downloads: string[] = [];
vi.mock("../../lab/export/download", () => ({
  MIME: { safetensors: "application/octet-stream" },
  downloadBlob: (_: unknown, name: string) => downloads.push(name),
}));
const { exportRun } = await import("./export_run");

const weightsAt = (steps: number) =>
  encodeSafetensors([{ name: "w", shape: [1], data: new Float32Array([1]) }], { steps: String(steps) });

describe("exporting a run's checkpoint", () => {
  beforeEach(() => {
    downloads.length = 0;
    useLab.getState().setNotice(null);
  });

  it("names it by the step its weights hold, and says so when the run went back meanwhile", async () => {
    useLab.getState().upsertRun({ id: "ppo-1", algo: "ppo", label: "PPO", config: {} });
    const id = "ppo-1";
    const label = "PPO";
    useLab.setState((s) => ({ runs: { ...s.runs, [id]: { ...s.runs[id], step: 1 } } }));
    await exportRun(id, "checkpoint", {
      exportCheckpoint: async () => weightsAt(0),
      exportPolicyOnnx: vi.fn(),
    });
    expect(downloads[0]).toMatch(/-step0\.safetensors$/);
    expect(useLab.getState().notice).toBe(
      `${label}'s checkpoint holds step 0, not 1: the run went back to its last checkpoint meanwhile (the GPU device was lost, or Back to its last checkpoint).`,
    );
    // A step ahead of the page (playing): named by the weights, nothing to say.
    useLab.getState().setNotice(null);
    await exportRun(id, "checkpoint", {
      exportCheckpoint: async () => weightsAt(2),
      exportPolicyOnnx: vi.fn(),
    });
    expect(downloads[1]).toMatch(/-step2\.safetensors$/);
    expect(useLab.getState().notice).toBeNull();
  });
});
