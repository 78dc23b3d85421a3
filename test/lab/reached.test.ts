/**
 * The steps reached when the page was hidden (src/lab/reached.ts): kept by the autosaver on pagehide, taken by
 * the next opening, and named in the restore notice when the curves after the checkpoint were not saved.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import type { MetricPoint } from "../../src/lab/protocol";
import {
  forgetReached,
  pageStorage,
  REACHED_KEY,
  type ReachedStorage,
  saveReached,
  takeReached,
} from "../../src/lab/reached";
import { planRestore } from "../../src/lab/restore";
import { useLab } from "../../src/ui/lab_store";

/** A Storage over a Map. */
function memoryStore(): ReachedStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const points = (n: number): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    step: i + 1,
    samples: 8 * (i + 1),
    tokens: 80 * (i + 1),
    metrics: {},
  }));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("steps reached", () => {
  const spec = defaultExperiment();

  it("come back once for the same experiment and runs, and not for another seed or a renamed run", () => {
    const store = memoryStore();
    saveReached(store, spec, { "ppo-1": 21, "dpo-1": 0, "grpo-1": 20 });
    expect(takeReached(store, spec)).toEqual({ "ppo-1": 21, "grpo-1": 20 }); // step 0 is no step
    expect(takeReached(store, spec)).toEqual({}); // taken
    saveReached(store, spec, { "ppo-1": 21 });
    expect(takeReached(store, { ...spec, seed: spec.seed + 1 })).toEqual({});
    saveReached(store, spec, { "ppo-1": 21 });
    const renamed = {
      ...spec,
      runs: spec.runs.map((r) => (r.id === "ppo-1" ? { ...r, label: "PPO 2" } : r)),
    };
    expect(takeReached(store, renamed)).toEqual({});
    // Ids and labels repeat across experiments ("ppo-1", "PPO"): another β is another run.
    saveReached(store, spec, { "ppo-1": 21 });
    const otherBeta = {
      ...spec,
      runs: spec.runs.map((r) => (r.id === "ppo-1" ? { ...r, config: { beta: 0.3 } } : r)),
    };
    expect(takeReached(store, otherBeta)).toEqual({});
    saveReached(store, spec, { "ppo-1": 21 });
    forgetReached(store);
    expect(takeReached(store, spec)).toEqual({});
  });

  it("never throw: a full or broken storage, a record that is not one", () => {
    const full: ReachedStorage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {},
    };
    expect(() => saveReached(full, spec, { "ppo-1": 3 })).not.toThrow();
    expect(takeReached(full, spec)).toEqual({});
    const store = memoryStore();
    const rec = (run: unknown) => JSON.stringify({ ...spec, runs: { "ppo-1": run } });
    for (const junk of [
      "{",
      "null",
      "[]",
      '{"task":1}',
      rec(["PPO", 3]),
      rec({ spec: spec.runs[0], step: -2 }),
      rec({ spec: { label: spec.runs[0].label }, step: 3 }),
    ]) {
      store.data.set(REACHED_KEY, junk);
      expect(takeReached(store, spec), junk).toEqual({});
    }
  });

  it("name how far a run had got when its curves after the checkpoint were not saved either", () => {
    const ppo = spec.runs[0];
    const ck = { runId: ppo.id, bytes: new Uint8Array(2), step: 13, samples: 104, tokens: 1040, savedAt: 0 };
    const session = {
      spec,
      runs: [
        { spec: ppo, status: "paused" as const, step: 13, history: points(13), markers: [], checkpoint: ck },
      ],
    };
    expect(planRestore(spec, session, true).notice).toBeNull(); // the saved curves end at the checkpoint
    const plan = planRestore(spec, session, true, { [ppo.id]: 21 });
    expect(plan.notice).toMatch(new RegExp(`Resumed ${ppo.label} at step 13 \\(it had reached 21\\)`));
    expect(plan.runs[0].step).toBe(13);
    // Saved curves further than the record: the curves say it.
    const further = { ...session, runs: [{ ...session.runs[0], step: 16, history: points(16) }] };
    // …as a floor: a record older than the curves, or none (a new tab has its own sessionStorage), says "at least".
    expect(planRestore(spec, further, true, { [ppo.id]: 14 }).notice).toMatch(/it had reached at least 16\)/);
    expect(planRestore(spec, further, true).notice).toMatch(/it had reached at least 16\)/);
  });

  it("are written by the autosaver when the page is hidden, runs imported for comparison left out", async () => {
    const target = new EventTarget();
    vi.stubGlobal("window", target);
    const db = await openLabPersistence("reached-autosave");
    useLab.getState().setSpec(spec);
    useLab.getState().applyUpdates([
      { runId: "ppo-1", status: "paused", step: 5, points: points(5) },
      { runId: "grpo-1", status: "paused", step: 4, points: points(4) },
    ]);
    const store = memoryStore();
    const saver = startAutosave({
      persistence: db,
      source: useLab,
      historyEveryMs: 60_000,
      reachedStore: store,
    });
    // A tab closed after "Leave site?" fires pagehide while the page still reads "visible": recorded all the same
    // (it was not: the reload's notice said the saved curves' step, 13, for runs that had reached 15).
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    try {
      target.dispatchEvent(new Event("pagehide"));
      expect(takeReached(store, spec)).toEqual({ "ppo-1": 5, "grpo-1": 4 });
    } finally {
      vi.unstubAllGlobals();
    }
    await saver.stop();
    db.close();
  });

  it("are the tab's own (sessionStorage): another tab opening the experiment does not read this tab's record", () => {
    const local = memoryStore();
    const session = memoryStore();
    vi.stubGlobal("window", { localStorage: local, sessionStorage: session });
    try {
      expect(pageStorage()).toBe(session);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(pageStorage()).toBeUndefined(); // no window (Node, a worker)
  });
});
