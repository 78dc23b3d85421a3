/** Two tabs of the lab on one browser profile (src/ui/lab/saving.ts): the one that starts saving last saves. */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import { openSaving, recentExperiments, setOpenSaving, startSaving } from "../../src/ui/lab/saving";
import { linkTabs, SAVING_CHANNEL } from "../../src/ui/lab/saving_tabs";
import { useLab } from "../../src/ui/lab_store";

describe("two tabs", () => {
  it("the tab that opens last takes over saving; the other stops and says so", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const db = await openLabPersistence("saving-tabs");
    const kept = { ...defaultExperiment(), seed: 7 };
    const history = [{ step: 1, samples: 8, tokens: 80, metrics: { reward: 0 } }];
    await db.archive.keep(
      {
        spec: kept,
        runs: [{ spec: kept.runs[0], status: "paused", step: 1, history, markers: [], checkpoint: null }],
      },
      null,
    );
    const said: string[] = [];
    const first = startSaving(db, {}, (l) => said.push(l));
    setOpenSaving(first);
    const stop = vi.spyOn(first, "stop");
    const other = startSaving(db, {}, () => {}); // another tab, here a second saver in the same process
    await vi.waitFor(() => expect(said).toHaveLength(1));
    expect(said[0]).toMatch(/^Another tab opened the lab and now saves this browser's experiment/);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(openSaving()).toBeNull(); // so Recent experiments cannot swap storage under the other tab
    // …but this tab still lists what is kept (it read "None yet." while its notice pointed there).
    expect((await recentExperiments()).map((e) => e.spec.seed)).toEqual([7]);
    first.close();
    other.close();
    await other.stop();
    db.close();
  });

  it("three tabs: Save here writes only after the saving tab's writes landed, not on a tab that stopped before", async () => {
    // A review found a tab that had stopped saving long ago answering every later Save here at once.
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const log: string[] = [];
    let owner = "B";
    const link = (name: string, landMs: number) =>
      linkTabs({
        owns: () => owner === name,
        yieldTo: async () => {
          owner = "";
          log.push(`${name} yields`);
          await sleep(landMs);
          log.push(`${name} landed`);
        },
      });
    const a = link("A", 0);
    await sleep(5);
    const b = link("B", 1); // B saves
    await sleep(5);
    const c = link("C", 300);
    c.announce(); // C opened last: B yields
    await sleep(50);
    owner = "C";
    log.length = 0;
    const by = await a.take(async () => {
      log.push("A writes");
    }, 200);
    expect(by).toBeNull();
    expect(log).toEqual(["C yields", "C landed", "A writes"]);
    for (const t of [a, b, c]) t.close();
  });

  it("ignores messages no lab tab sends: the old bare { tab } form and claims dated far ahead", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const db = await openLabPersistence("saving-tabs-forged");
    const said: string[] = [];
    const saving = startSaving(db, {}, (l) => said.push(l));
    setOpenSaving(saving);
    const page = new BroadcastChannel(SAVING_CHANNEL);
    page.postMessage({ tab: "zzz" });
    page.postMessage({ kind: "start", tab: "zzz", at: Date.now() + 3_600_000 });
    page.postMessage({ kind: "start", tab: "zzz", at: Number.POSITIVE_INFINITY });
    await new Promise((r) => setTimeout(r, 50));
    expect(said).toEqual([]);
    expect(openSaving()).toBe(saving);
    // A real claim (now) still takes saving over.
    page.postMessage({ kind: "start", tab: "zzz", at: Date.now() + 1000 });
    await vi.waitFor(() => expect(said).toHaveLength(1));
    page.close();
    saving.close();
    await saving.stop();
    db.close();
  });
});
