/**
 * The browser taking the lab's database away under a running page (src/lab/persist_connection.ts, autosave.ts):
 * site data cleared or the database deleted by another page — the page says so, reopens it and saves its runs
 * again, checkpoints too, and never reads "saved" meanwhile; a newer version of the lab upgrading it — this tab
 * stops saving and says why, once; a save that succeeds after failing takes its failure out of the notice.
 */
import "fake-indexeddb/auto";
import { deleteDB, openDB } from "idb";
import { describe, expect, it, vi } from "vitest";
import { type Autosaver, startAutosave } from "../../src/lab/autosave";
import { DB_VERSION, type LabPersistence, openLabPersistence } from "../../src/lab/persist";
import { newDbName, pausedState } from "./persist_db";

function saver(
  db: LabPersistence,
  lines: { errors: string[]; failed: (string | null)[]; recovered: string[] },
  // One state by default (a store gives the same objects until they change); a new one each call: always a write.
  getState: () => ReturnType<typeof pausedState> = (
    (state) => () =>
      state
  )(pausedState(3)),
) {
  return startAutosave({
    persistence: db,
    source: { getState, subscribe: () => () => {} },
    exportCheckpoint: async () => new Uint8Array([7, 7]),
    onError: (m) => lines.errors.push(m),
    onFailed: (m) => lines.failed.push(m),
    onRecovered: (l) => lines.recovered.push(...l),
    historyEveryMs: 1e9,
    checkpointEveryMs: 1e9,
    page: new EventTarget(),
  });
}

const saved = async (name: string) => {
  const other = await openLabPersistence(name);
  const s = await other.load();
  other.close();
  return s;
};

describe("the database taken away under a running page", () => {
  it("deleted (site data cleared): says so, never 'saved' meanwhile, and saves the runs and checkpoints again", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    const lines = { errors: [] as string[], failed: [] as (string | null)[], recovered: [] as string[] };
    const s: Autosaver = saver(db, lines);
    await s.checkpoint();
    expect((await saved(name))?.runs[0].checkpoint?.step).toBe(3);
    await deleteDB(name); // another page (or the browser's "Clear site data"); never blocked by this one
    await vi.waitFor(() => expect(lines.failed.at(-1)).toBeNull()); // the re-save landed
    const told = lines.failed.filter((l) => l !== null);
    expect(told[0]).toMatch(/^This browser's saved lab was deleted \(its site data was cleared/);
    expect(lines.errors).toEqual([told[0]]);
    expect(db.generation).toBe(1);
    const back = await saved(name);
    expect(back?.runs.map((r) => [r.spec.id, r.step, r.history.length, r.checkpoint?.step])).toEqual([
      ["ppo-1", 3, 3, 3],
    ]);
    await s.stop();
    db.close();
  });

  it("upgraded by a newer version of the lab: this tab stops saving and says why, once", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    const lines = { errors: [] as string[], failed: [] as (string | null)[], recovered: [] as string[] };
    const s = saver(db, lines);
    await s.flush();
    const newer = await openDB(name, DB_VERSION + 1); // not blocked: this connection closes itself
    await vi.waitFor(() => expect(lines.errors).toHaveLength(1));
    await s.flush();
    await s.flush();
    expect(lines.errors[0]).toMatch(/^A newer version of the lab opened in another tab/);
    expect(lines.errors).toHaveLength(1);
    expect(lines.failed.at(-1)).toBe(lines.errors[0]);
    await expect(db.load()).rejects.toThrow(/a newer version of the lab/);
    newer.close();
    await s.stop();
  });

  it("a save that succeeds after failing takes the failure out of the notice, and a new failure is told again", async () => {
    const db = await openLabPersistence(newDbName());
    let full = true;
    const saveRun = db.saveRun.bind(db);
    db.saveRun = async (...a) => {
      if (full) throw Object.assign(new Error(""), { name: "QuotaExceededError" });
      return saveRun(...a);
    };
    const lines = { errors: [] as string[], failed: [] as (string | null)[], recovered: [] as string[] };
    const s = saver(db, lines, () => pausedState(3));
    await s.flush();
    full = false;
    await s.flush();
    expect(lines.recovered).toEqual(lines.errors);
    expect(lines.errors[0]).toMatch(/its storage for this page is full/);
    full = true;
    await s.flush();
    expect(lines.errors).toHaveLength(2);
    await s.stop();
    db.close();
  });
});
