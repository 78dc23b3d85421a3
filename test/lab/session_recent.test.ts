/**
 * Recent experiments: the sessions a link replaces, kept and reopened (src/ui/lab/saving.ts, session.ts), in Node: the stubbed page of ./session_page.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { encode } from "../../src/lab/url";
import { whyNotKept } from "../../src/ui/lab/keep_open";
import { usePipelineStore } from "../../src/ui/lab/pipeline_store";
import { askSafeStart } from "../../src/ui/lab/safe_start";
import { leaveFor, onBeforeLeaving, openRecent, recentExperiments } from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { savedTrained } from "./recent_saved";
import { fakeDeps, newDbName, page, points, setHash, stubPage, tabStub } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

describe("recent experiments", () => {
  it("keeps a trained experiment that a link replaces, and Open brings it back resumed", async () => {
    const name = newDbName();
    const a = { ...defaultExperiment(), seed: 5 };
    const db = await savedTrained(name, a);
    setHash(`#${encode({ ...defaultExperiment(), seed: 6 })}`);
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().notice).toMatch(
      /open before \(Sentiment · shipped SFT model · seed 5: PPO at step 10\) is kept: reopen it from Change… → Recent experiments/,
    );
    const [entry, ...rest] = await recentExperiments();
    expect(rest).toEqual([]);
    expect(entry.spec).toEqual(a);
    await session.autosaver?.flush();
    expect((await db.load())?.spec.seed).toBe(6); // the autosaver took over the current session

    const assign = vi.fn();
    Object.assign(page.loc, { assign });
    await openRecent(entry.id);
    expect(assign).toHaveBeenCalledTimes(1);
    const url = String(assign.mock.calls[0][0]);
    session.stop();
    setHash(url.slice(url.indexOf("#")));
    useLab.setState({ phase: "idle", notice: null });
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(useLab.getState().spec).toEqual(a);
    expect(useLab.getState().runs["ppo-1"].step).toBe(10);
    expect(f.loads).toEqual([["ppo-1", { step: 10, samples: 80, tokens: 500 }]]);
    expect(await recentExperiments()).toEqual([]); // seed 6 never trained: nothing to keep in its place
    db.close();
  });

  it("after a crash, 'Start without the saved runs' keeps them under Recent experiments and opens without them", async () => {
    const name = newDbName();
    const a = defaultExperiment();
    const db = await savedTrained(name, a);
    const { store, tabStore } = tabStub();
    askSafeStart(tabStore);
    const f = fakeDeps(name);
    session = await openLab({ ...f.deps, tabStore });
    expect(useLab.getState().notice).toMatch(
      /The page crashed with the experiment open before \(Sentiment · shipped SFT model · seed 0: PPO at step 10\); it is kept under Change… → Recent experiments/,
    );
    expect(f.loads).toEqual([]); // nothing resumed
    expect(useLab.getState().runs["ppo-1"].step).toBe(0);
    const [entry] = await recentExperiments();
    expect(entry.spec).toEqual(a);
    expect(store.size).toBe(0); // the request is used up: the next reload restores as usual
    db.close();
  });

  it("says which runs of another experiment's link resume and which start over", async () => {
    const name = newDbName();
    const a = defaultExperiment();
    const db = await savedTrained(name, a);
    // The same task, model and seed; PPO as saved, DPO with another β: PPO resumes, DPO and GRPO start over.
    const link = {
      ...a,
      runs: a.runs.map((r) => (r.algo === "dpo" ? { ...r, config: { ...r.config, beta: 0.3 } } : r)),
    };
    setHash(`#${encode(link)}`);
    session = await openLab(fakeDeps(name).deps);
    const s = useLab.getState();
    expect(s.runs["ppo-1"].step).toBe(10);
    expect(s.notice).toMatch(
      /PPO is this browser's saved run with the same settings, resumed where it stopped; DPO, GRPO start from the start model/,
    );
    session.stop();

    // A reload of that link (the saved session is now this experiment) says nothing of the kind.
    await session.autosaver?.flush();
    useLab.setState({ phase: "idle", notice: null });
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().runs["ppo-1"].step).toBe(10); // resumed again, DPO and GRPO still at 0
    expect(useLab.getState().notice ?? "").not.toMatch(/start from the start model/);
    db.close();
  });

  it("does not name twice a run the restore already said starts over (curves but no checkpoint)", async () => {
    const name = newDbName();
    const a = defaultExperiment();
    const db = await savedTrained(name, a);
    await db.saveRun({ spec: a.runs[1], status: "paused", step: 3, history: points(3), markers: [] });
    const link = {
      ...a,
      runs: a.runs.map((r) => (r.algo === "grpo" ? { ...r, config: { ...r.config, beta: 0.3 } } : r)),
    };
    setHash(`#${encode(link)}`);
    session = await openLab(fakeDeps(name).deps);
    const notice = useLab.getState().notice ?? "";
    expect(notice).toMatch(/DPO had no saved checkpoint yet/);
    expect(notice).toMatch(
      /PPO is this browser's saved run with the same settings, resumed where it stopped; GRPO starts from the start model/,
    );
    expect(notice.match(/DPO/g)).toHaveLength(1);
    db.close();
  });

  it("Open gives up, swapping nothing, when a save never lands (the worker stopped answering)", async () => {
    const name = newDbName();
    const a = { ...defaultExperiment(), seed: 5 };
    const db = await savedTrained(name, a);
    setHash(`#${encode({ ...defaultExperiment(), seed: 6 })}`);
    const f = fakeDeps(name);
    let answer: (m: null) => void = () => {};
    f.deps.pipelineModels = () => new Promise((r) => (answer = r)); // does not answer (yet)
    session = await openLab(f.deps);
    const [entry] = await recentExperiments();
    usePipelineStore.getState().finish({ stage: "sft", steps: 4, firstLoss: 2, lastLoss: 1, seconds: 5 });
    const assign = vi.fn();
    Object.assign(page.loc, { assign });
    await expect(openRecent(entry.id, 30, 60)).rejects.toThrow(/last save did not finish; reload the page/);
    // Not stuck "opening": a second try gets as far again, and waits for the first try's write too (it would land in
    // the swapped-in session), so nothing was swapped or opened.
    await expect(openRecent(entry.id, 30, 60)).rejects.toThrow(/last save did not finish/);
    expect(assign).not.toHaveBeenCalled();
    expect((await recentExperiments()).map((e) => e.spec.seed)).toEqual([5]);
    expect((await db.load())?.spec.seed).toBe(6);
    // Once that write has landed, Open swaps and opens the kept experiment.
    answer(null);
    await openRecent(entry.id, 30, 60);
    expect(assign).toHaveBeenCalledTimes(1);
    expect((await db.load())?.spec.seed).toBe(5);
    db.close();
  });

  it("keeps nothing on a reload of the same experiment, and a failed Open leaves the lab saving", async () => {
    const name = newDbName();
    const db = await savedTrained(name, defaultExperiment());
    const exported: string[] = [];
    const f = fakeDeps(name);
    session = await openLab({
      ...f.deps,
      exportCheckpoint: async (id: string) => {
        exported.push(id);
        return new Uint8Array([5]);
      },
    });
    expect(useLab.getState().runs["ppo-1"].step).toBe(10);
    expect(await recentExperiments()).toEqual([]);
    expect(useLab.getState().notice).toMatch(
      /^Resumed PPO at step 10 \(it had reached at least 12\): the last checkpoint; the steps after it were not saved yet/,
    );
    await expect(openRecent("gone")).rejects.toThrow(/no longer kept/);
    // The restarted autosaver still reacts: a step that lands while paused is checkpointed at once.
    exported.length = 0;
    useLab
      .getState()
      .applyUpdates([{ runId: "ppo-1", status: "paused", step: 11, points: [{ ...points(11)[10] }] }]);
    await expect.poll(() => exported).toContain("ppo-1");
    await expect
      .poll(async () => (await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint?.step)
      .toBe(11);
    db.close();
  });

  it("lets a save in flight land before the swap, so the reopened session holds its own weights", async () => {
    const name = newDbName();
    const db = await savedTrained(name, { ...defaultExperiment(), seed: 2 });
    const b = { ...defaultExperiment(), seed: 7 };
    const kept = await db.archive.keep(
      {
        spec: b,
        runs: [
          {
            spec: b.runs[0],
            status: "paused",
            step: 3,
            history: points(3),
            markers: [],
            checkpoint: {
              runId: "ppo-1",
              bytes: new Uint8Array([7]),
              step: 3,
              samples: 24,
              tokens: 150,
              savedAt: 1,
            },
          },
        ],
      },
      null,
    );
    session = await openLab({
      ...fakeDeps(name).deps,
      exportCheckpoint: () => new Promise((r) => setTimeout(() => r(new Uint8Array([1, 1])), 300)),
    });
    useLab
      .getState()
      .applyUpdates([{ runId: "ppo-1", status: "paused", step: 11, points: [{ ...points(11)[10] }] }]);
    Object.assign(page.loc, { assign: vi.fn() });
    await openRecent(kept.id, 10); // gives up waiting for the slow export after 10 ms
    const now = await db.load();
    expect(now?.spec.seed).toBe(7);
    const ck = now?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint;
    expect([ck?.step, Array.from(ck?.bytes ?? [])]).toEqual([3, [7]]);
    await new Promise((r) => setTimeout(r, 400)); // nothing of seed 2 lands later either
    const later = (await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint;
    expect(later?.step).toBe(3);
    const [back] = await db.archive.list(); // seed 2 took its place, with the step that was in flight
    expect([back.spec.seed, back.runs[0].step]).toEqual([2, 11]);
    db.close();
  });

  it("does not save over a session it could not keep, and says how to get it back", async () => {
    const name = newDbName();
    const db = await savedTrained(name, { ...defaultExperiment(), seed: 5 });
    db.archive.keep = async () => {
      throw new Error("QuotaExceededError");
    };
    setHash(`#${encode({ ...defaultExperiment(), seed: 6 })}`);
    session = await openLab({ ...fakeDeps(name).deps, openPersistence: async () => db });
    expect(useLab.getState().notice).toMatch(
      /could not be kept \(QuotaExceededError\), so this page does not save.*without a link/,
    );
    expect(session.autosaver).toBeNull();
    // What a confirmation that would discard runs says of why (not "no storage, or another tab saves").
    expect(whyNotKept()).toBe(
      "the experiment open before could not be kept, so this page does not save over it",
    );
    const still = await db.load();
    expect(still?.spec.seed).toBe(5);
    expect(still?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint?.step).toBe(10);
  });

  it("forgets a checkpoint that did not resume, before anything is saved", async () => {
    const name = newDbName();
    const db = await savedTrained(name, defaultExperiment());
    const f = fakeDeps(name);
    session = await openLab({
      ...f.deps,
      loadRunCheckpoint: async () => {
        throw new Error("bad bytes");
      },
    });
    expect(useLab.getState().notice).toMatch(/PPO could not resume .*bad bytes.*starts over/);
    expect((await db.load())?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint).toBeNull();
    // …but the training as saved is kept first (Recent experiments): a start model that failed to load as saved
    // (a network's error page read as a missing model) once lost it for good.
    expect(useLab.getState().notice).toMatch(
      /The experiment as saved before this page opened \(.*PPO at step 10.*\) is kept: reopen it from Change… → Recent experiments\./,
    );
    const [kept] = await db.archive.list();
    expect(kept?.runs.find((r) => r.label === "PPO")?.step).toBe(10);
    expect((await db.archive.get(kept.id))?.session.runs[0].checkpoint?.bytes).toEqual(new Uint8Array([1]));
    db.close();
  });

  it("reloads on the hashchange that its own move to another link causes", async () => {
    session = await openLab(fakeDeps(newDbName()).deps);
    const assign = vi.fn();
    Object.assign(page.loc, { assign });
    await leaveFor(`http://lab.test/#${encode({ ...defaultExperiment(), seed: 3 })}`);
    expect(assign).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event("hashchange")); // assign changed only the hash: no page load by itself
    expect(page.loc.reload).toHaveBeenCalledTimes(1);
  });

  it("stays on the open experiment when what must end first cannot (a Pipeline stage that does not stop)", async () => {
    session = await openLab(fakeDeps(newDbName()).deps);
    const assign = vi.fn();
    Object.assign(page.loc, { assign });
    const off = onBeforeLeaving(async () => "The Pipeline's training did not stop within a minute");
    try {
      await leaveFor(`http://lab.test/#${encode({ ...defaultExperiment(), seed: 3 })}`);
      expect(assign).not.toHaveBeenCalled();
      expect(useLab.getState().notice).toBe(
        "The Pipeline's training did not stop within a minute, so this experiment stays open: try again.",
      );
      await expect(openRecent("any")).rejects.toThrow(/did not stop within a minute/);
    } finally {
      off();
    }
    // Not stuck leaving: once nothing holds it, the page leaves.
    await leaveFor(`http://lab.test/#${encode({ ...defaultExperiment(), seed: 3 })}`);
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("offline, stays on the open experiment (leaving reloads the page: the browser's 'no internet' page)", async () => {
    session = await openLab(fakeDeps(newDbName()).deps);
    const assign = vi.fn();
    Object.assign(page.loc, { assign });
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    const link = `http://lab.test/#${encode({ ...defaultExperiment(), seed: 3 })}`;
    await leaveFor(link);
    expect(assign).not.toHaveBeenCalled();
    expect(useLab.getState().notice).toBe(
      "This browser is offline (opening another experiment loads the page again, which needs the network), so this experiment stays open: try again.",
    );
    await expect(openRecent("any")).rejects.toThrow(/^This browser is offline/);
    // Back offline: the address goes back to this experiment as a new entry; the one Back moved to stays.
    const push = vi.spyOn(history, "pushState");
    setHash(`#${encode({ ...defaultExperiment(), seed: 4 })}`);
    await leaveFor(location.href, undefined, true);
    expect(push).toHaveBeenCalledTimes(1);
    expect(page.loc.hash).toBe(`#${encode(useLab.getState().spec, useLab.getState().view)}`);
    // Back twice quickly offline: the second move comes while the first is checked. It once reloaded (into the
    // browser's "no internet" page); now the address comes back once, as the check ends.
    let fail: (e: Error) => void = () => {};
    vi.stubGlobal("fetch", () => new Promise((_, reject) => (fail = reject)));
    push.mockClear();
    setHash(`#${encode({ ...defaultExperiment(), seed: 5 })}`);
    const first = leaveFor(location.href, undefined, true);
    setHash(`#${encode({ ...defaultExperiment(), seed: 6 })}`);
    window.dispatchEvent(new Event("hashchange"));
    expect(page.loc.reload).not.toHaveBeenCalled();
    fail(new TypeError("Failed to fetch"));
    expect(await first).toBe(false);
    expect(push).toHaveBeenCalledTimes(1);
    expect(page.loc.reload).not.toHaveBeenCalled();
    // The page's own server answering, whatever navigator.onLine says (a lab served on this machine or the
    // school's network): the page leaves.
    vi.stubGlobal("navigator", { onLine: false });
    vi.stubGlobal("fetch", async () => new Response(null, { status: 405 }));
    await leaveFor(link);
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("a link to a kept experiment (Back, Forward) reopens it where its runs stopped", async () => {
    const name = newDbName();
    const a = { ...defaultExperiment(), seed: 5 };
    const db = await savedTrained(name, a);
    setHash(`#${encode({ ...defaultExperiment(), seed: 6 })}`);
    session = await openLab(fakeDeps(name).deps); // keeps a
    expect((await recentExperiments()).map((e) => e.spec.seed)).toEqual([5]);
    session.stop();
    setHash(`#${encode(a, useLab.getState().view)}`); // Back: a's link again
    useLab.setState({ phase: "idle", notice: null });
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(useLab.getState().runs["ppo-1"].step).toBe(10);
    expect(f.loads).toEqual([["ppo-1", { step: 10, samples: 80, tokens: 500 }]]);
    expect(useLab.getState().notice).toMatch(
      /Reopened Sentiment · shipped SFT model · seed 5 from this browser's kept experiments/,
    );
    expect(await recentExperiments()).toEqual([]); // seed 6 never trained: not kept in its place
    db.close();
  });

  it("a reload of restarted runs (a second Pipeline hand-off, Reset) does not reopen the kept copy of the same link", async () => {
    const name = newDbName();
    const a = { ...defaultExperiment(), seed: 5 };
    const db = await savedTrained(name, a);
    // The hand-off kept the trained runs, then the same runs (same link) restarted and saved at step 0.
    const trained = await db.load();
    if (!trained) throw new Error("nothing saved");
    await db.archive.keep(trained, null);
    await db.deleteCheckpoint("ppo-1");
    await db.saveRun({ spec: a.runs[0], status: "ready", step: 0, history: [], markers: [] });
    setHash(`#${encode(a, useLab.getState().view)}`);
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(useLab.getState().runs["ppo-1"].step).toBe(0);
    expect(f.loads).toEqual([]);
    expect(useLab.getState().notice ?? "").not.toMatch(/Reopened/);
    expect((await recentExperiments()).map((e) => e.spec.seed)).toEqual([5]); // still kept
    db.close();
  });
});
