/**
 * A run's checkpoint export (export_run.ts) is named by the step its weights hold: a reviewer exported during a
 * lost device's recovery and got "…-step1.safetensors" holding the step-0 weights, with nothing said.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { LAB_BUILD } from "../../lab/build_info";
import { runFileJson } from "../../lab/export/run_file";
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
const { importRunFiles } = await import("./import_run");

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
    // After the task: the start model, and the one setting that differs among the runs having it (PPO's β
    // and GRPO's defaults differ; every other shared setting is one value).
    expect(lines[0]).toBe(
      "run,label,algorithm,seed,task,model,setting/beta,step,samples,tokens,reward,settings_changed",
    );
    const steps = spec.runs.reduce((n, r) => n + useLab.getState().runs[r.id].history.length, 0);
    expect(lines).toHaveLength(1 + steps);
    const at = (l: string, c: string) => l.split(",")[lines[0].split(",").indexOf(c)];
    const grpo = lines.filter((l) => l.startsWith(`grpo-9,GRPO,grpo,5,${spec.task},${spec.model},`));
    expect(grpo.map((l) => at(l, "step"))).toEqual(["1"]);
    expect(lines.filter((l) => l.startsWith(`ppo-1,PPO,ppo,5,${spec.task},${spec.model},`))).toHaveLength(2);
  });
});

describe("exporting a run imported for comparison", () => {
  const worker = { exportCheckpoint: vi.fn(), exportPolicyOnnx: vi.fn() };
  const point = (step: number) => ({ step, samples: step, tokens: step, metrics: { reward: step } });
  // Another lab's export of seed 1 (a reviewer trained seed 0 here and imported seeds 1 and 2: every row said 0).
  const sha = "a".repeat(64);
  const theirs = { version: "0.0.9", commit: "abc1234" };
  const seed1 = () => {
    const { spec } = useLab.getState();
    const run = {
      spec: { id: "ppo-7", algo: "ppo" as const, label: "PPO", config: {} },
      status: "paused" as const,
    };
    const file = JSON.parse(
      runFileJson({ ...spec, seed: 1 }, { ...run, step: 2, history: [point(1), point(2)], markers: [] }),
    );
    const models = { start: { path: `models/${spec.task}/sft.safetensors`, sha256: sha }, reward: null };
    const text = JSON.stringify({ ...file, lab: theirs, models, exportedAt: "2026-12-31T00:00:00.000Z" });
    return { name: "seed1.run.json", text: async () => text, arrayBuffer: async () => new ArrayBuffer(0) };
  };

  it("writes its own seed and task in the all-runs CSV, and keeps its own lab and models in run.json and config.json", async () => {
    useLab.setState((s) => ({ spec: { ...s.spec, seed: 0 } }));
    await importRunFiles([seed1()]);
    const { spec, runs } = useLab.getState();
    const id = spec.runs.at(-1)?.id ?? "";
    expect(runs[id].comparison).toBe(true);
    downloads.length = 0;
    bodies.length = 0;
    await exportRun(id, "all", worker);
    const rows = String(bodies[0]).trim().split("\n");
    // Labelled with its seed, which is not this lab's (a comma in it: the CSV quotes the label).
    expect(
      rows.filter((l) => l.startsWith(`${id},"PPO (imported, seed 1)",ppo,1,${spec.task},`)),
    ).toHaveLength(2);
    expect(rows.filter((l) => l.startsWith(`ppo-1,PPO,ppo,0,${spec.task},`)).length).toBeGreaterThan(0);
    for (const kind of ["json", "config"] as const) {
      await exportRun(id, kind, worker);
      const f = JSON.parse(String(bodies.at(-1)));
      expect(f.lab, kind).toEqual(theirs);
      expect(f.models.start.sha256, kind).toBe(sha);
      expect(f.exportedAt, kind).toBe("2026-12-31T00:00:00.000Z");
      expect(f.importedInto, kind).toMatchObject({ version: LAB_BUILD.version, commit: LAB_BUILD.commit });
      expect(kind === "json" ? f.experiment.seed : f.seed, kind).toBe(1);
    }
    expect(downloads.at(-1)).toBe(`ppo-imported-seed-1-${spec.task}-seed1-step2.config.json`);
  });

  it("leaves the seed and task empty for a comparison run whose origin is not known (saved before it was kept)", async () => {
    const { spec, runs } = useLab.getState();
    const id = spec.runs.at(-1)?.id ?? "";
    useLab.setState({ runs: { ...runs, [id]: { ...runs[id], origin: undefined } } });
    bodies.length = 0;
    await exportRun(id, "all", worker);
    const rows = String(bodies[0]).trim().split("\n");
    expect(rows.filter((l) => l.startsWith(`${id},"PPO (imported, seed 1)",ppo,,,`))).toHaveLength(2);
  });
});
