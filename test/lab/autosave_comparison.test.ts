/**
 * The autosaver (src/lab/autosave.ts) and runs imported for comparison, on fake-indexeddb: saved with their
 * curves, never checkpointed (the worker holds no weights of theirs), also when a run became one because its
 * imported checkpoint failed to load.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { planRestore } from "../../src/lab/restore";
import { useLab } from "../../src/ui/lab_store";
import { pausedLab, points, update } from "./persist_db";

describe("IndexedDB persistence of runs imported for comparison", () => {
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

  it("saves a run that became a comparison run with the same curves (its imported checkpoint failed to load)", async () => {
    const { db, lab } = await pausedLab();
    const saver = startAutosave({ persistence: db, source: useLab, historyEveryMs: 60_000 });
    const spec = { ...defaultExperiment().runs[0], id: "ppo-2", label: "PPO (imported)" };
    // As import_run.ts does: added to train from its checkpoint (saved so), then shown for comparison when the
    // checkpoint does not load: the same spec, status and history objects, now with `comparison`.
    const restored = {
      spec,
      status: "paused" as const,
      step: 3,
      history: points(1, 3),
      markers: [],
      samples: [],
      error: null,
    };
    lab.upsertRun(spec);
    lab.restoreRuns([{ ...restored, resuming: true, resumedAt: 3 }]);
    await saver.flush();
    expect((await db.load())?.runs.find((r) => r.spec.id === "ppo-2")?.comparison).toBeFalsy();
    lab.restoreRuns([{ ...restored, comparison: true }]);
    await saver.flush();
    // It once stayed saved as a run to train (nothing it compared had changed), and a reload started it over.
    const saved = (await db.load())?.runs.find((r) => r.spec.id === "ppo-2");
    expect(saved?.comparison).toBe(true);
    expect(saved?.history).toHaveLength(3);
    saver.stop();
    db.close();
  });

  it("keeps where a comparison run came from (its file's seed, task, lab, models) across a save and a reload", async () => {
    const { db, lab } = await pausedLab();
    const saver = startAutosave({ persistence: db, source: useLab, historyEveryMs: 60_000 });
    const spec = { ...defaultExperiment().runs[0], id: "ppo-2", label: "PPO (imported)" };
    const origin = {
      task: "arithmetic" as const,
      model: "sft" as const,
      seed: 1,
      lab: { version: "0.0.9", commit: "abc1234" },
      models: { start: { path: "models/arithmetic/sft.safetensors", sha256: "b".repeat(64) }, reward: null },
      exportedAt: "2026-12-31T00:00:00.000Z",
    };
    const run = { spec, status: "paused" as const, step: 3, history: points(1, 3), markers: [] };
    lab.upsertRun(spec);
    lab.restoreRuns([{ ...run, samples: [], error: null, comparison: true, origin }]);
    await saver.flush();
    saver.stop();
    expect((await db.load())?.runs.find((r) => r.spec.id === "ppo-2")?.origin).toEqual(origin);
    // A run saved before origins were kept loads as before (its seed unknown); a damaged origin loses the bad fields.
    await db.saveRun({ ...run, spec: { ...spec, id: "ppo-3" }, comparison: true });
    const bad = { seed: "one", task: "chess", lab: 5, models: { start: null, reward: null } };
    await db.saveRun({ ...run, spec: { ...spec, id: "ppo-4" }, comparison: true, origin: bad as never });
    const back = await db.load();
    const old = back?.runs.find((r) => r.spec.id === "ppo-3");
    expect(old?.history).toHaveLength(3);
    expect(old?.comparison).toBe(true);
    expect(old && "origin" in old).toBe(false);
    expect(back?.runs.find((r) => r.spec.id === "ppo-4")?.origin).toEqual({ models: bad.models });
    db.close();
  });
});
