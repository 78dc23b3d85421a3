/**
 * "Save here" (src/ui/lab/saving.ts, saving_tabs.ts, save_here.ts): a tab that another took saving from takes
 * it back without a reload. Each "tab" is its own copy of the lab's modules (vi.resetModules: its own lab store,
 * savers and channel end), over one fake IndexedDB and Node's BroadcastChannel, as two tabs of one browser.
 */
import { SETTINGS_REVISION } from "../../src/lab/default_changes";
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import type { MetricPoint } from "../../src/lab/protocol";

const points = (n: number, from = 1, reward = 0): MetricPoint[] =>
  Array.from({ length: n - from + 1 }, (_, i) => ({
    step: from + i,
    samples: 8 * (from + i),
    tokens: 50 * (from + i),
    metrics: { reward: reward + from + i },
  }));

let dbs = 0;

/** A tab of the lab on database `name`: its modules, its saver and what its notice said. */
async function openTab(name: string) {
  vi.resetModules();
  const saving = await import("../../src/ui/lab/saving");
  const { useSavingTabs } = await import("../../src/ui/lab/saving_tabs");
  const { useLab } = await import("../../src/ui/lab_store");
  const { openLabPersistence } = await import("../../src/lab/persist");
  const { defaultExperiment } = await import("../../src/lab/defaults");
  const db = await openLabPersistence(name);
  const spec = defaultExperiment();
  useLab.getState().setSpec(spec);
  const exported: string[] = [];
  const said: string[] = [];
  const s = saving.startSaving(
    db,
    {
      exportCheckpoint: async (id) => {
        exported.push(id);
        return new Uint8Array([7]);
      },
    },
    (line) => {
      said.push(line);
      const now = useLab.getState().notice;
      useLab.getState().setNotice(now ? `${now} ${line}` : line);
    },
  );
  saving.setOpenSaving(s);
  const tab = {
    saving: s,
    module: saving,
    db,
    said,
    exported,
    lab: useLab,
    tabs: useSavingTabs,
    runId: spec.runs[0].id,
    /** Run 0 of this tab has trained up to `step` (its points from `from` on carry `reward`). */
    train(step: number, reward = 0, from = 1) {
      const r = useLab.getState().runs[tab.runId];
      const history = [...r.history.filter((p) => p.step < from), ...points(step, from, reward)];
      useLab.getState().restoreRuns([{ ...r, step, history, status: "paused" }]);
    },
    /** Save what changed and a checkpoint, as a pause does. */
    async save() {
      await s.autosaver.flush();
      await s.autosaver.checkpoint();
    },
    close() {
      s.close();
      s.stop();
    },
  };
  return tab;
}

type Tab = Awaited<ReturnType<typeof openTab>>;

/** Step of the saved session's run 0 (its curve's end) and of its checkpoint. */
async function savedAt(tab: Tab) {
  const run = (await tab.db.load())?.runs.find((r) => r.spec.id === tab.runId);
  return { curve: run?.history.at(-1)?.step ?? 0, checkpoint: run?.checkpoint?.step ?? 0 };
}

