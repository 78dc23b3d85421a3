/**
 * Opening the lab (src/ui/lab/session.ts), the URL sync and run import in Node: `location`, `history` and
 * `window` are small stubs, IndexedDB is fake-indexeddb, the worker is a fake that behaves like the client
 * (start → setSpec + phase "ready").
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { runFileJson } from "../../src/lab/export/run_file";
import { openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec, MetricPoint, PipelineModels, RunCounters } from "../../src/lab/protocol";
import { encode, specFromLocation } from "../../src/lab/url";
import { PRESETS } from "../../src/model/config";
import { labActions } from "../../src/ui/lab/actions";
import { importRunFiles } from "../../src/ui/lab/import_run";
import { pipelineActions } from "../../src/ui/lab/pipeline_actions";
import { DEFAULT_PIPELINE_SETTINGS, usePipelineStore } from "../../src/ui/lab/pipeline_store";
import {
  canKeepRuns,
  leaveFor,
  onRecentChange,
  openRecent,
  recentExperiments,
} from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { share, writeUrlNow } from "../../src/ui/lab/url_sync";
import { useLab } from "../../src/ui/lab_store";

const points = (n: number): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    step: i + 1,
    samples: 8 * (i + 1),
    tokens: 50 * (i + 1),
    metrics: { reward: i },
  }));

let loc: { hash: string; href: string; reload: () => void };
let dbName = 0;
let session: LabSession | null = null;

function setHash(hash: string) {
  loc.hash = hash;
  loc.href = `http://lab.test/${hash}`;
}

beforeEach(() => {
  loc = { hash: "", href: "http://lab.test/", reload: vi.fn() };
  vi.stubGlobal("location", loc);
  vi.stubGlobal("history", {
    state: null,
    replaceState: (_s: unknown, _t: string, url: string) => {
      loc.href = url;
      loc.hash = url.slice(url.indexOf("#"));
    },
  });
  vi.stubGlobal("window", new EventTarget());
  useLab.setState({ phase: "idle", notice: null, playing: false });
});

afterEach(() => {
  session?.stop();
  session = null;
  vi.unstubAllGlobals();
});

/** A fake worker side: start behaves like LabClient.start; records checkpoint loads. */
function fakeDeps(name: string, ok = true, models: PipelineModels | null = null) {
  const loads: [string, RunCounters][] = [];
  const started: (PipelineModels | undefined)[] = [];
  return {
    loads,
    started,
    deps: {
      start: async (spec: ExperimentSpec, pipeline?: PipelineModels) => {
        started.push(pipeline);
        usePipelineStore.getState().clear(); // as LabClient.start
        useLab.getState().setSpec(spec);
        useLab.getState().setPhase(ok ? "ready" : "error", ok ? null : "no GPU");
      },
      exportCheckpoint: async () => new Uint8Array([9, 9]),
      loadRunCheckpoint: async (id: string, _b: Uint8Array, at: RunCounters) => {
        loads.push([id, at]);
      },
      openPersistence: () => openLabPersistence(name),
      pipelineModels: async () => models,
    },
  };
}

/** Pipeline models of the default task (tiny arrays: the session does not look inside). */
const pipelineModels = (task = defaultExperiment().task): PipelineModels => ({
  task,
  size: "nano",
  config: { ...PRESETS.nano, vocabSize: 8 },
  sft: { steps: 4, params: new Float32Array([1, 2]) },
  rm: { steps: 3, params: new Float32Array([3, 4]) },
  handed: { source: "pipeline: nano", policy: new Float32Array([1, 2]), rm: new Float32Array([3, 4]) },
});

/** A finished stage as the view shows it. */
const doneStage = (stage: "sft" | "rm", steps: number) => ({
  status: "done" as const,
  points: [{ stage, step: 1, steps, loss: 2 }],
  sample: null,
  evals: [],
  result: { stage, steps, firstLoss: 2, lastLoss: 1, seconds: 5 },
  error: null,
});

