/**
 * The autosaver's record of a run's last checkpoint survives a step that lands while the checkpoint is exported:
 * the history is saved again first (a new record), and the checkpoint's step must be written on that record,
 * not the one read before the export. Otherwise the run reads "no checkpoint yet" and the 5 s tick saves one
 * again on every tick while playing (seen: every ~5 s, not every 30 s). On fake-indexeddb.
 */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import type { MetricPoint } from "../../src/lab/protocol";
import { useLab } from "../../src/ui/lab_store";

const points = (to: number): MetricPoint[] =>
  Array.from({ length: to }, (_, i) => ({
    step: i + 1,
    samples: i + 1,
    tokens: i + 1,
    metrics: { reward: 0 },
  }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `done()` holds (polled every 10 ms); fails after `limitMs`, generous for a busy machine. */
async function until(done: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not within ${limitMs / 1000} s: ${what}`);
    await sleep(10);
  }
}

describe("a checkpoint exported while a step lands", () => {
  it("is remembered: the tick does not save another until the run steps past it while playing", async () => {
    const db = await openLabPersistence("autosave-ck-step");
    // Every tick of the saver starts by asking for the database: counts the ticks.
    const ticks = vi.spyOn(db, "connected");
    useLab.getState().setSpec(defaultExperiment());
    const id = useLab.getState().spec.runs[0].id;
    const run = () => useLab.getState().runs[id];
    useLab.getState().restoreRuns([{ ...run(), step: 3, history: points(3), status: "running" }]);
    useLab.getState().setPlaying(true);
    let exports = 0;
    let ticksAtExport = 0;
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      exportCheckpoint: async () => {
        exports++;
        if (exports === 1) ticksAtExport = ticks.mock.calls.length;
        // Step 4 lands while the weights are read (they are step 4's: the bytes name no step, so the last point).
        if (run().step === 3)
          useLab
            .getState()
            .applyUpdates([{ runId: id, status: "running", step: 4, points: points(4).slice(3) }]);
        return new Uint8Array([1]);
      },
      historyEveryMs: 10,
      checkpointEveryMs: 1e9,
    });
    // The first tick saves the run's first checkpoint; the 10 after it have nothing due (waited for, not slept:
    // a busy machine runs fewer 10 ms ticks in a given time).
    await until(
      () => exports > 0 && ticks.mock.calls.length >= ticksAtExport + 10,
      "a checkpoint, then 10 ticks",
    );
    await saver.flush();
    expect((await db.load())?.runs.find((r) => r.spec.id === id)?.checkpoint?.step).toBe(4);
    expect(exports, "checkpoints exported by the 5 s tick while playing").toBe(1);
    await saver.stop();
    useLab.getState().setPlaying(false);
    db.close();
  });
});
