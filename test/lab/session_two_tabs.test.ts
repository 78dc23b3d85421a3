/**
 * A second tab opening the experiment while the first still saves (src/ui/lab/session.ts, persist.ts lastWrite):
 * what the first wrote while the second started its worker is what the second resumes (a reviewer's two tabs:
 * the second resumed from its first read, at step 5, and overwrote the first's checkpoint at step 15, keeping no
 * copy). A reload with no other tab writing reads the session once; storage whose open never answers is
 * given up on.
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { LabPersistence, openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { encode } from "../../src/lab/url";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { STORAGE_OPEN_MS } from "../../src/ui/lab/session_storage";
import { useLab } from "../../src/ui/lab_store";
import { fakeDeps, newDbName, points, setHash, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

/** The first tab: it claimed the session and saved PPO at step 6, its checkpoint at step 5. */
async function savingTab(name: string, spec: ExperimentSpec): Promise<LabPersistence> {
  const a = await openLabPersistence(name);
  await a.claim("tab-a");
  await a.saveExperiment(spec);
  await a.saveRun({ spec: spec.runs[0], status: "running", step: 6, history: points(6), markers: [] });
  await a.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 5, samples: 40, tokens: 200 });
  return a;
}

/** The page's deps on database `name`, with `meanwhile` done while its worker starts (another tab's writes). */
function whileStarting(name: string, meanwhile: () => Promise<void>) {
  const f = fakeDeps(name);
  const start = f.deps.start;
  f.deps.start = async (...args) => {
    await meanwhile();
    return start(...args);
  };
  return f;
}

describe("two tabs", () => {
  it("the experiment saved by another tab while this one starts resumes as that tab left it", async () => {
    const name = newDbName();
    const spec = defaultExperiment();
    const a = await savingTab(name, spec);
    const f = whileStarting(name, async () => {
      // The first tab pauses while this one starts its worker: its last save lands.
      await a.saveRun({ spec: spec.runs[0], status: "paused", step: 15, history: points(15), markers: [] });
      await a.saveCheckpoint("ppo-1", new Uint8Array([2]), { step: 15, samples: 120, tokens: 600 });
    });
    session = await openLab(f.deps);
    expect(f.loads).toEqual([["ppo-1", { step: 15, samples: 120, tokens: 600 }]]);
    expect(useLab.getState().runs["ppo-1"].step).toBe(15);
    expect(useLab.getState().runs["ppo-1"].history).toHaveLength(15);
    // This tab saves now: the first tab's later writes are refused, and what this one saves is step 15's.
    await expect(
      a.saveRun({ spec: spec.runs[0], status: "paused", step: 16, history: points(16), markers: [] }),
    ).rejects.toThrow(/another tab saves/);
    await session.autosaver?.flush();
    const db = await openLabPersistence(name);
    const saved = (await db.load())?.runs.find((r) => r.spec.id === "ppo-1");
    expect(saved?.checkpoint?.step).toBe(15);
    expect(saved?.history).toHaveLength(15);
  });

  it("a re-read between the other tab's curve and its checkpoint resumes at the older checkpoint, curve cut there", async () => {
    const name = newDbName();
    const spec = defaultExperiment();
    const a = await savingTab(name, spec);
    const f = whileStarting(name, async () => {
      // The first tab's checkpoint save (autosave.ts checkpointNow) writes the curve first: the re-read lands
      // between that and the checkpoint (a reviewer's case, with the old order, resumed at 15 with 6 points).
      await a.saveRun({ spec: spec.runs[0], status: "paused", step: 15, history: points(15), markers: [] });
    });
    session = await openLab(f.deps);
    await expect(
      a.saveCheckpoint("ppo-1", new Uint8Array([2]), { step: 15, samples: 120, tokens: 600 }),
    ).rejects.toThrow(/another tab saves/);
    const r = useLab.getState().runs["ppo-1"];
    expect(f.loads).toEqual([["ppo-1", { step: 5, samples: 40, tokens: 200 }]]);
    expect(r.history.at(-1)?.step).toBe(r.step);
  });

  it("a kept experiment reopened by link while another tab saves: claimed before the swap, the other tab's writes are refused", async () => {
    const name = newDbName();
    const y = { ...defaultExperiment(), seed: 7 };
    const x = defaultExperiment();
    // Y was saved, then kept when X replaced it.
    const c = await openLabPersistence(name);
    await c.claim("tab-old");
    await c.saveExperiment(y);
    await c.saveRun({ spec: y.runs[0], status: "paused", step: 5, history: points(5), markers: [] });
    await c.saveCheckpoint("ppo-1", new Uint8Array([5]), { step: 5, samples: 40, tokens: 200 });
    const keptY = await c.load();
    if (!keptY) throw new Error("no Y");
    await c.archive.keep(keptY, null);
    c.close();
    // Tab A trains X and saves it; tab B opens Y's link.
    const a = await openLabPersistence(name);
    await a.claim("tab-a");
    await a.saveExperiment(x);
    await a.saveRun({ spec: x.runs[0], status: "running", step: 20, history: points(20), markers: [] });
    await a.saveCheckpoint("ppo-1", new Uint8Array([20]), { step: 20, samples: 160, tokens: 800 });
    setHash(`#${encode(y)}`);
    const refused: unknown[] = [];
    const f = whileStarting(name, async () => {
      // Tab A's 5-s flush and checkpoint while B starts its worker (once stray writes into Y's session).
      await a
        .saveRun({ spec: x.runs[0], status: "running", step: 30, history: points(30), markers: [] })
        .catch((e) => refused.push(e));
      await a
        .saveCheckpoint("ppo-1", new Uint8Array([30]), { step: 30, samples: 240, tokens: 1200 })
        .catch((e) => refused.push(e));
    });
    session = await openLab(f.deps);
    expect(refused).toHaveLength(2);
    expect(f.loads).toEqual([["ppo-1", { step: 5, samples: 40, tokens: 200 }]]);
    const stored = await (await openLabPersistence(name)).load();
    expect(stored?.spec.seed).toBe(7);
    expect(stored?.runs[0].checkpoint?.step).toBe(5);
  });

  it("storage that never answers its open: the lab starts without it after STORAGE_OPEN_MS, and says so", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const deps = { ...fakeDeps(newDbName()).deps, openPersistence: () => new Promise<never>(() => {}) };
      const opening = openLab(deps);
      await vi.advanceTimersByTimeAsync(STORAGE_OPEN_MS);
      session = await opening;
    } finally {
      vi.useRealTimers();
    }
    expect(useLab.getState().phase).toBe("ready");
    expect(session.autosaver).toBeNull();
    expect(useLab.getState().notice).toMatch(
      /storage is unavailable \(the browser's storage did not answer within 10 s\)/,
    );
  });

  it("nothing written meanwhile: the session is read once", async () => {
    const name = newDbName();
    const spec = defaultExperiment();
    const a = await savingTab(name, spec);
    a.close();
    const reads = vi.spyOn(LabPersistence.prototype, "load");
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    expect(f.loads).toEqual([["ppo-1", { step: 5, samples: 40, tokens: 200 }]]);
  });
});
