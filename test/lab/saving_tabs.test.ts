/** Two tabs of the lab on one browser profile (src/ui/lab/saving.ts): the one that starts saving last saves. */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import { keptLine, openSaving, recentExperiments, setOpenSaving, startSaving } from "../../src/ui/lab/saving";
import { askBeforeLosingTraining } from "../../src/ui/lab/saving_elsewhere";
import {
  linkTabs,
  OWNER_GONE_LINE,
  SAVING_CHANNEL,
  takenOverLine,
  useSavingTabs,
} from "../../src/ui/lab/saving_tabs";
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
    await new Promise((r) => setTimeout(r, 5)); // a later claim (one in the same ms goes by the tab ids)
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

  it("the saving tab leaving the page tells the others: no tab saves now; a tab that opens again saves", async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const heard: string[] = [];
    let owner = "A";
    const pageA = new EventTarget();
    const a = linkTabs({ owns: () => owner === "A", yieldTo: async () => {} }, pageA);
    const pageB = new EventTarget();
    const b = linkTabs(
      {
        owns: () => owner === "B",
        yieldTo: async () => {},
        savingTabGone: (gone, by) => heard.push(`${gone} ${by}`),
      },
      pageB,
    );
    // A tab that does not save leaving says nothing.
    pageB.dispatchEvent(Object.assign(new Event("pagehide"), { persisted: false }));
    await sleep(30);
    expect(heard).toEqual([]);
    // A claims after B opened (as the tab opened last does).
    await sleep(5);
    a.announce();
    await vi.waitFor(() => expect(heard).toEqual(["false opened"]));
    heard.length = 0;
    // Kept in the back-forward cache, the page saves nothing (and may be dropped from it, or its tab closed,
    // without another event): gone; back from the cache, it saves again with its old claim.
    pageA.dispatchEvent(Object.assign(new Event("pagehide"), { persisted: true }));
    await vi.waitFor(() => expect(heard).toEqual(["true opened"]));
    pageA.dispatchEvent(Object.assign(new Event("pageshow"), { persisted: true }));
    await vi.waitFor(() => expect(heard).toEqual(["true opened", "false opened"]));
    heard.length = 0;
    pageA.dispatchEvent(Object.assign(new Event("pagehide"), { persisted: false }));
    await vi.waitFor(() => expect(heard).toEqual(["true opened"]));
    // The tab reloaded (or another opened) and claims saving: B hears that a tab saves again.
    owner = "";
    const c = linkTabs({ owns: () => owner === "C", yieldTo: async () => {} });
    await sleep(5);
    c.announce();
    owner = "C";
    await vi.waitFor(() => expect(heard).toEqual(["true opened", "false opened"]));
    // A tab's Save here (its take, then its start): B says which it was.
    const d = linkTabs({ owns: () => owner === "D", yieldTo: async () => {} });
    await sleep(5);
    expect(await d.take(async () => {}, 50)).toBeNull();
    owner = "D";
    await vi.waitFor(() => expect(heard).toEqual(["true opened", "false opened", "false save-here"]));
    for (const t of [a, b, c, d]) t.close();
  });

  it("a frozen saving tab (a discarded one fires no pagehide) says so; unfrozen, it claims again with its old claim", async () => {
    const heard: string[] = [];
    let owner = "B";
    const b = linkTabs({ owns: () => owner === "B", yieldTo: async () => {}, savingTabGone: () => {} });
    await new Promise((r) => setTimeout(r, 5));
    const doc = new EventTarget();
    const pageA = Object.assign(new EventTarget(), { document: doc });
    const a = linkTabs({ owns: () => owner === "A", yieldTo: async () => {} }, pageA);
    const watcher = linkTabs({
      owns: () => false,
      yieldTo: async () => {},
      savingTabGone: (gone, by) => heard.push(`${gone} ${by}`),
    });
    await new Promise((r) => setTimeout(r, 5)); // A's claim newer than the watcher's
    a.announce();
    owner = "A";
    await vi.waitFor(() => expect(heard).toEqual(["false opened"]));
    doc.dispatchEvent(new Event("freeze"));
    await vi.waitFor(() => expect(heard).toEqual(["false opened", "true opened"]));
    doc.dispatchEvent(new Event("resume"));
    await vi.waitFor(() => expect(heard).toEqual(["false opened", "true opened", "false opened"]));
    for (const t of [a, b, watcher]) t.close();
  });

  it("a tab that stopped saving: its notice follows the saving tab leaving, and Leave site asks once it trained", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const db = await openLabPersistence("saving-tabs-gone");
    const first = startSaving(db, {}, (l) => useLab.getState().setNotice(l));
    setOpenSaving(first);
    await new Promise((r) => setTimeout(r, 5)); // a later claim: the other tab opened after this one
    const other = startSaving(db, {}, () => {});
    await vi.waitFor(() => expect(useSavingTabs.getState().state).toBe("elsewhere"));
    expect(useLab.getState().notice).toBe(takenOverLine("opened"));
    expect(keptLine({ steps: 3, compared: 0, pipeline: false, room: null }, false)).toMatch(
      /^This tab no longer saves \(another tab does\)/,
    );
    const page = new BroadcastChannel(SAVING_CHANNEL);
    page.postMessage({ kind: "gone", tab: "zzz", at: Date.now() });
    await vi.waitFor(() => expect(useLab.getState().notice).toBe(OWNER_GONE_LINE));
    expect(useSavingTabs.getState().ownerGone).toBe(true);
    expect(keptLine({ steps: 3, compared: 0, pipeline: false, room: null }, false)).toMatch(
      /^No tab saves now \(the tab that saved was closed or left the page\)/,
    );
    // Another tab opens: it saves, and the notice says so again.
    page.postMessage({ kind: "start", tab: "zzz", at: Date.now() + 5 });
    await vi.waitFor(() => expect(useLab.getState().notice).toBe(takenOverLine("opened")));
    expect(useSavingTabs.getState().ownerGone).toBe(false);
    page.close();
    first.close();
    other.close();
    await other.stop();
    db.close();
  });

  it("Leave site? asks only once this tab trained past where it stopped saving (comparison runs aside)", () => {
    const run = (id: string, step: number, comparison = false) => ({ spec: { id }, step, comparison });
    const setRuns = (...rs: ReturnType<typeof run>[]) =>
      useLab.setState({ runs: Object.fromEntries(rs.map((r) => [r.spec.id, r])) } as never);
    setRuns(run("ppo-1", 4), run("cmp", 2, true));
    const page = new EventTarget();
    const stop = askBeforeLosingTraining(page);
    const unload = () => {
      const e = new Event("beforeunload", { cancelable: true });
      page.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(unload()).toBe(false);
    setRuns(run("ppo-1", 4), run("cmp", 3, true));
    expect(unload()).toBe(false);
    setRuns(run("ppo-1", 4), run("grpo-2", 0));
    expect(unload()).toBe(false); // a run added since, not trained yet
    setRuns(run("ppo-1", 5));
    expect(unload()).toBe(true);
    stop(); // Save here: this tab saves again
    expect(unload()).toBe(false);
  });
});
