/**
 * Recent experiments in IndexedDB (src/lab/archive.ts, LabPersistence.swapIn/replaceSession), on
 * fake-indexeddb: keeping, listing, pruning, swapping a kept session back in with its curves and checkpoint
 * bytes, and opening a version-2 database.
 */
import "fake-indexeddb/auto";
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import { ARCHIVE_MAX, covers, hasProgress, holds } from "../../src/lab/archive";
import { defaultExperiment } from "../../src/lab/defaults";
import {
  CHUNK,
  DB_VERSION,
  openLabPersistence,
  type SavedPipeline,
  type SavedSession,
} from "../../src/lab/persist";
import type { ExperimentSpec, MetricPoint } from "../../src/lab/protocol";
import { droppedText } from "../../src/ui/lab/experiment_names";
import { trainedSession } from "./trained_session";

let dbCount = 0;
const freshDb = () => openLabPersistence(`archive-test-${dbCount++}`);

const points = (n: number, reward = 0): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    step: i + 1,
    samples: 8,
    tokens: 80,
    metrics: { reward: reward + i },
  }));

/** A session of `spec` whose first run trained `steps` steps (checkpoint at `steps`), the others not at all. */
const session = (spec: ExperimentSpec, steps: number): SavedSession =>
  trainedSession(spec, steps, {
    history: points(steps, spec.seed),
    bytes: new Uint8Array([spec.seed, 7]),
    markers: [{ runId: spec.runs[0].id, step: 1, label: "β 0.05 → 0.1" }],
  });

