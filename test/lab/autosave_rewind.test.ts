/**
 * The autosaver after a run went back (a rewind to its last checkpoint, a device-loss recovery) and trained past
 * its old length before the next save: its history is rewritten, not appended to, and the checkpoint of the
 * abandoned steps goes (a reload must not resume those weights under the new curves). On fake-indexeddb.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import type { MetricPoint } from "../../src/lab/protocol";
import { useLab } from "../../src/ui/lab_store";

const points = (from: number, to: number, reward: number): MetricPoint[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    step: from + i,
    samples: from + i,
    tokens: from + i,
    metrics: { reward },
  }));

describe("the autosaver after a rewind", () => {
  it("rewrites a history that went back and trained past its old length, and drops the abandoned checkpoint", async () => {
    const db = await openLabPersistence("autosave-rewind");
    useLab.getState().setSpec(defaultExperiment());
    useLab.getState().setPlaying(false);
    const id = useLab.getState().spec.runs[0].id;
    let exports = 0;
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      // One checkpoint only (of the first trajectory): later exports fail, as when the worker is busy or gone.
      exportCheckpoint: async () => {
        if (exports++ > 0) throw new Error("no export now");
        return new Uint8Array([1]);
      },
      historyEveryMs: 1e9,
      checkpointEveryMs: 1e9,
    });
    const run = () => useLab.getState().runs[id];
    useLab.getState().restoreRuns([{ ...run(), step: 270, history: points(1, 270, 0), status: "paused" }]);
    await saver.flush();
    await saver.checkpoint();
    expect((await db.load())?.runs.find((r) => r.spec.id === id)?.checkpoint?.step).toBe(270);
    // Back to step 250 (the kept points are the same objects, as the store's rewind keeps them), then 30 new
    // steps before the next save: longer than before, same first point.
    const kept = run().history.filter((p) => p.step <= 250);
    useLab
      .getState()
      .restoreRuns([{ ...run(), step: 280, history: [...kept, ...points(251, 280, 1)], status: "paused" }]);
    await saver.flush();
    const saved = (await db.load())?.runs.find((r) => r.spec.id === id);
    expect(saved?.history.filter((p) => p.step > 250).map((p) => p.metrics.reward)).toEqual(
      Array(30).fill(1),
    );
    expect(saved?.history).toHaveLength(280);
    // The abandoned trajectory's checkpoint (step 270) went: a reload starts the run over rather than resume
    // weights that the curves no longer describe.
    expect(saved?.checkpoint ?? null).toBeNull();
    await saver.stop();
    db.close();
  });
});