describe("Save here", () => {
  it("keeps the other tab's session, saves this tab's and stops the other", async () => {
    const name = `save-here-${dbs++}`;
    const a = await openTab(name);
    a.train(3);
    await a.save();
    const b = await openTab(name); // the lab opened in a second tab: it saves, the first stops
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("elsewhere"));
    expect(a.module.openSaving()).toBeNull();
    expect(a.said[0]).toMatch(/^Another tab opened the lab and now saves this browser's experiment/);
    expect(a.said[0]).toContain(
      "Reloading this tab returns it to what the other tab saved and discards this tab's training since then",
    );
    // The second tab trains its own way (other curves), the first goes on to step 19 without saving.
    b.train(10, 100);
    await b.save();
    a.train(19);
    await new Promise((r) => setTimeout(r, 50));
    expect(await savedAt(a)).toEqual({ curve: 10, checkpoint: 10 });

    const saveHere = a.tabs.getState().saveHere;
    expect(saveHere).not.toBeNull();
    saveHere?.();
    // A Save here waits at least ACK_MS (1.5 s) for every tab to answer.
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("saves"), { timeout: 5000 });
    expect(a.module.openSaving()).toBe(a.saving);
    // This tab's whole state is the saved session: a reload resumes run 0 at step 19 with its own curve.
    const saved = await a.db.load();
    // Written as this lab writes: a reload must not read it as of unknown age (default_changes.ts).
    expect(saved?.revision).toBe(SETTINGS_REVISION);
    const run = saved?.runs.find((r) => r.spec.id === a.runId);
    expect(run?.history).toEqual(points(19));
    expect(run?.checkpoint?.step).toBe(19);
    expect(a.exported).toContain(a.runId);
    // The other tab's session (step 10) is kept under Recent experiments.
    const kept = await a.db.archive.list();
    expect(kept).toHaveLength(1);
    expect(kept[0].runs.find((r) => r.step > 0)?.step).toBe(10);
    const archived = await a.db.archive.get(kept[0].id);
    expect(archived?.session.runs.find((r) => r.spec.id === a.runId)?.history).toEqual(points(10, 1, 100));
    expect(a.lab.getState().notice).toMatch(
      /^This tab saves again: a reload resumes every run where it is now\. What the other tab had saved \(.*at step 10\) is kept: reopen it from Change… → Recent experiments\.$/,
    );
    // The other tab stopped and says so, with its own Save here.
    expect(b.tabs.getState().state).toBe("elsewhere");
    expect(b.tabs.getState().saveHere).not.toBeNull();
    expect(b.module.openSaving()).toBeNull();
    expect(b.lab.getState().saving).toBeNull();
    expect(b.said.at(-1)).toMatch(
      /^Another tab took over \(Save here\) and now saves this browser's experiment/,
    );
    // It writes nothing any more: its pause (a checkpoint) and its steps do not land.
    b.lab.getState().setPlaying(true);
    b.train(12, 100);
    b.lab.getState().setPlaying(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(await savedAt(a)).toEqual({ curve: 19, checkpoint: 19 });
    // This tab goes on saving.
    a.train(21);
    await a.save();
    expect(await savedAt(a)).toEqual({ curve: 21, checkpoint: 21 });
    // B takes it back: A's "This tab saves again" goes from its notice, which says it no longer saves.
    b.tabs.getState().saveHere?.();
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("elsewhere"), { timeout: 5000 });
    expect(a.lab.getState().notice).not.toMatch(/This tab saves again/);
    expect(a.lab.getState().notice).toMatch(/Another tab took over \(Save here\)/);
    a.close();
    b.close();
  });

  it("with the saving tab closed, takes over alone and keeps nothing its own training already holds", async () => {
    const name = `save-here-${dbs++}`;
    const a = await openTab(name);
    a.train(3);
    await a.save();
    const b = await openTab(name); // resumes the same runs at step 3, then is closed
    b.train(3);
    await b.save();
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("elsewhere"));
    b.close();
    a.train(19);
    a.lab.getState().setPlaying(true); // playing: the take-over exports while it trains
    a.tabs.getState().saveHere?.();
    expect(a.tabs.getState().state).toBe("taking");
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("saves"), { timeout: 5000 });
    expect(await savedAt(a)).toEqual({ curve: 19, checkpoint: 19 });
    expect(await a.db.archive.list()).toEqual([]); // step 3 of the same curve: nothing lost, nothing listed
    expect(a.lab.getState().notice).toBe("This tab saves again: a reload resumes every run where it is now.");
    // Still playing, it keeps saving as it trains (the autosaver's 5 s tick).
    a.train(23, 0, 20);
    await vi.waitFor(async () => expect((await savedAt(a)).curve).toBe(23), { timeout: 8000, interval: 200 });
    a.lab.getState().setPlaying(false);
    a.close();
  });

  it("two tabs that press Save here at once: one of them ends up saving", async () => {
    const name = `save-here-${dbs++}`;
    const a = await openTab(name);
    const c = await openTab(name);
    const b = await openTab(name);
    await vi.waitFor(() => {
      expect(a.tabs.getState().state).toBe("elsewhere");
      expect(c.tabs.getState().state).toBe("elsewhere");
    });
    a.train(5);
    c.train(7, 50);
    a.tabs.getState().saveHere?.();
    c.tabs.getState().saveHere?.();
    await vi.waitFor(
      () =>
        expect([a, c, b].map((t) => t.tabs.getState().state).sort()).toEqual([
          "elsewhere",
          "elsewhere",
          "saves",
        ]),
      { timeout: 5000 },
    );
    const owners = [a, c, b].filter((t) => t.module.openSaving() === t.saving);
    expect(owners).toHaveLength(1);
    const owner = owners[0];
    expect(owner === a || owner === c).toBe(true);
    expect((await savedAt(owner)).curve).toBe(owner === a ? 5 : 7);
    for (const t of [a, c, b]) t.close();
  });

  it("a tab opened while Save here waits wins: the taker stays out and says so", async () => {
    const name = `save-here-${dbs++}`;
    const a = await openTab(name);
    const b = await openTab(name);
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("elsewhere"));
    b.close(); // nobody answers the take: it waits ACK_MS
    a.tabs.getState().saveHere?.();
    const d = await openTab(name);
    await vi.waitFor(() => expect(a.tabs.getState().state).toBe("elsewhere"), { timeout: 5000 });
    expect(a.module.openSaving()).toBeNull();
    expect(d.module.openSaving()).toBe(d.saving);
    expect(a.said.at(-1)).toMatch(/^Save here did not finish \(another tab took over saving first\)/);
    a.close();
    d.close();
  });

  it("keeps a run in error with its weights when they export (its reward model failed), not when they do not", async () => {
    // A tester lost 124 steps: Save here skipped the checkpoint of a run in error, and a reload started it over.
    for (const [sound, checkpoint] of [
      [true, 6],
      [false, 0],
    ] as const) {
      const a = await openTab(`save-here-${dbs++}`);
      // This tab's own module copy (no other tab opened since), so writeHere reads a's store.
      const { writeHere } = await import("../../src/ui/lab/save_here");
      a.train(6);
      const r = a.lab.getState().runs[a.runId];
      a.lab.getState().restoreRuns([{ ...r, status: "error", error: "step 7 failed: a non-finite score" }]);
      const exportCheckpoint = sound
        ? async () => new Uint8Array([7])
        : async () => {
            throw new RangeError("PPO's weights hold a non-finite value");
          };
      await writeHere(a.db, { exportCheckpoint });
      expect(await savedAt(a)).toEqual({ curve: 6, checkpoint });
      a.close();
    }
  });
});
