/**
 * A run's checkpoint export (export_run.ts) is named by the step its weights hold: a reviewer exported during a
 * lost device's recovery and got "…-step1.safetensors" holding the step-0 weights, with nothing said.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { encodeSafetensors } from "../../model/safetensors";
import { useLab } from "../lab_store";

const downloads: string[] = [];
const bodies: unknown[] = [];
vi.mock("../../lab/export/download", () => ({
  MIME: { safetensors: "application/octet-stream", csv: "text/csv" },
  downloadBlob: (body: unknown, name: string) => {
    downloads.push(name);
    bodies.push(body);
  },
}));
const { exportRun } = await import("./export_run");

const weightsAt = (steps: number) =>
  encodeSafetensors([{ name: "w", shape: [1], data: new Float32Array([1]) }], { steps: String(steps) });

describe("exporting a run's checkpoint", () => {
  beforeEach(() => {
    downloads.length = 0;
    bodies.length = 0;
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

describe("exporting metrics", () => {
  const worker = { exportCheckpoint: vi.fn(), exportPolicyOnnx: vi.fn() };
  const point = (step: number) => ({ step, samples: step, tokens: step, metrics: { reward: step } });

  it("names a run's CSV with the seed, and writes every run's rows into the all-runs CSV", async () => {
    downloads.length = 0;
    bodies.length = 0;
    useLab.getState().upsertRun({ id: "grpo-9", algo: "grpo", label: "GRPO", config: {} });
    useLab.setState((s) => ({
      spec: { ...s.spec, seed: 5 },
      runs: {
        ...s.runs,
        "ppo-1": { ...s.runs["ppo-1"], step: 2, history: [point(1), point(2)] },
        "grpo-9": { ...s.runs["grpo-9"], step: 1, history: [point(1)] },
      },
    }));
    const { spec } = useLab.getState();
    await exportRun("ppo-1", "csv", worker);
    expect(downloads[0]).toBe(`ppo-${spec.task}-seed5-step2.csv`);
    await exportRun("ppo-1", "all", worker);
    expect(downloads[1]).toBe(`${spec.task}-seed5-all-runs-step2.csv`);
    const lines = String(bodies[1]).trim().split("\n");
    expect(lines[0]).toBe("run,label,algorithm,seed,step,samples,tokens,reward,settings_changed");
    const steps = spec.runs.reduce((n, r) => n + useLab.getState().runs[r.id].history.length, 0);
    expect(lines).toHaveLength(1 + steps);
    expect(lines.filter((l) => l.startsWith("grpo-9,GRPO,grpo,5,1,"))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("ppo-1,PPO,ppo,5,"))).toHaveLength(2);
  });
});
