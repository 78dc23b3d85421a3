/**
 * Stopping a Pipeline stage and leaving the page while one trains, on the page side (src/ui/lab/pipeline_actions.ts,
 * ./pipeline_guard.ts, ./pipeline_saver.ts, ./PipelineControls.tsx), in Node: the stubbed page of
 * ./session_page.ts and a fake worker stage that trains until asked to stop (as src/lab/pipeline/stages.ts: the
 * step in progress ends, then the stage returns the steps it reached).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import {
  type PipelineProgress,
  type PipelineSettings,
  type PipelineStage,
  pipelineSettings,
} from "../../src/lab/pipeline/fields";
import { encode } from "../../src/lab/url";
import { labClient } from "../../src/ui/client";
import { labActions } from "../../src/ui/lab/actions";
import { Progress } from "../../src/ui/lab/PipelineControls";
import { pipelineActions } from "../../src/ui/lab/pipeline_actions";
import {
  experimentKey,
  guardTraining,
  type MarkerStorage,
  TRAINING_KEY,
  takeInterrupted,
} from "../../src/ui/lab/pipeline_guard";
import {
  DEFAULT_PIPELINE_SETTINGS,
  stoppedEarly,
  trainingLine,
  usePipelineStore,
} from "../../src/ui/lab/pipeline_store";
import { leaveFor, recentExperiments } from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { fakeDeps, newDbName, pipelineModels, setHash, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});
afterEach(() => vi.restoreAllMocks());

/** A Map-backed Storage (the tab's sessionStorage), put on the stubbed window. */
function tabStorage(): MarkerStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  const store = {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
  (window as unknown as { sessionStorage: MarkerStorage }).sessionStorage = store;
  return store;
}

/**
 * A worker stage: reports a step every tick until `pauseAt`, then waits there (a slow step) until asked to stop;
 * the step in progress then ends and the stage returns the steps reached.
 */
function fakeWorker(pauseAt: number) {
  let stop = () => {};
  const stopAsked = new Promise<void>((r) => {
    stop = r;
  });
  let asked = false;
  vi.spyOn(labClient, "stopPipelineStage").mockImplementation(async () => {
    asked = true;
    stop();
    return "sft";
  });
  vi.spyOn(labActions, "pipelineStage").mockImplementation(
    async (stage: PipelineStage, s: Partial<PipelineSettings>, onProgress: (p: PipelineProgress) => void) => {
      const planned = (stage === "sft" ? s.sftSteps : s.rmSteps) ?? 1;
      for (let step = 1; step <= planned; step++) {
        if (step === pauseAt + 1) await stopAsked;
        else await new Promise((r) => setTimeout(r, 0));
        onProgress({ stage, step, steps: planned, loss: 2 - step / planned, gradNorm: 1 });
        if (asked) return { stage, steps: step, planned, firstLoss: 2, lastLoss: 1, seconds: 3 };
      }
      return { stage, steps: planned, planned, firstLoss: 2, lastLoss: 1, seconds: 9 };
    },
  );
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe("stopping a Pipeline stage on the page", () => {
  it("keeps its model: the stage is done at the step it reached, says so, and is saved", async () => {
    const name = newDbName();
    const f = fakeDeps(name);
    // The worker's models once the stage has stopped (the saver asks for them when it ends).
    f.deps.pipelineModels = async () => ({
      ...pipelineModels(),
      sft: { steps: 71, params: new Float32Array(2) },
    });
    session = await openLab(f.deps);
    tabStorage();
    fakeWorker(70);
    usePipelineStore.getState().setSettings({ sftSteps: 400 });
    const trained = pipelineActions.train("sft");
    await until(() => usePipelineStore.getState().sft.points.length === 70);
    const st = usePipelineStore.getState();
    expect(trainingLine(st)).toBe("SFT training in progress (step 70 of 400)");
    const stopped = pipelineActions.stop();
    expect(usePipelineStore.getState().stopping).toBe("sft");
    await stopped;
    await trained;
    const p = usePipelineStore.getState();
    expect(p.stopping).toBeNull();
    expect(p.sft.status).toBe("done");
    expect(p.sft.result).toMatchObject({ steps: 71, planned: 400 });
    expect(stoppedEarly(p.sft)).toBe(true);
    expect(trainingLine(p)).toBeNull();
    const html = renderToStaticMarkup(createElement(Progress, { stage: "sft", st: p.sft }));
    expect(html).toContain("stopped at step 71 of 400 · 3 s");
    expect(html).toContain('data-status="done"');
    expect(html).toContain('data-stopped="true"');
    // A stopped stage is a finished one: the saver keeps it (and its view says where it stopped).
    const db = await openLabPersistence(name);
    for (let i = 0; i < 100; i++) {
      const saved = await db.loadPipeline();
      if (saved?.models.sft?.steps === 71) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const saved = await db.loadPipeline();
    expect(saved?.models.sft?.steps).toBe(71);
    expect(
      (saved?.view as { sft?: { result?: { planned?: number } } } | undefined)?.sft?.result?.planned,
    ).toBe(400);
    // Nothing trains now: the page leaves without asking, and a reload says nothing was interrupted.
    const leave = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(false);
    expect(takeInterrupted(experimentKey(useLab.getState().spec))).toBeNull();
    db.close();
  });

  it("leaving for another experiment stops a stage in training first, so the experiment it leaves keeps its model", async () => {
    const name = newDbName();
    const f = fakeDeps(name);
    f.deps.pipelineModels = async () => ({
      ...pipelineModels(),
      sft: { steps: 45, params: new Float32Array(2) },
    });
    session = await openLab(f.deps);
    fakeWorker(44);
    usePipelineStore.getState().setSettings({ sftSteps: 300 });
    void pipelineActions.train("sft");
    await until(() => usePipelineStore.getState().sft.points.length === 44);
    // As the dialog's "Start new experiment" does (src/ui/lab/ExperimentDialog.tsx apply).
    const assign = vi.fn();
    (location as unknown as { assign: (url: string) => void }).assign = assign;
    const next = `http://lab.test/#${encode({ ...defaultExperiment(), seed: 5 })}`;
    // Leaving (Change… after its own Stop, a lesson, a pasted link) ends the stage first, then saves and goes.
    await leaveFor(next);
    expect(usePipelineStore.getState().sft.result).toMatchObject({ steps: 45, planned: 300 });
    expect(assign).toHaveBeenCalledWith(next);
    // The new experiment's page keeps the one it replaces, with its Pipeline, under Recent experiments.
    session.stop();
    setHash(next.slice(next.indexOf("#")));
    session = await openLab(fakeDeps(name).deps);
    const kept = await recentExperiments();
    expect(kept.map((e) => [e.spec.seed, e.pipeline])).toEqual([[0, true]]);
    expect(useLab.getState().notice).toMatch(/Pipeline models\) is kept/);
  });

  it("asks before the page unloads while a stage trains; a reload then says where it was interrupted", async () => {
    const name = newDbName();
    session = await openLab(fakeDeps(name).deps);
    const store = tabStorage();
    fakeWorker(71);
    usePipelineStore.getState().setSettings({ sftSteps: 400 });
    void pipelineActions.train("sft");
    expect(JSON.parse(store.map.get(TRAINING_KEY) ?? "{}")).toMatchObject({
      stage: "sft",
      step: 0,
      steps: 400,
    });
    await until(() => usePipelineStore.getState().sft.points.length === 71);
    const leave = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(true);
    window.dispatchEvent(new Event("pagehide"));
    expect(JSON.parse(store.map.get(TRAINING_KEY) ?? "{}")).toMatchObject({ step: 71 });
    // The reload: a new page (the worker and its stage are gone, the view at its default settings), the same
    // tab's storage.
    session.stop();
    usePipelineStore.getState().setSettings(DEFAULT_PIPELINE_SETTINGS);
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().notice).toContain(
      "The Pipeline's SFT training was interrupted at step 71 of 400 by the reload; train it again (its settings are back).",
    );
    expect(usePipelineStore.getState().settings.sftSteps).toBe(400);
    expect(store.map.has(TRAINING_KEY)).toBe(false);
    // Training it again answers that notice: it goes.
    fakeWorker(3);
    usePipelineStore.getState().setSettings({ sftSteps: 2 });
    await pipelineActions.train("sft");
    expect(useLab.getState().notice ?? "").not.toContain("was interrupted");
  });
});