describe("the Pipeline across reloads", () => {
  it("comes back with its session: the worker gets its models, the view its curves", async () => {
    const name = `session-${dbName++}`;
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    const view = {
      settings: DEFAULT_PIPELINE_SETTINGS,
      sft: doneStage("sft", 4),
      rm: doneStage("rm", 3),
      handedOff: "pipeline: nano",
    };
    await db.savePipeline({ models: pipelineModels(), view });
    db.close();
    const f = fakeDeps(name, true, pipelineModels());
    session = await openLab(f.deps);
    expect(f.started).toHaveLength(1);
    expect(f.started[0]?.handed?.source).toBe("pipeline: nano");
    expect(Array.from(f.started[0]?.rm?.params ?? [])).toEqual([3, 4]);
    const p = usePipelineStore.getState();
    expect(p.sft.result?.steps).toBe(4);
    expect(p.rm.status).toBe("done");
    expect(p.handedOff).toBe("pipeline: nano");
  });

  it("is forgotten when a link opens another experiment, or when its models are for another task", async () => {
    const name = `session-${dbName++}`;
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    await db.savePipeline({ models: pipelineModels("arithmetic"), view: {} });
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(f.started).toEqual([undefined]); // the saved one is for another task
    expect(await db.loadPipeline()).toBeNull();
    session.stop();

    await db.savePipeline({ models: pipelineModels(), view: {} });
    setHash(`#${encode({ ...defaultExperiment(), seed: 3 })}`);
    const g = fakeDeps(name);
    session = await openLab(g.deps);
    expect(g.started).toEqual([undefined]);
    expect(await db.loadPipeline()).toBeNull();
    // … but kept, with the session it belonged to, under Recent experiments.
    const kept = await db.archive.list();
    expect(kept.map((e) => [e.spec.seed, e.pipeline])).toEqual([
      [0, true],
      [0, true],
    ]);
    expect(useLab.getState().notice).toMatch(/Pipeline models\) is kept/);
    db.close();
  });

  it("is saved when a stage finishes or a hand-off happens, and forgotten when the stages are cleared", async () => {
    const name = `session-${dbName++}`;
    const f = fakeDeps(name, true, pipelineModels());
    session = await openLab(f.deps);
    const db = await openLabPersistence(name);
    const saved = async () => {
      for (let i = 0; i < 50 && !(await db.loadPipeline()); i++) await new Promise((r) => setTimeout(r, 10));
      return db.loadPipeline();
    };
    usePipelineStore.getState().begin("sft");
    expect(await db.loadPipeline()).toBeNull(); // running: not saved
    usePipelineStore.getState().finish({ stage: "sft", steps: 4, firstLoss: 2, lastLoss: 1, seconds: 5 });
    const s1 = await saved();
    expect(s1?.models.sft?.steps).toBe(4);
    expect((s1?.view as { sft?: { status: string } } | undefined)?.sft?.status).toBe("done");
    usePipelineStore.getState().clear();
    for (let i = 0; i < 50 && (await db.loadPipeline()); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await db.loadPipeline()).toBeNull();
    db.close();
  });

  it("a hand-off keeps the trained experiment under Recent first; untrained runs are not kept", async () => {
    const name = `session-${dbName++}`;
    // The Change… dialog's list reads again when the lab starts saving and when an experiment is kept.
    let listChanged = 0;
    const stopListening = onRecentChange(() => listChanged++);
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(listChanged).toBe(1);
    // What the list held when the runs were handed over (the keep must come first).
    const keptAtHandOff: number[] = [];
    const handOff = vi.spyOn(labActions, "handOffPipeline").mockImplementation(async () => {
      keptAtHandOff.push((await recentExperiments()).length);
      return { model: "pipeline: nano (2 layers, C = 32, context 32) after 4 SFT steps", runs: [] };
    });
    try {
      await pipelineActions.use(); // nothing trained yet: nothing to keep
      expect(await recentExperiments()).toEqual([]);
      useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 4, points: points(4) }]);
      await pipelineActions.use();
      expect(keptAtHandOff).toEqual([0, 1]);
      expect(listChanged).toBe(2);
      const [kept, ...more] = await recentExperiments();
      expect(more).toEqual([]);
      expect(kept.runs.find((r) => r.label === "PPO")?.step).toBe(4);
      expect(useLab.getState().notice).toMatch(
        /Press Play to train\. The runs' earlier training \(PPO at step 4; Pipeline models\) is kept: reopen it from Change… → Recent experiments\.$/,
      );
      // Keeping fails (quota): the runs are not replaced.
      handOff.mockClear();
      const keep = vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(() => {
        throw new DOMException("quota", "QuotaExceededError");
      });
      await pipelineActions.use();
      keep.mockRestore();
      expect(handOff).not.toHaveBeenCalled();
      expect(useLab.getState().notice).toMatch(
        /^The runs were not handed the Pipeline's models: keeping their training first failed/,
      );
    } finally {
      handOff.mockRestore();
      stopListening();
    }
  });

  it("a hand-off right after stage 2 finishes keeps the new reward model, not the one saved before", async () => {
    const name = `session-${dbName++}`;
    let rmSteps = 3;
    const f = fakeDeps(name, true, null);
    // The worker's models come back slowly (as from a real worker), with the stage-2 model trained so far.
    f.deps.pipelineModels = async () => {
      await new Promise((r) => setTimeout(r, 50));
      const m = pipelineModels();
      return { ...m, rm: { steps: rmSteps, params: new Float32Array([3, 4]) } };
    };
    session = await openLab(f.deps);
    const db = await openLabPersistence(name);
    usePipelineStore.getState().finish({ stage: "rm", steps: 3, firstLoss: 2, lastLoss: 1, seconds: 5 });
    for (let i = 0; i < 50 && !(await db.loadPipeline()); i++) await new Promise((r) => setTimeout(r, 10));
    expect((await db.loadPipeline())?.models.rm?.steps).toBe(3);
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 4, points: points(4) }]);
    const savedAtHandOff: (number | undefined)[] = [];
    const handOff = vi.spyOn(labActions, "handOffPipeline").mockImplementation(async () => {
      savedAtHandOff.push((await db.loadPipeline())?.models.rm?.steps);
      return { model: "pipeline: nano", runs: [] };
    });
    try {
      rmSteps = 9; // stage 2 trained again and just finished; the hand-off follows at once
      usePipelineStore.getState().begin("rm");
      usePipelineStore.getState().finish({ stage: "rm", steps: 9, firstLoss: 2, lastLoss: 0.5, seconds: 7 });
      await pipelineActions.use();
      expect(savedAtHandOff).toEqual([9]);
      expect((await recentExperiments()).map((e) => e.pipeline)).toEqual([true]);
    } finally {
      handOff.mockRestore();
      db.close();
    }
  });

  it("without storage a hand-off discards the trained runs, as its confirmation says, and keeps nothing", async () => {
    session = await openLab({
      ...fakeDeps(`session-${dbName++}`).deps,
      openPersistence: async () => {
        throw new Error("IndexedDB is disabled");
      },
    });
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 4, points: points(4) }]);
    const handOff = vi
      .spyOn(labActions, "handOffPipeline")
      .mockResolvedValue({ model: "pipeline: nano", runs: [] });
    try {
      expect(canKeepRuns()).toBe(false);
      await pipelineActions.use();
      expect(handOff).toHaveBeenCalledOnce();
      expect(useLab.getState().notice).toMatch(/Press Play to train\.$/);
    } finally {
      handOff.mockRestore();
    }
  });
});

