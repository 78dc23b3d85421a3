/**
 * Opening the lab (src/ui/lab/session.ts) and the URL sync, in Node: the stubbed page of ./session_page.ts.
 * Importing a run is in ./session_import.test.ts and ./session_import_reload.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { LabPersistence, openLabPersistence } from "../../src/lab/persist";
import { encode } from "../../src/lab/url";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { share, writeUrlNow } from "../../src/ui/lab/url_sync";
import { useLab } from "../../src/ui/lab_store";
import { fakeDeps, newDbName, page, points, setHash, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

describe("opening the lab", () => {
  it("without a link: the saved experiment and its runs come back, resumed from their checkpoints", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    const spec = { ...defaultExperiment(), seed: 5 };
    await db.saveExperiment(spec);
    await db.saveRun({ spec: spec.runs[0], status: "paused", step: 12, history: points(12), markers: [] });
    await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 10, samples: 80, tokens: 500 });
    await db.saveRun({ spec: spec.runs[1], status: "paused", step: 3, history: points(3), markers: [] });
    db.close();

    const { deps, loads } = fakeDeps(name);
    // No Play or Step while checkpoints load (lab_store.ts restoring), and again once the lab is open.
    const restoring: boolean[] = [];
    const load = deps.loadRunCheckpoint;
    deps.loadRunCheckpoint = (...a) => {
      restoring.push(useLab.getState().restoring);
      return load?.(...a) ?? Promise.resolve();
    };
    const reads = vi.spyOn(LabPersistence.prototype, "load");
    session = await openLab(deps);
    expect([restoring, useLab.getState().restoring]).toEqual([[true], false]);
    // Read once: a reload of the same experiment keeps nothing aside, so it need not read the session again.
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    const s = useLab.getState();
    expect(s.spec).toEqual(spec);
    expect(s.runs["ppo-1"].history).toHaveLength(10);
    expect(s.runs["ppo-1"].step).toBe(10);
    // Resumed there (the twin note on forks reads it); until the worker's resume lands, older updates are not its.
    expect(s.runs["ppo-1"]).toMatchObject({ resumedAt: 10, resuming: true });
    expect(s.runs["dpo-1"].history).toHaveLength(0); // no checkpoint: starts over
    expect(loads).toEqual([["ppo-1", { step: 10, samples: 80, tokens: 500 }]]);
    expect(s.notice).toMatch(/DPO had no saved checkpoint yet/);
    expect(page.loc.hash).toBe(`#${encode(spec, s.view)}`); // the URL now names the experiment
  });

  it("a bad link opens the defaults with a notice; a good one wins over the saved session", async () => {
    const name = newDbName();
    setHash("#s=garbage!!");
    const a = fakeDeps(name);
    session = await openLab(a.deps);
    expect(useLab.getState().spec).toEqual(defaultExperiment());
    expect(useLab.getState().notice).toMatch(/could not be opened/);
    session.stop();

    const linked = { ...defaultExperiment(), task: "arithmetic" as const, model: "nano" as const, seed: 9 };
    setHash(`#${encode(linked)}`);
    useLab.setState({ phase: "idle", notice: null });
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().spec).toEqual(linked);
    expect(useLab.getState().notice).toBeNull();
  });

  it("a bad link over a saved session: the notice names the default runs that resumed", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    const base = defaultExperiment();
    const kto = { id: "kto-1", algo: "kto" as const, label: "KTO", config: {} };
    const spec = { ...base, runs: [...base.runs, kto] };
    await db.saveExperiment(spec);
    await db.saveRun({ spec: spec.runs[0], status: "paused", step: 11, history: points(11), markers: [] });
    await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 11, samples: 88, tokens: 500 });
    await db.saveRun({ spec: spec.runs[2], status: "paused", step: 11, history: points(11), markers: [] });
    await db.saveCheckpoint("grpo-1", new Uint8Array([2]), { step: 11, samples: 88, tokens: 500 });
    await db.saveRun({ spec: kto, status: "paused", step: 11, history: points(11), markers: [] });
    db.close();

    setHash("#s=garbage!!");
    const { deps, loads } = fakeDeps(name);
    session = await openLab(deps);
    const s = useLab.getState();
    expect(s.spec).toEqual(base);
    expect(loads.map(([id]) => id)).toEqual(["ppo-1", "grpo-1"]);
    expect(s.runs["ppo-1"].step).toBe(11);
    // The link's error, then what came back: "default experiment" alone would read as a fresh start.
    expect(s.notice).toMatch(/could not be opened.*The default experiment was loaded/);
    expect(s.notice).toMatch(
      /PPO, GRPO are this browser's saved runs with the same settings, resumed where they stopped/,
    );
    // DPO (never saved) is not named as resumed; KTO is left out of the default experiment and kept.
    expect(s.notice).not.toMatch(/DPO[^.]*resumed/);
    expect(s.notice).toMatch(/is kept/);
  });

  it("shows a link's experiment while storage is still being read", async () => {
    const linked = { ...defaultExperiment(), task: "arithmetic" as const, model: "nano" as const, seed: 4 };
    setHash(`#${encode(linked)}`);
    useLab.getState().setSpec(defaultExperiment());
    let release = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const f = fakeDeps(newDbName());
    const opening = openLab({
      ...f.deps,
      openPersistence: async () => {
        await slow;
        return f.deps.openPersistence();
      },
    });
    expect(useLab.getState().spec).toEqual(linked); // not the default task for a moment
    release();
    session = await opening;
    expect(useLab.getState().spec).toEqual(linked);
  });

  it("says that a fork named in a link starts from the start model, unless this browser saved it", async () => {
    const base = defaultExperiment();
    const fork = {
      ...base.runs[2],
      id: "grpo-2",
      label: "GRPO (fork @ 3)",
      config: { ...base.runs[2].config, beta: 0.1 },
    };
    const linked = { ...base, seed: 8, runs: [...base.runs, fork] };
    setHash(`#${encode(linked)}`);
    const name = newDbName();
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().notice).toMatch(
      /^GRPO \(fork @ 3\) \(now “GRPO 2”\) was a fork of a run trained before this experiment opened \(where its link was made, or in the experiment it was changed from\); a link or a new experiment carries settings, not weights/,
    );
    // Its label no longer names a fork (the store, and so the link; the worker was started with the same spec).
    expect(useLab.getState().spec.runs.map((r) => r.label)).toEqual(["PPO", "DPO", "GRPO", "GRPO 2"]);
    // This browser's own session with that fork saved: a reload says nothing about it.
    await session.autosaver?.flush();
    session.stop();
    const db = await openLabPersistence(name);
    await db.saveRun({ spec: fork, status: "paused", step: 5, history: points(5), markers: [] });
    await db.saveCheckpoint("grpo-2", new Uint8Array([1]), { step: 5, samples: 40, tokens: 250 });
    db.close();
    useLab.setState({ phase: "idle", notice: null });
    setHash(`#${encode(linked)}`);
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().runs["grpo-2"].step).toBe(5);
    expect(useLab.getState().runs["grpo-2"].spec.label).toBe("GRPO (fork @ 3)");
    expect(useLab.getState().notice ?? "").not.toMatch(/fork/);
    // Saved without a checkpoint (a reload within its first 30 s of training): it starts over, renamed.
    session.stop();
    const db2 = await openLabPersistence(name);
    await db2.deleteCheckpoint("grpo-2");
    db2.close();
    useLab.setState({ phase: "idle", notice: null });
    setHash(`#${encode(linked)}`);
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().runs["grpo-2"]).toMatchObject({ step: 0, spec: { label: "GRPO 2" } });
    expect(useLab.getState().notice).toMatch(
      /GRPO \(fork @ 3\) had no saved checkpoint yet .* so it starts over from the start model\. GRPO \(fork @ 3\) is now “GRPO 2”: no fork any more\./,
    );
  });

  it("brings a fork's fork point back on a reload, with or without the link, only when both runs resume", async () => {
    const base = defaultExperiment();
    const source = base.runs[2];
    const fork = { ...source, id: "grpo-2", label: "GRPO (fork @ 3)", forkOf: { id: source.id, step: 3 } };
    const spec = { ...base, seed: 9, runs: [...base.runs, fork] };
    const save = async (name: string, forkCheckpoint: boolean) => {
      const db = await openLabPersistence(name);
      await db.saveExperiment(spec);
      await db.saveRun({ spec: source, status: "paused", step: 6, history: points(6), markers: [] });
      await db.saveCheckpoint(source.id, new Uint8Array([1]), { step: 6, samples: 48, tokens: 300 });
      await db.saveRun({ spec: fork, status: "paused", step: 5, history: points(5), markers: [] });
      if (forkCheckpoint)
        await db.saveCheckpoint(fork.id, new Uint8Array([2]), { step: 5, samples: 40, tokens: 250 });
      db.close();
    };
    for (const link of [false, true]) {
      const name = newDbName();
      await save(name, true);
      setHash(link ? `#${encode(spec)}` : "");
      useLab.setState({ phase: "idle", notice: null });
      session = await openLab(fakeDeps(name).deps);
      const s = useLab.getState();
      expect(s.runs["grpo-2"].spec.forkOf).toEqual({ id: source.id, step: 3 });
      expect(s.spec.runs.find((r) => r.id === "grpo-2")?.forkOf).toEqual({ id: source.id, step: 3 });
      session.stop();
      session = null;
    }
    // Saved without the fork's checkpoint: the fork starts over, drawn whole (the saved spec's point goes).
    const name = newDbName();
    await save(name, false);
    setHash("");
    useLab.setState({ phase: "idle", notice: null });
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().runs["grpo-2"].history).toHaveLength(0);
    expect(useLab.getState().runs["grpo-2"].spec.forkOf).toBeUndefined();
    expect(useLab.getState().spec.runs.find((r) => r.id === "grpo-2")?.forkOf).toBeUndefined();
  });

  it("says so when storage is unavailable, and does not autosave a lab that failed to start", async () => {
    const deps = { ...fakeDeps("x").deps, openPersistence: () => Promise.reject(new Error("disabled")) };
    session = await openLab(deps);
    expect(session.autosaver).toBeNull();
    expect(useLab.getState().notice).toMatch(/storage is unavailable \(disabled\)/);
    // Nothing saves this page's training: the browser asks before a reload or a close loses it, once it trained.
    const leave = () => {
      const e = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(leave()).toBe(false);
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 1, points: points(1) }]);
    expect(useLab.getState().runs["ppo-1"].step).toBe(1);
    expect(leave()).toBe(true);
    session.stop();
    expect(leave()).toBe(false);
    const failed = fakeDeps(newDbName(), false);
    session = await openLab(failed.deps);
    expect(session.autosaver).toBeNull();
  });

  it("keeps the hash in step with the store and shares the current link", async () => {
    session = await openLab(fakeDeps(newDbName()).deps);
    useLab.getState().setView({ smoothing: 0.3 });
    writeUrlNow();
    expect(page.loc.hash).toBe(
      `#${encode(useLab.getState().spec, { xAxis: "step", klEstimator: "objective/kl", smoothing: 0.3 })}`,
    );
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    const r = await share();
    expect(r).toEqual({ url: page.loc.href, copied: true });
    expect(writeText).toHaveBeenCalledWith(page.loc.href);
    window.dispatchEvent(new Event("hashchange")); // a link pasted into the address bar
    await expect.poll(() => (page.loc.reload as ReturnType<typeof vi.fn>).mock.calls.length).toBe(1); // after saving
  });
});
