/**
 * Opening the lab (src/ui/lab/session.ts), the URL sync and run import, in Node: the stubbed page of ./session_page.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { runFileJson } from "../../src/lab/export/run_file";
import { openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec, PipelineModels, RunCounters, RunSpec } from "../../src/lab/protocol";
import { MAX_RUNS } from "../../src/lab/settings";
import { encode, specFromLocation } from "../../src/lab/url";
import { decodeSafetensors, encodeSafetensors } from "../../src/model/safetensors";
import { importRunFiles } from "../../src/ui/lab/import_run";
import { usePipelineStore } from "../../src/ui/lab/pipeline_store";
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
    session = await openLab(deps);
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
      /^GRPO \(fork @ 3\) was a fork of a run trained before this experiment opened \(where its link was made, or in the experiment it was changed from\); a link or a new experiment carries settings, not weights/,
    );
    // This browser's own session with that fork saved: a reload says nothing about it.
    await session.autosaver?.flush();
    session.stop();
    const db = await openLabPersistence(name);
    await db.saveRun({ spec: fork, status: "paused", step: 5, history: points(5), markers: [] });
    await db.saveCheckpoint("grpo-2", new Uint8Array([1]), { step: 5, samples: 40, tokens: 250 });
    db.close();
    useLab.setState({ phase: "idle", notice: null });
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().runs["grpo-2"].step).toBe(5);
    expect(useLab.getState().notice ?? "").not.toMatch(/fork/);
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
    session.stop();
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

describe("importing a run", () => {
  const file = (name: string, text: string) => ({
    name,
    text: async () => text,
    arrayBuffer: async () => new TextEncoder().encode(text).buffer as ArrayBuffer,
  });
  /** A checkpoint file whose metadata names its run, as the lab's export writes it (src/lab/runs.ts). */
  const weightsOf = (name: string, meta: Record<string, string> = {}) => {
    const bytes = encodeSafetensors([], {
      algo: "ppo",
      run: "PPO",
      steps: "4",
      task: "sentiment",
      seed: "0",
      ...meta,
    });
    return { name, text: async () => "", arrayBuffer: async () => bytes.slice().buffer as ArrayBuffer };
  };
  const exported = (spec: ExperimentSpec) =>
    runFileJson(spec, { spec: spec.runs[0], status: "paused", step: 4, history: points(4), markers: [] });

  it("adds a comparison run with its curves, renamed when its id is taken", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const notice = await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    const s = useLab.getState();
    expect(s.spec.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1", "grpo-1", "ppo-2"]);
    expect(s.runs["ppo-2"].history).toHaveLength(4);
    expect(s.runs["ppo-2"].spec.label).toBe("PPO (imported)");
    expect(s.runs["ppo-2"].comparison).toBe(true);
    expect(notice).toMatch(/^Added PPO \(imported\) with its 4 steps of curves, for comparison/);
  });

  it("continues training an imported run when its checkpoint comes along", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const added: string[] = [];
    const loads: [string, RunCounters][] = [];
    const notice = await importRunFiles(
      [file("ppo.run.json", exported(defaultExperiment())), weightsOf("ppo.safetensors")],
      {
        addRun: async (spec) => {
          added.push(spec.id);
          useLab.getState().upsertRun(spec);
        },
        loadRunCheckpoint: async (id, _b, at) => {
          loads.push([id, at]);
        },
      },
    );
    expect(added).toEqual(["ppo-2"]);
    expect(loads).toEqual([["ppo-2", { step: 4, samples: 32, tokens: 200 }]]);
    expect(useLab.getState().runs["ppo-2"].history).toHaveLength(4);
    expect(notice).toMatch(/continues from step 4, from its weights; its AdamW moments start afresh/);
    // A PPO with a separate critic also loses that network (the checkpoint holds the policy).
    const critic = { ...defaultExperiment().runs[0], config: { valueModel: "separate" } };
    const withCritic = await importRunFiles(
      [
        file("ppo.run.json", exported({ ...defaultExperiment(), runs: [critic] })),
        weightsOf("ppo.safetensors"),
      ],
      { addRun: async (spec) => useLab.getState().upsertRun(spec), loadRunCheckpoint: async () => {} },
    );
    expect(withCritic).toMatch(/its AdamW moments \(and its separate value model\) start afresh/);
  });

  it("keeps a run trained from the Pipeline's model for comparison where the runs start from another", async () => {
    // Exported after "Use in RL": its reference (and KL) is the Pipeline's model, not the experiment's.
    const source = "pipeline: nano (2 layers, C = 32, context 32) after 40 SFT steps (this page)";
    const text = runFileJson(
      defaultExperiment(),
      { spec: defaultExperiment().runs[0], status: "paused", step: 4, history: points(4), markers: [] },
      new Date(),
      source,
    );
    expect(JSON.parse(text).experiment.startModel).toBe(source);
    for (const [here, expectLoad] of [
      [null, false],
      [source, true],
    ] as const) {
      useLab.getState().setSpec(defaultExperiment());
      usePipelineStore.setState({ handedOff: here });
      const loads: string[] = [];
      const notice = await importRunFiles([file("ppo.run.json", text), weightsOf("ppo.safetensors")], {
        addRun: async (spec) => useLab.getState().upsertRun(spec),
        loadRunCheckpoint: async (id) => {
          loads.push(id);
        },
      });
      expect(loads.length > 0, String(here)).toBe(expectLoad);
      if (!expectLoad) {
        expect(notice).toMatch(/for comparison/);
        expect(notice).toContain("(the Pipeline's SFT model (nano, 40 steps), seed 0)");
        expect(notice).toContain("Its checkpoint was not loaded (another experiment).");
      }
    }
    usePipelineStore.setState({ handedOff: null });
  });

  it("pairs each run file with its own checkpoint, and loads none that belongs to another run", async () => {
    const spec = defaultExperiment();
    const fileOf = (i: number, step: number) =>
      runFileJson(spec, { spec: spec.runs[i], status: "paused", step, history: points(step), markers: [] });
    const loads: [string, string][] = [];
    const deps = {
      addRun: async (r: RunSpec) => useLab.getState().upsertRun(r),
      loadRunCheckpoint: async (id: string, b: Uint8Array) => {
        loads.push([id, decodeSafetensors(b).metadata.run]);
      },
    };
    // A tester's pick: three run files, the checkpoints of DPO and GRPO (DPO's first).
    useLab.getState().setSpec(spec);
    const notice = await importRunFiles(
      [
        file("ppo.run.json", fileOf(0, 4)),
        file("dpo.run.json", fileOf(1, 4)),
        file("grpo.run.json", fileOf(2, 4)),
        weightsOf("dpo.safetensors", { algo: "dpo", run: "DPO" }),
        weightsOf("grpo.safetensors", { algo: "grpo", run: "GRPO" }),
      ],
      deps,
    );
    const labels = (id: string) => useLab.getState().runs[id]?.spec.label;
    expect(loads.map(([id, run]) => [labels(id), run])).toEqual([
      ["DPO (imported)", "DPO"],
      ["GRPO (imported)", "GRPO"],
    ]);
    const ppo = Object.values(useLab.getState().runs).find((r) => r.spec.label === "PPO (imported)");
    expect(ppo?.comparison).toBe(true);
    expect(notice).toMatch(
      /Added PPO \(imported\).*for comparison.*Imported DPO \(imported\).*Imported GRPO/,
    );
    // One run file with another run's checkpoint, or one saved at another step: not loaded, and said why.
    for (const [meta, why] of [
      [{ algo: "grpo", run: "GRPO" }, 'it holds the weights of a grpo run ("GRPO"), not of this ppo run'],
      [{ steps: "25" }, "it was saved at step 25 and the run file's curves end at step 4"],
      [{ seed: "3" }, "it was trained with seed 3, the run file with seed 0"],
    ] as const) {
      useLab.getState().setSpec(spec);
      loads.length = 0;
      const one = await importRunFiles(
        [file("ppo.run.json", fileOf(0, 4)), weightsOf("x.safetensors", meta)],
        deps,
      );
      expect(loads).toEqual([]);
      expect(one).toContain(`Its checkpoint was not loaded: ${why}`);
    }
    // A file whose task this lab does not know: compared, not trained, and not said to come from the default.
    useLab.getState().setSpec(spec);
    loads.length = 0;
    const chess = JSON.parse(fileOf(0, 4));
    chess.experiment.task = "chess";
    const unknown = await importRunFiles(
      [file("ppo.run.json", JSON.stringify(chess)), weightsOf("ppo.safetensors")],
      deps,
    );
    expect(loads).toEqual([]);
    expect(unknown).toMatch(/for comparison/);
    expect(unknown).toContain("does not say where it trained in terms this lab knows (experiment.task");
    expect(unknown).not.toContain("It was trained on sentiment");
    // An unreadable checkpoint is named.
    useLab.getState().setSpec(spec);
    const cut = await importRunFiles(
      [file("ppo.run.json", fileOf(0, 4)), file("x.safetensors", "cut")],
      deps,
    );
    expect(cut).toMatch(/for comparison.*x\.safetensors could not be read/);
  });

  it("shows a run whose checkpoint fails to load for comparison, after the worker has dropped it", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const removed: string[] = [];
    const notice = await importRunFiles(
      [file("ppo.run.json", exported(defaultExperiment())), weightsOf("ppo.safetensors")],
      {
        addRun: async (spec) => {
          useLab.getState().upsertRun(spec);
        },
        loadRunCheckpoint: async () => {
          throw new Error("header length 5472 exceeds the file (3000 bytes)");
        },
        // As the page's: the removal lands a moment later (after the worker answers).
        removeRun: (id) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              removed.push(id);
              useLab.getState().removeRun(id);
              resolve();
            }, 5),
          ),
      },
    );
    await new Promise((r) => setTimeout(r, 20));
    const s = useLab.getState();
    expect(removed).toEqual(["ppo-2"]);
    expect(s.runs["ppo-2"]?.comparison).toBe(true);
    expect(s.runs["ppo-2"].history).toHaveLength(4);
    expect(s.spec.runs.map((r) => r.id)).toContain("ppo-2");
    expect(notice).toMatch(/for comparison.*did not load \(header length 5472/);
  });

  it("keeps a comparison run across reloads as curves, out of the worker and out of links", async () => {
    const name = newDbName();
    session = await openLab(fakeDeps(name).deps);
    await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    await session.autosaver?.flush();
    writeUrlNow();
    const linked = specFromLocation(page.loc as unknown as Location, defaultExperiment).spec;
    expect(linked.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1", "grpo-1"]); // the link leaves it out
    for (const hash of [page.loc.hash, ""]) {
      session.stop();
      setHash(hash); // a reload of the page's own link, then of the bare address
      const started: string[][] = [];
      const f = fakeDeps(name);
      session = await openLab({
        ...f.deps,
        start: async (spec: ExperimentSpec, p?: PipelineModels) => {
          started.push(spec.runs.map((r) => r.id));
          await f.deps.start(spec, p);
        },
      });
      expect(started).toEqual([["ppo-1", "dpo-1", "grpo-1"]]); // the worker never gets it
      const st = useLab.getState();
      expect(st.spec.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1", "grpo-1", "ppo-2"]);
      expect(st.runs["ppo-2"].comparison).toBe(true);
      expect(st.runs["ppo-2"].history).toHaveLength(4);
      expect(st.notice ?? "").not.toMatch(/start over|starts over/);
      await session.autosaver?.flush();
    }
    // A reload of the same experiment keeps nothing under Recent experiments (the run is still open)…
    let db = await openLabPersistence(name);
    expect(await db.archive.list()).toEqual([]);
    db.close();
    // …another experiment opening in its place keeps it there, though nothing of the lab trained.
    session.stop();
    setHash(`#${encode({ ...defaultExperiment(), seed: 5 })}`);
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().notice).toMatch(
      /The experiment open before \(.*: 1 run imported for comparison\) is kept/,
    );
    db = await openLabPersistence(name);
    const kept = await db.archive.list();
    expect(kept.map((e) => e.spec.seed)).toEqual([defaultExperiment().seed]);
    expect(kept[0].runs.find((r) => r.label === "PPO (imported)")?.comparison).toBe(true);
    // Reopened (as Recent experiments does: swap it in, open its link), its curves are drawn again.
    await session.autosaver?.flush();
    session.stop();
    const spec = await db.archive.swapIn(kept[0].id);
    db.close();
    setHash(`#${encode(spec)}`);
    session = await openLab(fakeDeps(name).deps);
    const back = useLab.getState();
    expect(back.spec.seed).toBe(defaultExperiment().seed);
    expect(back.runs["ppo-2"]?.comparison).toBe(true);
    expect(back.runs["ppo-2"].history).toHaveLength(4);
  });

  it("brings back a lab of 12 runs with one imported for comparison among them, whole and without a notice", async () => {
    const name = newDbName();
    const base = defaultExperiment();
    const own = Array.from({ length: MAX_RUNS }, (_, i) => ({
      ...base.runs[i % 3],
      id: `r${i}`,
      label: `Run ${i}`,
    }));
    const compared = { ...base.runs[0], id: "cmp", label: "Imported" };
    const db = await openLabPersistence(name);
    await db.saveExperiment({ ...base, runs: [...own.slice(0, 11), compared, own[11]] });
    await db.saveRun({
      spec: compared,
      status: "paused",
      step: 4,
      history: points(4),
      markers: [],
      comparison: true,
    });
    db.close();
    session = await openLab(fakeDeps(name).deps);
    const st = useLab.getState();
    expect(st.spec.runs.map((r) => r.id).sort()).toEqual([...own.map((r) => r.id), "cmp"].sort());
    expect(st.runs.cmp.comparison).toBe(true);
    expect(st.notice ?? "").not.toMatch(/reset|dropped/);
  });

  it("refuses files that are not run files, with a notice", async () => {
    expect(await importRunFiles([file("x.csv", "a,b")])).toMatch(/needs a run file/);
    expect(await importRunFiles([file("x.json", "{nope")])).toMatch(/not JSON/);
  });
});
