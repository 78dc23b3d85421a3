/**
 * A checkpoint save that waits for the page to hear of its weights' step (autosave.ts checkpointNow,
 * pageWaitMs) never saves weights exported before a Reset under the restarted run's curve, though the restarted
 * run reaches that step while it waits (a fast GPU, a small model): a reload would resume the old weights. Found
 * by a code review; on fake-indexeddb.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { encodeSafetensors, readSafetensorsHeader } from "../../src/model/safetensors";
import { useLab } from "../../src/ui/lab_store";
import { freshDb, points } from "./persist_db";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a checkpoint save waiting for its step, across a Reset", () => {
  for (const playing of [true, false])
    it(`keeps the old weights out of the restarted run (${playing ? "playing" : "Reset, then Step ×3 paused"})`, async () => {
      const db = await freshDb();
      const lab = useLab.getState();
      lab.setSpec(defaultExperiment());
      lab.setPlaying(false);
      let exports = 0;
      const saver = startAutosave({
        persistence: db,
        source: useLab,
        // The first export: the old run's weights at step 3, the page having heard of step 2. Later ones: the
        // restarted run's, at the step the page shows.
        exportCheckpoint: async (id) => {
          const old = ++exports === 1 && id === "ppo-1";
          const step = old ? 3 : (useLab.getState().runs[id]?.step ?? 0);
          return encodeSafetensors([{ name: "w", shape: [1], data: new Float32Array([0]) }], {
            steps: String(step),
            who: old ? "before-reset" : "restarted",
          });
        },
        historyEveryMs: 60_000,
        checkpointEveryMs: 60_000,
      });
      lab.setPlaying(true);
      lab.applyUpdates([{ runId: "ppo-1", status: "running", step: 2, points: points(1, 2) }]);
      const saving = saver.checkpoint(); // the worker at step 3, the page at 2: it waits
      await sleep(100);
      if (!playing) lab.setPlaying(false); // Reset pauses the lab
      lab.applyUpdates([{ runId: "ppo-1", status: "ready", step: 0, points: [], rewindTo: 0 }]);
      for (let s = 1; s <= 3; s++) {
        await sleep(100);
        const status = playing ? "running" : "paused";
        lab.applyUpdates([{ runId: "ppo-1", status, step: s, points: points(s, 1) }]);
      }
      await saving;
      if (playing) {
        // The next save (here asked for; the 30 s timer's) is the restarted run's own.
        await saver.checkpoint();
      }
      for (let i = 0; i < 3; i++) await saver.flush();
      const ck = (await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint;
      expect(ck?.step).toBe(3);
      const who = ck ? readSafetensorsHeader(ck.bytes).metadata.who : null;
      expect(who, `exports: ${exports}`).toBe("restarted");
      lab.setPlaying(false);
      await saver.stop();
      db.close();
    });
});
