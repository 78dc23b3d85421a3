import "fake-indexeddb/auto";
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { CHUNK, openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec, MetricPoint, RunUpdate } from "../../src/lab/protocol";
import { planRestore } from "../../src/lab/restore";
import { PRESETS } from "../../src/model/config";
import { useLab } from "../../src/ui/lab_store";

let dbCount = 0;
const freshDb = () => openLabPersistence(`lab-test-${dbCount++}`);

/** n metric points from step `from`, with TRL metric names. */
function points(from: number, n: number): MetricPoint[] {
  return Array.from({ length: n }, (_, i) => {
    const step = from + i;
    return {
      step,
      samples: step * 8,
      tokens: step * 100,
      metrics: { reward: step / 10, "objective/kl": 0.01 * step },
    };
  });
}

const update = (runId: string, from: number, n: number, extra: Partial<RunUpdate> = {}): RunUpdate => ({
  runId,
  status: "running",
  step: from + n - 1,
  points: points(from, n),
  ...extra,
});

/** A fresh database and the lab store on the default experiment, paused; ckStep reads a run's saved checkpoint step. */
async function pausedLab() {
  const db = await freshDb();
  const lab = useLab.getState();
  lab.setSpec(defaultExperiment());
  lab.setPlaying(false);
  const ckStep = async (id: string) =>
    (await db.load())?.runs.find((r) => r.spec.id === id)?.checkpoint?.step ?? 0;
  return { db, lab, ckStep };
}

