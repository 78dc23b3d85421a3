/**
 * The lab's IndexedDB store (src/lab/persist.ts), on fake-indexeddb: a version-1 database opens with its session
 * intact; runs save and load with chunked history, markers and checkpoints. The autosaver is in
 * ./autosave.test.ts, the restore plan in ./restore_plan.test.ts.
 */
import "fake-indexeddb/auto";
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import { SETTINGS_REVISION } from "../../src/lab/default_changes";
import { defaultExperiment } from "../../src/lab/defaults";
import { CHUNK, openLabPersistence } from "../../src/lab/persist";
import { PRESETS } from "../../src/model/config";
import { freshDb, newDbName, points } from "./persist_db";

describe("IndexedDB persistence", () => {
  it("opens a version-1 database (before the Pipeline was saved) with its session intact", async () => {
    const name = newDbName();
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

    // Settings turned after the last step (untrained, RunState's) come back; a record of another shape does not.
    const untrained = { beta: 0.04, lr: null };
    const run = {
      spec: spec.runs[0],
      status: "paused" as const,
      step: 3,
      history: points(1, 3),
      markers: [],
    };
    await db.saveRun({ ...run, untrained });
    expect((await db.load())?.runs[0].untrained).toEqual(untrained);
    await db.saveRun(run);
    expect((await db.load())?.runs[0]).not.toHaveProperty("untrained");
    await db.saveRun({ ...run, untrained: { beta: { x: 1 } } as never });
    expect((await db.load())?.runs[0]).not.toHaveProperty("untrained");

    await db.deleteRun("ppo-1");
    expect((await db.load())?.runs.map((r) => r.spec.id)).toEqual(["grpo-1"]);
    await db.clear();
    expect(await db.load()).toBeNull();
    db.close();
  });

  it("keeps the settings revision: a session of an older one comes back with its runs' settings as then", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    const grpo = { id: "grpo-1", algo: "grpo" as const, label: "GRPO", config: { epsilon: 0.1 } };
    const spec = { ...defaultExperiment(), runs: [grpo] };
    await db.saveExperiment(spec);
    expect((await db.load())?.revision).toBe(SETTINGS_REVISION);
    await db.saveRun({ spec: grpo, status: "paused", step: 0, history: [], markers: [] });
    // As a lab of revision 1 saved it (ε_high's default was 0.2 then): both the experiment and the run get it.
    const raw = await openDB(name);
    await raw.put("meta", { spec, savedAt: 1, d: 1 }, "experiment");
    const old = await db.load();
    expect(old?.revision).toBe(1);
    expect(old?.spec.runs[0].config).toEqual({ epsilon: 0.1, epsilonHigh: 0.2 });
    expect(old?.runs[0].spec.config).toEqual({ epsilon: 0.1, epsilonHigh: 0.2 });
    // Saved before revisions were kept: read as it is (the page's notice says what may differ).
    await raw.put("meta", { spec, savedAt: 1 }, "experiment");
    const unknown = await db.load();
    expect(unknown?.revision).toBeUndefined();
    expect(unknown?.spec.runs[0].config).toEqual({ epsilon: 0.1 });
    raw.close();
    db.close();
  });
});
