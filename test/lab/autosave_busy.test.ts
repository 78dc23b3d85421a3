/** The autosaver's busy signal (the top bar's "saving…" / "saved"), on fake-indexeddb. */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import { useLab } from "../../src/ui/lab_store";

describe("the autosaver's busy signal", () => {
  it("is true from the first queued write until the queue is empty, once per burst", async () => {
    const db = await openLabPersistence("autosave-busy");
    useLab.getState().setSpec(defaultExperiment());
    useLab.getState().setPlaying(false);
    const told: boolean[] = [];
    let release = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      historyEveryMs: 60_000,
      exportCheckpoint: async () => {
        await slow;
        return new Uint8Array([1]);
      },
      onBusy: (b) => told.push(b),
    });
    useLab.getState().applyUpdates([
      {
        runId: "ppo-1",
        status: "paused",
        step: 1,
        points: [{ step: 1, samples: 8, tokens: 80, metrics: {} }],
      },
    ]); // a step lands while paused: a checkpoint is queued at once
    const flushed = saver.flush(); // queued behind it
    await new Promise((r) => setTimeout(r, 20));
    expect(told).toEqual([true]); // still writing: the export has not returned
    release();
    await flushed;
    await saver.stop();
    expect(told).toEqual([true, false]);
    expect((await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint?.step).toBe(1);
    db.close();
  });

  it("saves a settings change within a moment, busy until it is stored", async () => {
    const db = await openLabPersistence("autosave-spec");
    useLab.getState().setSpec(defaultExperiment());
    const told: boolean[] = [];
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      historyEveryMs: 60_000,
      onBusy: (b) => told.push(b),
    });
    useLab.getState().setRunConfig("ppo-1", { beta: 0.2 });
    useLab.getState().setRunConfig("ppo-1", { beta: 0.3 }); // a drag: one save
    expect(told).toEqual([true]);
    await expect
      .poll(async () => (await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.spec.config.beta)
      .toBe(0.3);
    await expect.poll(() => told).toEqual([true, false]);
    await saver.stop();
    db.close();
  });
});