describe("IndexedDB persistence", () => {
  it("opens a version-1 database (before the Pipeline was saved) with its session intact", async () => {
    const name = `lab-test-${dbCount++}`;
    const v1 = await openDB(name, 1, {
      upgrade(d) {
        d.createObjectStore("meta");
        d.createObjectStore("runs", { keyPath: "id" });
        d.createObjectStore("history", { keyPath: ["runId", "chunk"] });
        d.createObjectStore("checkpoints", { keyPath: "runId" });
      },
    });
    const spec = { ...defaultExperiment(), seed: 4 };
    await v1.put("meta", { spec, savedAt: 1 }, "experiment");
    v1.close();
    const db = await openLabPersistence(name);
    expect((await db.load())?.spec).toEqual(spec);
    expect(await db.loadPipeline()).toBeNull();
    const models = {
      task: spec.task,
      size: "nano" as const,
      config: { ...PRESETS.nano, vocabSize: 8 },
      sft: { steps: 2, params: new Float32Array([0.5, -1]) },
      rm: null,
      handed: null,
    };
    await db.savePipeline({ models, view: { note: 1 } });
    const back = await db.loadPipeline();
    expect(Array.from(back?.models.sft?.params ?? [])).toEqual([0.5, -1]);
    expect(back?.view).toEqual({ note: 1 });
    await db.clear();
    expect(await db.loadPipeline()).toBeNull();
    db.close();
  });

  it("saves and loads runs with chunked history, markers and checkpoints", async () => {
    const db = await freshDb();
    const spec = defaultExperiment();
    await db.saveExperiment(spec);
    const history = points(1, 2 * CHUNK + 50);
    const markers = [{ runId: "ppo-1", step: 40, label: "β 0.05 → 0" }];
    await db.saveRun({ spec: spec.runs[0], status: "paused", step: history.length, history, markers });
    await db.saveRun({ spec: spec.runs[2], status: "ready", step: 0, history: [], markers: [] });
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
    await db.saveCheckpoint("ppo-1", bytes, { step: 300, samples: 2400, tokens: 30000 });
    const s = await db.load();
    expect(s?.spec).toEqual(spec);
    expect(s?.runs.map((r) => r.spec.id)).toEqual(["ppo-1", "grpo-1"]);
    expect(s?.runs[0].history).toEqual(history);
    expect(s?.runs[0].markers).toEqual(markers);
    expect(s?.runs[0].status).toBe("paused");
    expect(s?.runs[0].checkpoint?.step).toBe(300);
    expect(Array.from(s?.runs[0].checkpoint?.bytes ?? [])).toEqual(Array.from(bytes));
    expect(s?.runs[1].checkpoint).toBeNull();

    // Incremental save (only the last chunk is rewritten), then a shorter history (reset) drops old chunks.
    const longer = [...history, ...points(history.length + 1, 10)];
    await db.saveRun(
      { spec: spec.runs[0], status: "running", step: longer.length, history: longer, markers },
      history.length,
    );
    expect((await db.load())?.runs[0].history).toEqual(longer);
    await db.saveRun({ spec: spec.runs[0], status: "ready", step: 3, history: points(1, 3), markers: [] });
    expect((await db.load())?.runs[0].history).toEqual(points(1, 3));

    await db.deleteRun("ppo-1");
    expect((await db.load())?.runs.map((r) => r.spec.id)).toEqual(["grpo-1"]);
    await db.clear();
    expect(await db.load()).toBeNull();
    db.close();
  });

  it("autosaves the lab store: history as it grows, a checkpoint on pause, resets and removals", async () => {
    const db = await freshDb();
    const lab = useLab.getState();
    lab.setSpec({ ...defaultExperiment(), model: "nano" });
    const exported: string[] = [];
    const errors: string[] = [];
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async (id) => {
        exported.push(id);
        return new Uint8Array([1, 2, 3, exported.length]);
      },
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
      onError: (m) => errors.push(m),
    });
    lab.setPlaying(true);
    lab.applyUpdates([update("ppo-1", 1, 5), update("dpo-1", 1, 3)]);
    await saver.flush();
    let s = await db.load();
    expect(s?.spec.model).toBe("nano");
    expect(s?.runs.find((r) => r.spec.id === "ppo-1")?.history).toHaveLength(5);

    lab.applyUpdates([
      update("ppo-1", 6, 2, { markers: [{ runId: "ppo-1", step: 6, label: "lr 1e-4 → 3e-4" }] }),
    ]);
    lab.setPlaying(false); // pause → flush + checkpoint of every run that stepped
    await saver.checkpoint();
    s = await db.load();
    const ppo = s?.runs.find((r) => r.spec.id === "ppo-1");
    expect(ppo?.history.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(ppo?.markers).toHaveLength(1);
    expect(ppo?.checkpoint?.step).toBe(7);
    expect(ppo?.checkpoint?.tokens).toBe(700);
    expect(new Set(exported)).toEqual(new Set(["ppo-1", "dpo-1"]));
    const before = exported.length;
    await saver.checkpoint(); // nothing stepped: no new export
    expect(exported.length).toBe(before);

    lab.clearProgress(); // reset: histories and checkpoints go
    lab.removeRun("grpo-1");
    await saver.flush();
    s = await db.load();
    expect(s?.runs.map((r) => r.spec.id)).toEqual(["ppo-1", "dpo-1"]);
    expect(s?.runs.every((r) => r.history.length === 0 && r.checkpoint === null)).toBe(true);
    expect(s?.spec.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1"]);
    expect(errors).toEqual([]);
    saver.stop();
    db.close();
  });

  it("checkpoints a run's first step and steps taken while not playing; while playing, the timer's", async () => {
    const { db, lab, ckStep } = await pausedLab();
    const exported: string[] = [];
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async (id) => {
        exported.push(id);
        return new Uint8Array([1]);
      },
      historyEveryMs: 20,
      checkpointEveryMs: 60_000,
    });
    lab.applyUpdates([update("ppo-1", 1, 1, { status: "paused" })]);
    await expect.poll(() => ckStep("ppo-1")).toBe(1);
    lab.applyUpdates([update("ppo-1", 2, 1, { status: "paused" })]);
    await expect.poll(() => ckStep("ppo-1")).toBe(2);
    lab.setPlaying(true); // while playing, later steps wait for the 30 s timer
    lab.applyUpdates([update("ppo-1", 3, 1)]);
    await new Promise((r) => setTimeout(r, 150));
    await saver.flush();
    expect(await ckStep("ppo-1")).toBe(2);
    expect(exported).toEqual(["ppo-1", "ppo-1"]);
    saver.stop();
    db.close();
  });

  it("checkpoints a step taken while not playing at once, without waiting for a tick", async () => {
    const { db, lab, ckStep } = await pausedLab();
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async () => new Uint8Array([1]),
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
    });
    lab.applyUpdates([update("ppo-1", 1, 1, { status: "paused" })]);
    await expect.poll(() => ckStep("ppo-1"), { timeout: 2000 }).toBe(1);
    lab.applyUpdates([update("ppo-1", 2, 2, { status: "paused" })]);
    await expect.poll(() => ckStep("ppo-1"), { timeout: 2000 }).toBe(3);
    // The curves saved with it reach the checkpoint's step, so a reload now loses nothing.
    const saved = (await db.load())?.runs.find((r) => r.spec.id === "ppo-1");
    expect(saved?.history.at(-1)?.step).toBe(3);
    saver.stop();
    db.close();
  });

  it("saves the curves again after a checkpoint whose step landed during the export", async () => {
    const db = await freshDb();
    const lab = useLab.getState();
    lab.setSpec(defaultExperiment());
    lab.setPlaying(false);
    // The run's step-1 point arrives while its checkpoint is being exported (after the pre-export flush).
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async (id) => {
        if (id === "ppo-1") lab.applyUpdates([update("dpo-1", 1, 1, { status: "paused" })]);
        return new Uint8Array([1]);
      },
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
    });
    lab.applyUpdates([update("ppo-1", 1, 1, { status: "paused" })]);
    await saver.checkpoint();
    const saved = (await db.load())?.runs.find((r) => r.spec.id === "ppo-1");
    expect(saved?.checkpoint?.step).toBe(1);
    expect(saved?.history.map((p) => p.step)).toEqual([1]);
    const dpo = (await db.load())?.runs.find((r) => r.spec.id === "dpo-1");
    expect(dpo?.history.map((p) => p.step)).toEqual([1]);
    saver.stop();
    db.close();
  });

  it("forgets saved runs that are not in the opened experiment on the first save", async () => {
    const db = await freshDb();
    await db.saveRun({
      spec: { id: "old-1", algo: "rloo", label: "RLOO", config: {} },
      status: "paused",
      step: 2,
      history: points(1, 2),
      markers: [],
    });
    useLab.getState().setSpec(defaultExperiment());
    const saver = startAutosave({ persistence: db, source: useLab, historyEveryMs: 60_000 });
    await saver.flush();
    expect((await db.runIds()).sort()).toEqual(["dpo-1", "grpo-1", "ppo-1"]);
    saver.stop();
    db.close();
  });

  it("saves a run imported for comparison with its curves and never asks the worker for its checkpoint", async () => {
    const { db, lab } = await pausedLab();
    const asked: string[] = [];
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      historyEveryMs: 60_000,
      exportCheckpoint: async (id) => {
        asked.push(id);
        if (id === "ppo-2") throw new Error('no run "ppo-2" with weights');
        return new Uint8Array([1]);
      },
    });
    const spec = { ...defaultExperiment().runs[0], id: "ppo-2", label: "PPO (imported)" };
    lab.upsertRun(spec);
    lab.restoreRuns([
      {
        spec,
        status: "paused",
        step: 3,
        history: points(1, 3),
        markers: [],
        samples: [],
        error: null,
        comparison: true,
      },
    ]);
    lab.applyUpdates([update("ppo-1", 1, 1, { status: "paused" })]); // a step lands while paused
    await saver.checkpoint();
    expect(asked).toEqual(["ppo-1"]);
    const back = await db.load();
    const imported = back?.runs.find((r) => r.spec.id === "ppo-2");
    expect(imported?.comparison).toBe(true);
    expect(imported?.history).toHaveLength(3);
    expect(imported?.checkpoint).toBeNull();
    // The plan resumes the trained runs only (the page brings the comparison run back as curves), and does not
    // say it starts over.
    const plan = planRestore(back?.spec ?? defaultExperiment(), back, true);
    expect(plan.runs.map((r) => r.spec.id)).toEqual(["ppo-1"]);
    expect(plan.notice ?? "").not.toMatch(/imported/);
    saver.stop();
    db.close();
  });

  it("drops a checkpoint left under a run id by another experiment, so a reload does not resume from it", async () => {
    const db = await freshDb();
    const other = { ...defaultExperiment(), seed: 9 };
    await db.saveExperiment(other);
    await db.saveRun({ spec: other.runs[0], status: "paused", step: 5, history: points(1, 5), markers: [] });
    await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 5, samples: 40, tokens: 500 });
    useLab.getState().setSpec(defaultExperiment()); // another experiment with a run "ppo-1", not trained
    const saver = startAutosave({ persistence: db, source: useLab, historyEveryMs: 60_000 });
    await saver.flush();
    const back = await db.load();
    expect(back?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint).toBeNull();
    expect(planRestore(defaultExperiment(), back, true).runs).toEqual([]);
    saver.stop();
    db.close();
  });
});