describe("recent experiments", () => {
  it("keeps sessions newest first, at most ARCHIVE_MAX, and lists them without their bytes", async () => {
    const db = await freshDb();
    for (let seed = 0; seed < ARCHIVE_MAX + 2; seed++)
      await db.archive.keep(session({ ...defaultExperiment(), seed }, seed + 1), null, 1000 + seed);
    const list = await db.archive.list();
    expect(list).toHaveLength(ARCHIVE_MAX);
    expect(list.map((e) => e.spec.seed)).toEqual([7, 6, 5, 4, 3, 2]); // seeds 0 and 1 (oldest) went
    expect(list[0].runs).toEqual([
      { label: "PPO", algo: "ppo", step: 8 },
      { label: "DPO", algo: "dpo", step: 0 },
      { label: "GRPO", algo: "grpo", step: 0 },
    ]);
    expect(Object.keys(list[0]).sort()).toEqual(["id", "pipeline", "runs", "savedAt", "signature", "spec"]);
    await db.archive.remove(list[0].id);
    expect((await db.archive.list()).map((e) => e.spec.seed)).toEqual([6, 5, 4, 3, 2]);
    expect(await db.archive.get(list[0].id)).toBeUndefined();
    // A run kept with its curves but no checkpoint (storage full, or none saved yet) says it will start over.
    const bare = session({ ...defaultExperiment(), seed: 99 }, 4);
    bare.runs[0].checkpoint = null;
    expect((await db.archive.keep(bare, null, 5000)).runs[0]).toEqual({
      label: "PPO",
      algo: "ppo",
      step: 4,
      curvesOnly: true,
    });
    db.close();
  });

  it("replaces an earlier copy of the same training, not another training of the same experiment", async () => {
    const db = await freshDb();
    const a = { ...defaultExperiment(), seed: 3 };
    // Two tabs pressing Save here in turn keep the same training at step 2, then at step 5.
    await db.archive.keep(session(a, 2), null, 1000);
    const later = await db.archive.keep(session(a, 5), null, 2000);
    expect((await db.archive.list()).map((e) => [e.id, e.runs[0].step])).toEqual([[later.id, 5]]);
    expect(later.dropped).toEqual([]);
    // A later copy does not replace with an earlier one: that is kept beside it (it is not held).
    await db.archive.keep(session(a, 3), null, 3000);
    expect((await db.archive.list()).map((e) => e.runs[0].step)).toEqual([3, 5]);
    // Another training of the same experiment (its curve is not a beginning of this one's) stays.
    const other = session(a, 6);
    other.runs[0].history[0] = { ...other.runs[0].history[0], metrics: { reward: 42 } };
    await db.archive.keep(other, null, 4000);
    expect((await db.archive.list()).map((e) => e.runs[0].step)).toEqual([6, 3, 5]);
    db.close();
  });

  it("keeps a copy that lost its checkpoints once: the entry that has them comes first again", async () => {
    const db = await freshDb();
    const a = { ...defaultExperiment(), seed: 3 };
    const full = session(a, 5);
    const first = await db.archive.keep(full, null, 1000);
    await db.archive.keep(session({ ...a, seed: 4 }, 2), null, 2000);
    // The same training whose checkpoints the page dropped (it started another experiment) and left before saving.
    const lost = { ...full, runs: full.runs.map((r) => ({ ...r, checkpoint: null })) };
    expect(covers(full, null, lost, null)).toBe(true);
    expect(covers(lost, null, full, null)).toBe(false);
    const again = await db.archive.keep(lost, null, 3000);
    const list = await db.archive.list();
    expect(list.map((e) => [e.spec.seed, e.runs[0].step])).toEqual([
      [3, 5],
      [4, 2],
    ]);
    expect(list[0].id).toBe(again.id);
    expect(list.some((e) => e.id === first.id)).toBe(false);
    expect((await db.archive.get(again.id))?.session.runs[0].checkpoint?.step).toBe(5);
    // An earlier checkpoint is another point to resume from: not covered (kept beside, as before).
    expect(covers(full, null, session(a, 3), null)).toBe(false);
    db.close();
  });

  it("an earlier copy is held only when the later one resumes as far, and older Pipeline views compare", () => {
    const a = { ...defaultExperiment(), seed: 3 };
    const early = session(a, 5);
    const later = session(a, 8);
    expect(holds(later, null, early, null)).toBe(true);
    // The later copy's weights did not export (a run in error): the earlier one's checkpoint is not held.
    const noWeights = {
      ...later,
      runs: later.runs.map((r, i) => (i === 0 ? { ...r, checkpoint: null } : r)),
    };
    expect(holds(noWeights, null, early, null)).toBe(false);
    // A view saved before handOffOld existed is the same view as one with it false.
    const models = { task: a.task, sft: { steps: 4 }, rm: null } as unknown as SavedPipeline["models"];
    const view = { settings: { sftSteps: 40 }, handedOff: null };
    const older: SavedPipeline = { models, view, savedAt: 1 };
    const newer: SavedPipeline = { models, view: { ...view, handOffOld: false }, savedAt: 2 };
    expect(holds(later, newer, early, older)).toBe(true);
    expect(holds(later, { ...newer, view: { ...view, handOffOld: true } }, early, older)).toBe(false);
    // A Pipeline record of another version without its models compares, and is not the one with them.
    // Before: "Cannot read properties of undefined (reading 'task')" while the page kept the session.
    const bare = { view, savedAt: 3 } as unknown as SavedPipeline;
    expect(holds(later, bare, early, bare)).toBe(true);
    expect(holds(later, newer, early, bare)).toBe(false);
  });

  it("swaps a kept session in with its curves, markers and checkpoint, keeping the current one", async () => {
    const db = await freshDb();
    const a = { ...defaultExperiment(), seed: 3 };
    const b = { ...defaultExperiment(), task: "arithmetic" as const, seed: 4 };
    const long = session(a, CHUNK + 5); // two history chunks
    const kept = await db.archive.keep(long, null);
    await db.replaceSession(session(b, 2), null);
    const spec = await db.archive.swapIn(kept.id);
    expect(spec).toEqual(a);
    const now = await db.load();
    expect(now?.spec).toEqual(a);
    expect(now?.runs[0].history).toEqual(long.runs[0].history);
    expect(now?.runs[0].markers).toEqual(long.runs[0].markers);
    expect(Array.from(now?.runs[0].checkpoint?.bytes ?? [])).toEqual([3, 7]);
    expect(now?.runs[0].checkpoint?.step).toBe(CHUNK + 5);
    expect(now?.runs.map((r) => r.spec.id)).toEqual(a.runs.map((r) => r.id));
    // b trained, so it took a's place in the list; a is no longer listed.
    const list = await db.archive.list();
    expect(list.map((e) => [e.spec.task, e.spec.seed])).toEqual([["arithmetic", 4]]);
    const back = await db.archive.get(list[0].id);
    expect(back?.session.runs[0].history).toHaveLength(2);
    await expect(db.archive.swapIn(kept.id)).rejects.toThrow(/no longer kept/);
    expect((await db.load())?.spec).toEqual(a); // a failed swap changes nothing
    db.close();
  });

  it("keeps the same session once, and a full list loses nothing when one is reopened", async () => {
    const db = await freshDb();
    const a = session({ ...defaultExperiment(), seed: 11 }, 3);
    await db.archive.keep(a, null, 1);
    await db.archive.keep(a, null, 2); // a quick reload keeps it again: one entry, the newer
    expect((await db.archive.list()).map((e) => e.savedAt)).toEqual([2]);
    await db.archive.keep({ ...a, runs: a.runs.map((r) => ({ ...r, step: r.step + 1 })) }, null, 3);
    expect(await db.archive.list()).toHaveLength(1); // steps of the saved runs are the same: same session
    // Trained further: the earlier copy of the same training goes (the new one holds all its curves).
    await db.archive.keep(session({ ...defaultExperiment(), seed: 11 }, 4), null, 4);
    expect((await db.archive.list()).map((e) => e.savedAt)).toEqual([4]);

    for (let seed = 0; seed < ARCHIVE_MAX - 1; seed++)
      await db.archive.keep(session({ ...defaultExperiment(), seed }, 2), null, 10 + seed);
    expect(await db.archive.list()).toHaveLength(ARCHIVE_MAX);
    await db.replaceSession(session({ ...defaultExperiment(), seed: 99 }, 5), null);
    const newest = (await db.archive.list())[0];
    await db.archive.swapIn(newest.id);
    const after = await db.archive.list();
    expect(after).toHaveLength(ARCHIVE_MAX);
    expect(after.map((e) => e.spec.seed).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 11, 99]);
    // One more kept: the one with the least training goes, not the oldest (seed 11, 4 steps): seeds 0–3 and the
    // new one hold 2 steps, and seed 0 was kept first of them. The keeper is told which (its notice names it).
    const kept = await db.archive.keep(session({ ...defaultExperiment(), seed: 7 }, 2), null, 1e6);
    expect(kept.dropped.map((e) => e.spec.seed)).toEqual([0]);
    expect((await db.archive.list()).map((e) => e.spec.seed).sort((x, y) => x - y)).toEqual([
      1, 2, 3, 7, 11, 99,
    ]);
    expect(droppedText(kept.dropped)).toMatch(
      new RegExp(
        `^ To make room \\(it keeps ${ARCHIVE_MAX}\\), this browser forgot the kept experiment with the least training \\(Sentiment · shipped SFT model · seed \\d+: `,
      ),
    );
    expect(droppedText([])).toBe("");
    db.close();
  });

  it("does not keep an untrained session on a swap, and carries the Pipeline both ways", async () => {
    const db = await freshDb();
    const a = { ...defaultExperiment(), seed: 1 };
    const pipeline = { models: { task: a.task } as never, view: { note: "a" }, savedAt: 5 };
    const kept = await db.archive.keep(session(a, 4), pipeline);
    expect(kept.pipeline).toBe(true);
    expect(kept.startModel).toBeUndefined();
    // After "Use in RL" the runs started from the Pipeline's model: the entry names it (its title says so).
    const handed = "pipeline: nano (2 layers, C = 32, context 48) after 40 SFT steps (this page)";
    const view = { handedOff: handed };
    const keptHanded = await db.archive.keep(session({ ...a, seed: 2 }, 4), { ...pipeline, view });
    expect(keptHanded.startModel).toBe(handed);
    await db.archive.remove(keptHanded.id);
    await db.replaceSession(session(defaultExperiment(), 0), null);
    expect(hasProgress(await db.load(), null)).toBe(false);
    // A run imported for comparison trained nothing here, but its curves come back when the session is reopened:
    // kept; one without curves is nothing to keep.
    const imported = session(defaultExperiment(), 9);
    imported.runs[0] = { ...imported.runs[0], comparison: true, checkpoint: null };
    expect(hasProgress(imported, null)).toBe(true);
    imported.runs[0] = { ...imported.runs[0], history: [] };
    expect(hasProgress(imported, null)).toBe(false);
    await db.archive.swapIn(kept.id);
    expect((await db.loadPipeline())?.view).toEqual({ note: "a" });
    expect(await db.archive.list()).toEqual([]);
    db.close();
  });

  it("gives up on an upgrade that a tab on an older version blocks, and never blocks a newer one", async () => {
    const name = `archive-test-${dbCount++}`;
    const old = await openDB(name, 2, {
      upgrade(d) {
        d.createObjectStore("meta");
      },
    }); // an old tab: it does not close on "versionchange"
    await expect(openLabPersistence(name, 50)).rejects.toThrow(
      /another tab holds it open with an older version/,
    );
    old.close();
    const db = await openLabPersistence(name, 50);
    const newer = await Promise.race([
      openDB(name, DB_VERSION + 1).then(() => "opened"),
      new Promise((r) => setTimeout(() => r("blocked"), 500)),
    ]);
    expect(newer).toBe("opened"); // this version closed its connection for the newer one
    await expect(db.load()).rejects.toThrow(); // and says so on its next use
  });

  it("opens a version-2 database with its session and Pipeline intact", async () => {
    const name = `archive-test-${dbCount++}`;
    const v2 = await openDB(name, 2, {
      upgrade(d) {
        d.createObjectStore("meta");
        d.createObjectStore("runs", { keyPath: "id" });
        d.createObjectStore("history", { keyPath: ["runId", "chunk"] });
        d.createObjectStore("checkpoints", { keyPath: "runId" });
        d.createObjectStore("pipeline");
      },
    });
    const spec = { ...defaultExperiment(), seed: 8 };
    await v2.put("meta", { spec, savedAt: 1 }, "experiment");
    await v2.put("pipeline", { models: {}, view: 2, savedAt: 1 }, "pipeline");
    v2.close();
    const db = await openLabPersistence(name);
    expect((await db.load())?.spec).toEqual(spec);
    expect((await db.loadPipeline())?.view).toBe(2);
    expect(await db.archive.list()).toEqual([]);
    db.close();
  });
});
