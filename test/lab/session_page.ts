/**
 * The page the session tests open the lab in (src/ui/lab/session.ts): `location`, `history` and `window` are
 * small stubs, IndexedDB is fake-indexeddb, the worker is a fake that behaves like the client (start → setSpec +
 * phase "ready"). Used by test/lab/session*.test.ts.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec, MetricPoint, PipelineModels, RunCounters } from "../../src/lab/protocol";
import { PRESETS } from "../../src/model/config";
import { usePipelineStore } from "../../src/ui/lab/pipeline_store";
import { useLab } from "../../src/ui/lab_store";

export const points = (n: number): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    step: i + 1,
    samples: 8 * (i + 1),
    tokens: 50 * (i + 1),
    metrics: { reward: i },
  }));

/** The stubbed page's `location` (a fresh one before each test; `reload` is a mock). */
export const page = { loc: { hash: "", href: "http://lab.test/", reload: (): void => {} } };
let dbName = 0;

/** A database name no other test of this file has used. */
export const newDbName = () => `session-${dbName++}`;

export function setHash(hash: string) {
  page.loc.hash = hash;
  page.loc.href = `http://lab.test/${hash}`;
}

/**
 * Stubs `location`, `history` and `window` before each test of the calling file and resets the lab store;
 * `stop` (the file's open session) runs after each.
 */
export function stubPage(stop: () => void) {
  beforeEach(() => {
    const loc = { hash: "", href: "http://lab.test/", reload: vi.fn() };
    page.loc = loc;
    vi.stubGlobal("location", loc);
    vi.stubGlobal("history", {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        loc.href = url;
        loc.hash = url.slice(url.indexOf("#"));
      },
      pushState: (_s: unknown, _t: string, url: string) => {
        loc.href = url;
        loc.hash = url.slice(url.indexOf("#"));
      },
    });
    vi.stubGlobal("window", new EventTarget());
    // The page's server answers (leaving for another experiment asks it first: src/ui/lab/before_leaving.ts).
    vi.stubGlobal("fetch", async () => new Response(null, { status: 200 }));
    useLab.setState({ phase: "idle", notice: null, playing: false });
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
  });
}

/** A fake worker side: start behaves like LabClient.start; records checkpoint loads. */
export function fakeDeps(name: string, ok = true, models: PipelineModels | null = null) {
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
export const pipelineModels = (task = defaultExperiment().task): PipelineModels => ({
  task,
  size: "nano",
  config: { ...PRESETS.nano, vocabSize: 8 },
  sft: { steps: 4, params: new Float32Array([1, 2]) },
  rm: { steps: 3, params: new Float32Array([3, 4]) },
  handed: { source: "pipeline: nano", policy: new Float32Array([1, 2]), rm: new Float32Array([3, 4]) },
});

/** A finished stage as the view shows it. */
export const doneStage = (stage: "sft" | "rm", steps: number) => ({
  status: "done" as const,
  points: [{ stage, step: 1, steps, loss: 2 }],
  sample: null,
  evals: [],
  result: { stage, steps, firstLoss: 2, lastLoss: 1, seconds: 5 },
  error: null,
});

/** A tab's sessionStorage as a Map (`store`), for the crash card's request (src/ui/lab/safe_start.ts). */
export function tabStub() {
  const store = new Map<string, string>();
  return {
    store,
    tabStore: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
  };
}