describe("restore plan", () => {
  const spec: ExperimentSpec = { ...defaultExperiment(), model: "nano" };
  const session = {
    spec,
    runs: [
      {
        spec: spec.runs[0],
        status: "paused" as const,
        step: 20,
        history: points(1, 20),
        markers: [
          { runId: "ppo-1", step: 5, label: "a" },
          { runId: "ppo-1", step: 18, label: "b" },
        ],
        checkpoint: {
          runId: "ppo-1",
          bytes: new Uint8Array(4),
          step: 15,
          samples: 120,
          tokens: 1500,
          savedAt: 0,
        },
      },
      {
        spec: spec.runs[1],
        status: "paused" as const,
        step: 4,
        history: points(1, 4),
        markers: [],
        checkpoint: null,
      },
      {
        spec: { ...spec.runs[2], config: { beta: 0 } },
        status: "paused" as const,
        step: 9,
        history: points(1, 9),
        markers: [],
        checkpoint: null,
      },
    ],
  };

  it("resumes runs from their checkpoints and cuts the curves there", () => {
    const plan = planRestore(spec, session, true);
    expect(plan.runs.map((r) => r.spec.id)).toEqual(["ppo-1"]); // dpo-1: no checkpoint; grpo-1: other settings
    expect(plan.runs[0].history.at(-1)?.step).toBe(15);
    expect(plan.runs[0].markers.map((m) => m.label)).toEqual(["a"]);
    expect(plan.checkpoints).toEqual([
      { runId: "ppo-1", bytes: new Uint8Array(4), at: { step: 15, samples: 120, tokens: 1500 } },
    ]);
    expect(plan.notice).toMatch(/DPO had no saved checkpoint yet .* it starts over/);
    // grpo-1 has other settings here: the opened experiment has no place for it (the page keeps it first).
    expect(plan.leftOut.map((r) => r.spec.id)).toEqual(["grpo-1"]);
  });

  it("resumes a run whose checkpoint is saved but whose curves are not yet (a reload right after a step)", () => {
    const ck = { runId: "dpo-1", bytes: new Uint8Array(2), step: 1, samples: 2, tokens: 8, savedAt: 0 };
    const early = { ...session, runs: [{ ...session.runs[1], step: 1, history: [], checkpoint: ck }] };
    const plan = planRestore(spec, early, true);
    expect(plan.runs.map((r) => [r.spec.id, r.step, r.history.length])).toEqual([["dpo-1", 1, 0]]);
    expect(plan.checkpoints.map((c) => c.at.step)).toEqual([1]);
    expect(plan.notice).toBeNull();
  });

  it("keeps only the curves when the worker cannot load checkpoints, and nothing for another experiment", () => {
    const plan = planRestore(spec, session, false);
    expect(plan.checkpoints).toEqual([]);
    expect(plan.runs[0].history).toHaveLength(20);
    expect(plan.notice).toMatch(/PPO, DPO/);
    expect(planRestore({ ...spec, seed: 1 }, session, true).runs).toEqual([]);
    expect(planRestore({ ...spec, seed: 1 }, session, true).leftOut).toHaveLength(3);
    expect(planRestore(spec, null, true).runs).toEqual([]);
  });

  it("brings a fork's fork point back from the saved run (a link lacks it) when its source comes back too", () => {
    const ck = (runId: string, step: number) => ({
      runId,
      bytes: new Uint8Array(2),
      step,
      samples: 0,
      tokens: 0,
      savedAt: 0,
    });
    const fork = { id: "ppo-2", algo: "ppo" as const, label: "PPO (fork @ 10)", config: {} };
    const withFork = { ...spec, runs: [...spec.runs, fork] };
    const saved = {
      spec: withFork,
      runs: [
        { ...session.runs[0], checkpoint: ck("ppo-1", 15) },
        {
          spec: { ...fork, forkOf: { id: "ppo-1", step: 10 } },
          status: "paused" as const,
          step: 14,
          history: points(1, 14),
          markers: [],
          checkpoint: ck("ppo-2", 14),
        },
      ],
    };
    const plan = planRestore(withFork, saved, true);
    expect(plan.runs.map((r) => [r.spec.id, r.spec.forkOf])).toEqual([
      ["ppo-1", undefined],
      ["ppo-2", { id: "ppo-1", step: 10 }],
    ]);
    // The source resumes before the fork step (it stopped in error, saving no checkpoint since; the fork was
    // made after that): the fork is drawn from where the source's curve ends.
    const early = { ...saved, runs: [{ ...saved.runs[0], checkpoint: ck("ppo-1", 8) }, saved.runs[1]] };
    expect(planRestore(withFork, early, true).runs[1].spec.forkOf).toEqual({ id: "ppo-1", step: 8 });
    // The source starts over (no checkpoint): the fork is drawn whole.
    const alone = { ...saved, runs: [{ ...saved.runs[0], checkpoint: null }, saved.runs[1]] };
    expect(planRestore(withFork, alone, true).runs.map((r) => [r.spec.id, r.spec.forkOf])).toEqual([
      ["ppo-2", undefined],
    ]);
    // A fork of the fork (at 12) whose source starts over: a fork of the first run, at the earlier fork step.
    const grandchild = { id: "ppo-3", algo: "ppo" as const, label: "PPO (fork @ 12)", config: {} };
    const chain = { ...withFork, runs: [...withFork.runs, grandchild] };
    const three = {
      spec: chain,
      runs: [
        saved.runs[0],
        { ...saved.runs[1], checkpoint: null },
        {
          ...saved.runs[1],
          spec: { ...grandchild, forkOf: { id: "ppo-2", step: 12 } },
          checkpoint: ck("ppo-3", 14),
        },
      ],
    };
    expect(planRestore(chain, three, true).runs.map((r) => [r.spec.id, r.spec.forkOf])).toEqual([
      ["ppo-1", undefined],
      ["ppo-3", { id: "ppo-1", step: 10 }],
    ]);
  });
});