describe("opening the lab", () => {
  it("without a link: the saved experiment and its runs come back, resumed from their checkpoints", async () => {
    const name = `session-${dbName++}`;
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
    expect(loc.hash).toBe(`#${encode(spec, s.view)}`); // the URL now names the experiment
  });

  it("a bad link opens the defaults with a notice; a good one wins over the saved session", async () => {
    const name = `session-${dbName++}`;
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

  it("shows a link's experiment while storage is still being read", async () => {
    const linked = { ...defaultExperiment(), task: "arithmetic" as const, model: "nano" as const, seed: 4 };
    setHash(`#${encode(linked)}`);
    useLab.getState().setSpec(defaultExperiment());
    let release = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const f = fakeDeps(`session-${dbName++}`);
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
    const name = `session-${dbName++}`;
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().notice).toMatch(
      /^GRPO \(fork @ 3\) was a fork of a run trained where this link was made; a link carries settings, not weights/,
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
      const name = `session-${dbName++}`;
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
    const name = `session-${dbName++}`;
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
    const failed = fakeDeps(`session-${dbName++}`, false);
    session = await openLab(failed.deps);
    expect(session.autosaver).toBeNull();
  });

  it("keeps the hash in step with the store and shares the current link", async () => {
    session = await openLab(fakeDeps(`session-${dbName++}`).deps);
    useLab.getState().setView({ smoothing: 0.3 });
    writeUrlNow();
    expect(loc.hash).toBe(
      `#${encode(useLab.getState().spec, { xAxis: "step", klEstimator: "objective/kl", smoothing: 0.3 })}`,
    );
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    const r = await share();
    expect(r).toEqual({ url: loc.href, copied: true });
    expect(writeText).toHaveBeenCalledWith(loc.href);
    window.dispatchEvent(new Event("hashchange")); // a link pasted into the address bar
    await expect.poll(() => (loc.reload as ReturnType<typeof vi.fn>).mock.calls.length).toBe(1); // after saving
  });
});

describe("recent experiments", () => {
  /** A saved session of `spec` whose PPO trained 12 steps (checkpoint at 10). */
  async function savedTrained(name: string, spec: ExperimentSpec) {
    const db = await openLabPersistence(name);
    await db.saveExperiment(spec);
    await db.saveRun({ spec: spec.runs[0], status: "paused", step: 12, history: points(12), markers: [] });
    await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 10, samples: 80, tokens: 500 });
    return db;
  }

  it("keeps a trained experiment that a link replaces, and Open brings it back resumed", async () => {
    const name = `session-${dbName++}`;
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
    Object.assign(loc, { assign });
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

  it("says which runs of another experiment's link resume and which start over", async () => {
    const name = `session-${dbName++}`;
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
    const name = `session-${dbName++}`;
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
    const name = `session-${dbName++}`;
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
    Object.assign(loc, { assign });
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
    const name = `session-${dbName++}`;
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
      /^Resumed PPO at step 10 \(it had reached 12\): the last checkpoint; the steps after it were not saved yet/,
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
    const name = `session-${dbName++}`;
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
    Object.assign(loc, { assign: vi.fn() });
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
    const name = `session-${dbName++}`;
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
    const still = await db.load();
    expect(still?.spec.seed).toBe(5);
    expect(still?.runs.find((r) => r.spec.id === "ppo-1")?.checkpoint?.step).toBe(10);
  });

  it("forgets a checkpoint that did not resume, before anything is saved", async () => {
    const name = `session-${dbName++}`;
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
    db.close();
  });

  it("reloads on the hashchange that its own move to another link causes", async () => {
    session = await openLab(fakeDeps(`session-${dbName++}`).deps);
    const assign = vi.fn();
    Object.assign(loc, { assign });
    await leaveFor(`http://lab.test/#${encode({ ...defaultExperiment(), seed: 3 })}`);
    expect(assign).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event("hashchange")); // assign changed only the hash: no page load by itself
    expect(loc.reload).toHaveBeenCalledTimes(1);
  });

  it("a link to a kept experiment (Back, Forward) reopens it where its runs stopped", async () => {
    const name = `session-${dbName++}`;
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
    const name = `session-${dbName++}`;
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

describe("importing a run", () => {
  const file = (name: string, text: string) => ({
    name,
    text: async () => text,
    arrayBuffer: async () => new TextEncoder().encode(text).buffer as ArrayBuffer,
  });
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
      [file("ppo.run.json", exported(defaultExperiment())), file("ppo.safetensors", "weights")],
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
    expect(notice).toMatch(
      /continues from step 4, from its weights; its AdamW moments \(and a separate value model\) start afresh/,
    );
  });

  it("shows a run whose checkpoint fails to load for comparison, after the worker has dropped it", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const removed: string[] = [];
    const notice = await importRunFiles(
      [file("ppo.run.json", exported(defaultExperiment())), file("ppo.safetensors", "cut")],
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
    const name = `session-${dbName++}`;
    session = await openLab(fakeDeps(name).deps);
    await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    await session.autosaver?.flush();
    writeUrlNow();
    const linked = specFromLocation(loc as unknown as Location, defaultExperiment).spec;
    expect(linked.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1", "grpo-1"]); // the link leaves it out
    for (const hash of [loc.hash, ""]) {
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
  });

  it("refuses files that are not run files, with a notice", async () => {
    expect(await importRunFiles([file("x.csv", "a,b")])).toMatch(/needs a run file/);
    expect(await importRunFiles([file("x.json", "{nope")])).toMatch(/not JSON/);
  });
});
