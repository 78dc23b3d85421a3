/**
 * One tab writes the saved session (src/lab/persist.ts claim): once another tab's connection claimed it, the
 * first one's late writes (a checkpoint export that returned after the other tab opened) are refused, so they
 * cannot land in the session the other tab saves. Two connections to one fake-indexeddb database stand for
 * two tabs.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { NotWriterError, openLabPersistence } from "../../src/lab/persist";
import { newDbName, pausedState, points } from "./persist_db";

/** `n` connections to one new database: `n` tabs. */
function tabs(n: number) {
  const name = newDbName();
  return Promise.all(Array.from({ length: n }, () => openLabPersistence(name)));
}

describe("the session's writer", () => {
  it("refuses a connection's writes once another claimed the session, and keeps the claim across a replace", async () => {
    const [a, b, plain] = await tabs(3);
    const spec = defaultExperiment();
    const run = {
      spec: spec.runs[0],
      status: "paused" as const,
      step: 4,
      history: points(1, 4),
      markers: [],
    };
    await a.claim("tab-a");
    await a.saveExperiment(spec);
    await a.saveRun(run);
    await a.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 4, samples: 32, tokens: 400 });

    await b.claim("tab-b");
    const late = { step: 24, samples: 192, tokens: 2400 };
    await expect(a.saveCheckpoint("ppo-1", new Uint8Array([2]), late)).rejects.toBeInstanceOf(NotWriterError);
    await expect(a.saveRun({ ...run, step: 24, history: points(1, 24) })).rejects.toThrow(
      /another tab saves/,
    );
    await expect(a.deleteRun("ppo-1")).rejects.toBeInstanceOf(NotWriterError);
    await expect(a.savePipeline(null)).rejects.toBeInstanceOf(NotWriterError);
    const s = await b.load();
    expect(s?.runs[0].checkpoint?.step).toBe(4);
    expect(s?.runs[0].history).toHaveLength(4);

    // The tab that claimed writes; a replace (Save here) keeps its claim; a connection that never claimed
    // (tests, tools) is not checked.
    await b.saveCheckpoint("ppo-1", new Uint8Array([3]), late);
    await b.replaceSession({ spec, runs: [] }, null);
    await expect(a.saveExperiment(spec)).rejects.toBeInstanceOf(NotWriterError);
    await plain.saveExperiment(spec);
    // Save here in the first tab: it claims again, and the other's late writes are the refused ones.
    await a.claim("tab-a");
    await a.saveExperiment(spec);
    await expect(b.saveExperiment(spec)).rejects.toBeInstanceOf(NotWriterError);
    for (const db of [a, b, plain]) db.close();
  });

  it("the autosaver drops a write refused so, without reporting a failure", async () => {
    const [a, b] = await tabs(2);
    await a.claim("tab-a");
    const state = pausedState(2);
    const errors: string[] = [];
    const saver = startAutosave({
      persistence: a,
      source: { getState: () => state, subscribe: () => () => {} },
      onError: (m) => errors.push(m),
      historyEveryMs: 1e9,
      checkpointEveryMs: 1e9,
      page: new EventTarget(),
    });
    await saver.flush();
    await b.claim("tab-b");
    state.runs["ppo-1"] = { ...state.runs["ppo-1"], step: 3, history: points(1, 3) };
    await saver.flush();
    expect(errors).toEqual([]);
    expect((await b.load())?.runs[0].history).toHaveLength(2);
    await saver.stop();
    a.close();
    b.close();
  });

  it("a claim that could not be written (storage full) goes with the next write, unless a newer tab claimed", async () => {
    const [a, b, c] = await tabs(3);
    const spec = defaultExperiment();
    await a.claim("tab-a");
    await a.saveExperiment(spec);
    const put = IDBObjectStore.prototype.put;
    let full = true;
    IDBObjectStore.prototype.put = function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore["put"]>
    ) {
      if (full) throw new DOMException("", "QuotaExceededError");
      return put.apply(this, args);
    };
    try {
      await b.claim("tab-b"); // never rejects
      await expect(b.saveExperiment(spec)).rejects.toMatchObject({ name: "QuotaExceededError" });
      full = false;
      await b.saveExperiment(spec); // the claim lands with it
      await expect(a.saveExperiment(spec)).rejects.toBeInstanceOf(NotWriterError);
      // A pending claim does not overtake a tab that claimed after it.
      full = true;
      await a.claim("tab-a2");
      full = false;
      await c.claim("tab-c");
      await expect(a.saveExperiment(spec)).rejects.toBeInstanceOf(NotWriterError);
      await c.saveExperiment(spec);
    } finally {
      IDBObjectStore.prototype.put = put;
      for (const db of [a, b, c]) db.close();
    }
  });
});