describe("the training guard", () => {
  it("asks only while the stage trains, and ends cleanly", () => {
    const page = new EventTarget();
    const map = new Map<string, string>();
    const store = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    let training = true;
    const guard = guardTraining("rm", 20, "arithmetic/nano/0", undefined, () => training, store, page);
    guard.step(7);
    const ask = () => {
      const e = new Event("beforeunload", { cancelable: true });
      page.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(ask()).toBe(true);
    training = false; // a new worker cleared the view
    expect(ask()).toBe(false);
    training = true;
    page.dispatchEvent(new Event("pagehide"));
    expect(takeInterrupted("sentiment/sft/0", store)).toEqual({
      line: "The Pipeline's reward model training in the experiment open before was interrupted at step 7 of 20 when the page left it; its model so far was not kept.",
      settings: null,
    });
    expect(takeInterrupted("arithmetic/nano/0", store)).toBeNull(); // taken
    guard.end();
    guard.end();
    expect(ask()).toBe(false);
    expect(map.size).toBe(0);
    // Before its first step; and unreadable markers say nothing.
    guardTraining("sft", 40, "a/b/1", undefined, () => true, store, page);
    expect(takeInterrupted("a/b/1", store)).toEqual({
      line: "The Pipeline's SFT training was interrupted before its first step by the reload; train it again.",
      settings: null,
    });
    // The settings it trained with come back (checked: a tampered value leaves the defaults).
    const settings = pipelineSettings({ sftSteps: 400, size: "tiny" });
    guardTraining("sft", 400, "a/b/1", settings, () => true, store, page).step(71);
    page.dispatchEvent(new Event("pagehide"));
    expect(takeInterrupted("a/b/1", store)).toEqual({
      line: "The Pipeline's SFT training was interrupted at step 71 of 400 by the reload; train it again (its settings are back).",
      settings,
    });
    guardTraining("sft", 400, "a/b/1", { ...settings, sftSteps: -5 }, () => true, store, page);
    expect(takeInterrupted("a/b/1", store)?.settings).toBeNull();
    map.set(TRAINING_KEY, "{oops");
    expect(takeInterrupted("a/b/1", store)).toBeNull();
    expect(takeInterrupted("a/b/1", undefined)).toBeNull();
  });
});
