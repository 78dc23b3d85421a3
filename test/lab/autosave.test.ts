/**
 * The autosaver (src/lab/autosave.ts) keeping the lab store in IndexedDB, on fake-indexeddb: history as it grows,
 * checkpoints on pause and of steps taken while not playing, resets and removals, saved runs of another
 * experiment forgotten or their checkpoints dropped (runs imported for comparison: ./autosave_comparison.test.ts).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { planRestore } from "../../src/lab/restore";
import { encodeSafetensors } from "../../src/model/safetensors";
import { useLab } from "../../src/ui/lab_store";
import { freshDb, pausedLab, points, update } from "./persist_db";

describe("IndexedDB persistence", () => {
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

  it("writes a run's curves before its checkpoint, never a checkpoint past the stored curve", async () => {
    const db = await freshDb();
    const lab = useLab.getState();
    lab.setSpec(defaultExperiment());
    lab.setPlaying(false);
    const order: string[] = [];
    for (const m of ["saveRun", "saveCheckpoint"] as const) {
      const f = db[m].bind(db) as (...a: unknown[]) => Promise<void>;
      (db as unknown as Record<string, unknown>)[m] = async (...a: unknown[]) => {
        await f(...a);
        const id = (a[0] as { spec?: { id: string } }).spec?.id ?? String(a[0]);
        if (id === "ppo-1") order.push(`${m}: ${(await db.load())?.runs[0].history.length} points`);
      };
    }
    // PPO's step 2 lands while its checkpoint is exported: the checkpoint is step 2's.
    let landed = false;
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async (id) => {
        if (id === "ppo-1" && !landed) lab.applyUpdates([update("ppo-1", 2, 1, { status: "paused" })]);
        landed = true;
        return new Uint8Array([1]);
      },
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
    });
    lab.applyUpdates([update("ppo-1", 1, 1, { status: "paused" })]);
    await saver.checkpoint();
    expect(order.slice(0, 3)).toEqual(["saveRun: 1 points", "saveRun: 2 points", "saveCheckpoint: 2 points"]);
    expect((await db.load())?.runs[0].checkpoint?.step).toBe(2);
    saver.stop();
    db.close();
  });

  it("a run removed while its export waited for the step in progress is skipped; the others are checkpointed", async () => {
    const { db, lab, ckStep } = await pausedLab();
    const errors: string[] = [];
    // The worker answers a removed run's export with "no run … with weights" (its removal overtook the
    // export queued behind a step): that once failed the whole save, with a lasting "saving failed" notice.
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async (id) => {
        if (id === "dpo-1") {
          lab.removeRun("dpo-1");
          throw new RangeError(`no run "${id}" with weights`);
        }
        return new Uint8Array([1]);
      },
      onError: (m) => errors.push(m),
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
    });
    lab.applyUpdates(["ppo-1", "dpo-1", "grpo-1"].map((id) => update(id, 1, 2, { status: "paused" })));
    await saver.checkpoint();
    expect(errors).toEqual([]);
    expect([await ckStep("ppo-1"), await ckStep("grpo-1")]).toEqual([2, 2]);
    saver.stop();
    // A failed export of a run still there is still the save's failure, said.
    const failed: string[] = [];
    const failing = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async () => {
        throw new Error("device lost");
      },
      onError: (m) => failed.push(m),
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
    });
    lab.applyUpdates([update("ppo-1", 3, 1, { status: "paused" })]);
    await failing.checkpoint();
    expect(failed.join(" ")).toMatch(/device lost/);
    failing.stop();
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
  it("saves a checkpoint at the step its weights are at (the file's), not the page's last point", async () => {
    const { db, lab } = await pausedLab();
    let fileAt = 3;
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      // The worker a step or two past the page (its updates throttled): the file names its own step.
      exportCheckpoint: async () =>
        encodeSafetensors([{ name: "w", shape: [1], data: new Float32Array(1) }], { steps: String(fileAt) }),
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
      pageWaitMs: 400,
    });
    lab.setPlaying(true);
    lab.applyUpdates([update("ppo-1", 1, 5)]);
    await saver.checkpoint();
    const ck = async () => (await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint;
    const p3 = points(1, 5)[2];
    expect(await ck()).toMatchObject({ step: 3, samples: p3.samples, tokens: p3.tokens });
    // Weights at a step the page has not heard of yet: waited for while it comes (the worker's next update) …
    fileAt = 7;
    lab.applyUpdates([update("ppo-1", 6, 1)]);
    const saving = saver.checkpoint();
    await new Promise((r) => setTimeout(r, 120));
    lab.applyUpdates([update("ppo-1", 7, 1)]);
    await saving;
    expect((await ck())?.step).toBe(7);
    // … and never saved under another step when it does not come in time; the next save is.
    fileAt = 9;
    lab.applyUpdates([update("ppo-1", 8, 1)]);
    await saver.checkpoint();
    expect((await ck())?.step).toBe(7);
    lab.applyUpdates([update("ppo-1", 9, 1)]);
    await saver.checkpoint();
    expect((await ck())?.step).toBe(9);
    lab.setPlaying(false);
    await saver.stop();
  });

  it("asks before the page unloads while playing with steps past the last saved checkpoint, not otherwise", async () => {
    const { db, lab } = await pausedLab();
    const page = new EventTarget();
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async () => new Uint8Array([1, 2, 3]),
      historyEveryMs: 60_000,
      checkpointEveryMs: 60_000,
      page,
    });
    const asks = () => !page.dispatchEvent(new Event("beforeunload", { cancelable: true }));
    expect(asks()).toBe(false); // nothing trained
    lab.setPlaying(true);
    lab.applyUpdates([update("ppo-1", 1, 3)]);
    expect(asks()).toBe(true); // playing, 3 steps and no checkpoint
    await saver.checkpoint();
    expect(asks()).toBe(false); // every run at its saved checkpoint
    lab.applyUpdates([update("ppo-1", 4, 1)]);
    expect(asks()).toBe(true);
    lab.setPlaying(false); // a pause saves at once: asked until that save has landed
    expect(asks()).toBe(true);
    await saver.flush();
    expect(asks()).toBe(false);
    // Paused, a run with steps and no checkpoint (a fork): asked while its checkpoint is being saved.
    lab.applyUpdates([update("ppo-1", 5, 1)]); // a step that landed after the pause: saved at once
    expect(asks()).toBe(true);
    await saver.flush();
    expect(asks()).toBe(false);
    await saver.stop();
    lab.setPlaying(true);
    expect(asks()).toBe(false); // stopped: its listener is gone
    lab.setPlaying(false);
  });
});
