/**
 * The Pipeline's session across reloads and hand-offs (src/ui/lab/session.ts), in Node: the stubbed page of ./session_page.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import { encode } from "../../src/lab/url";
import { labActions } from "../../src/ui/lab/actions";
import { canKeepRuns, whyNotKept } from "../../src/ui/lab/keep_open";
import { pipelineActions } from "../../src/ui/lab/pipeline_actions";
import { DEFAULT_PIPELINE_SETTINGS, usePipelineStore } from "../../src/ui/lab/pipeline_store";
import { onRecentChange, recentExperiments } from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { doneStage, fakeDeps, newDbName, pipelineModels, points, setHash, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

describe("the Pipeline across reloads", () => {
  it("comes back with its session: the worker gets its models, the view its curves", async () => {
    const name = newDbName();
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

  it("takes its settings from the link whole, and saves a change of settings with its models", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    const view = {
      settings: { ...DEFAULT_PIPELINE_SETTINGS, sftSteps: 400 },
      sft: doneStage("sft", 4),
      rm: doneStage("rm", 3),
      handedOff: null,
    };
    await db.savePipeline({ models: pipelineModels(), view });
    // A link with the sharer's settings: theirs, not a mix with the ones saved here (sftSteps 400).
    setHash(`#${encode(defaultExperiment(), undefined, { rmSteps: 100 })}`);
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(usePipelineStore.getState().settings).toEqual({ ...DEFAULT_PIPELINE_SETTINGS, rmSteps: 100 });
    expect(usePipelineStore.getState().sft.status).toBe("done");
    // A change of settings alone is saved with the models: a link carrying only defaults reopens it.
    usePipelineStore.getState().setSettings({ sftSteps: 40, rmSteps: 30 });
    const settingsSaved = async () => {
      for (let i = 0; i < 50; i++) {
        const v = (await db.loadPipeline())?.view as { settings?: { rmSteps?: number } } | undefined;
        if (v?.settings?.rmSteps === 30) return v.settings;
        await new Promise((r) => setTimeout(r, 10));
      }
      return null;
    };
    expect(await settingsSaved()).toEqual({ ...DEFAULT_PIPELINE_SETTINGS, rmSteps: 30 });
    // Back to all defaults: the link then carries none, and the saved settings must be the defaults too.
    usePipelineStore.getState().setSettings({ rmSteps: 20 });
    for (let i = 0; i < 50; i++) {
      const v = (await db.loadPipeline())?.view as { settings?: { rmSteps?: number } } | undefined;
      if (v?.settings?.rmSteps === 20) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    session.stop();
    setHash(`#${encode(defaultExperiment())}`);
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(usePipelineStore.getState().settings).toEqual(DEFAULT_PIPELINE_SETTINGS);
    db.close();
  });

  it("is forgotten when a link opens another experiment, or when its models are for another task", async () => {
    const name = newDbName();
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
    const name = newDbName();
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
    const name = newDbName();
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
    const name = newDbName();
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
      ...fakeDeps(newDbName()).deps,
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
      expect(whyNotKept()).toBe("this browser's storage is unavailable");
      await pipelineActions.use();
      expect(handOff).toHaveBeenCalledOnce();
      expect(useLab.getState().notice).toMatch(/Press Play to train\.$/);
    } finally {
      handOff.mockRestore();
    }
  });

  it("a saved view it cannot read whole: bad settings keep their defaults, a malformed stage is not shown, said", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    const rm = { ...doneStage("rm", 3), result: { stage: "rm", steps: "three" } }; // a result that is none
    const sft = { ...doneStage("sft", 4), points: [{ stage: "sft", step: 1, steps: 4, loss: 2 }, null] };
    const settings = { sftSteps: "lots", size: "huge", sftLr: -1, rmSteps: 30 };
    await db.savePipeline({ models: pipelineModels(), view: { settings, sft, rm, handedOff: null } });
    db.close();
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    const p = usePipelineStore.getState();
    // Before: {"size":"huge","sftSteps":"lots","sftLr":-1,…} in the store, the controls and the link.
    expect(p.settings).toEqual({ ...DEFAULT_PIPELINE_SETTINGS, rmSteps: 30 });
    expect(p.sft.status).toBe("done");
    expect(p.sft.points).toHaveLength(1);
    expect(p.rm.status).toBe("idle");
    const notice = useLab.getState().notice ?? "";
    expect(notice).toMatch(
      /The Pipeline view saved in this browser could not be read whole: the Pipeline's “SFT steps” must be .*got "lots"; using the default 40; .*“model size” .*got "huge"/,
    );
    // The reward model is stored, but its stage shows as not trained: not "its models are back".
    expect(notice).toMatch(
      /The reward model stored with it cannot be shown without its stage: train it again/,
    );
    expect(notice).toContain("the SFT stage's curves had 1 unreadable point; left out");
    expect(notice).toContain("the reward model stage's result is not readable; shown as not trained.");
    // The view as repaired was written back: the next load says nothing (before: the same notice every load).
    await session.stop();
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(useLab.getState().notice ?? "").not.toContain("could not be read whole");
    expect(usePipelineStore.getState().settings).toEqual({ ...DEFAULT_PIPELINE_SETTINGS, rmSteps: 30 });
    expect(usePipelineStore.getState().sft.points).toHaveLength(1);
  });

  it("a saved view with no stage it can read is written back with its models (the write-back deleted them)", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    // Its only finished stage's result is not one this page reads (another version's, say); both models stored.
    const sft = { ...doneStage("sft", 4), result: { stage: "sft", steps: "four" } };
    await db.savePipeline({ models: pipelineModels(), view: { sft, handedOff: null } });
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(useLab.getState().notice).toMatch(
      /could not be read whole: .* The SFT and reward models stored with it cannot be shown without their stage/,
    );
    await session.stop();
    // Before: no stage read as done, so the write-back was savePipeline(null): the record and its models gone.
    const kept = await db.loadPipeline();
    expect(kept?.models).toEqual(pipelineModels());
    expect((kept?.view as { sft?: { status: string } } | undefined)?.sft?.status).toBe("idle");
    // … and the next load reads it whole: the notice does not come again.
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(useLab.getState().notice ?? "").not.toContain("could not be read whole");
    db.close();
  });

  it("a saved view that is no object, or a Pipeline without its models, opens the lab (they crashed it)", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    await db.savePipeline({ models: pipelineModels(), view: null });
    // Before: "Cannot read properties of null (reading 'settings')".
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(usePipelineStore.getState().settings).toEqual(DEFAULT_PIPELINE_SETTINGS);
    expect(usePipelineStore.getState().sft.status).toBe("idle");
    // Its stored models are not back (their stages show as not trained): the notice says so, not "its models are back".
    expect(useLab.getState().notice).toMatch(
      /could not be read whole: the view is null; .* The SFT and reward models stored with it cannot be shown without their stage: train them again to use them in RL\./,
    );
    await session.stop();
    // The view as shown is written back, its models kept: the next load is quiet.
    expect((await db.loadPipeline())?.models).toEqual(pipelineModels());
    session = await openLab(fakeDeps(name, true, pipelineModels()).deps);
    expect(useLab.getState().notice ?? "").not.toContain("could not be read whole");
    session.stop();
    await db.savePipeline({ view: {} } as unknown as Parameters<typeof db.savePipeline>[0]);
    // Before: "Cannot read properties of undefined (reading 'task')".
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(f.started).toEqual([undefined]);
    expect(useLab.getState().phase).toBe("ready");
    db.close();
  });
});
