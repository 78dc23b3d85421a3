/**
 * A saved session with records the lab cannot read (another version's, or written by something else): a bad run
 * is left out and named while the others come back; an experiment record that is no experiment stops the page
 * from saving over it (before, the autosaver wrote the default experiment over the unread session); and
 * "Start without the saved runs" keeps a session only when it holds training; and what another tab saved while
 * this one started is what is kept, that tab's later writes refused (src/ui/lab/session.ts).
 */
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { DB_VERSION, NotWriterError, openLabPersistence, type SavedSession } from "../../src/lab/persist";
import { encode } from "../../src/lab/url";
import { useDiscardSaved } from "../../src/ui/lab/discard_saved";
import { askSafeStart } from "../../src/ui/lab/safe_start";
import { recentExperiments } from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { fakeDeps, newDbName, points, setHash, stubPage, tabStub } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

/** A saved default experiment whose PPO trained 6 steps (checkpoint at 5). */
async function saved(name: string) {
  const db = await openLabPersistence(name);
  const spec = defaultExperiment();
  await db.saveExperiment(spec);
  await db.saveRun({ spec: spec.runs[0], status: "paused", step: 6, history: points(6), markers: [] });
  await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 5, samples: 40, tokens: 250 });
  db.close();
}

const raw = (name: string) => openDB(name, DB_VERSION);

/** That session with its experiment record replaced by one that is no experiment (its runs still there). */
async function savedUnreadable(name: string) {
  await saved(name);
  const db = await raw(name);
  await db.put("meta", { spec: { task: "sentiment", runs: "oops" }, savedAt: 0 }, "experiment");
  db.close();
}

describe("a saved session the lab cannot read whole", () => {
  it("leaves out a run it cannot read, names it, and brings the others back", async () => {
    const name = newDbName();
    await saved(name);
    const db = await raw(name);
    const bad = { id: "grpo-9", spec: null, status: "paused", step: 3, markers: [], points: 3, savedAt: 0 };
    await db.put("runs", bad);
    // A readable run whose history holds a point with no metrics: that point is dropped, not the run.
    await db.put("history", { runId: "ppo-1", chunk: 0, points: [...points(5), { step: 6, metrics: null }] });
    db.close();
    const f = fakeDeps(name);
    session = await openLab(f.deps);
    expect(useLab.getState().notice).toMatch(/A saved run could not be read \("grpo-9"\) and starts over/);
    expect(f.loads.map(([id]) => id)).toEqual(["ppo-1"]);
    expect(useLab.getState().runs["ppo-1"].history).toHaveLength(5);
  });

  it("leaves out entries of the experiment's run list that are no run, names them, and brings the runs back", async () => {
    const name = newDbName();
    await saved(name);
    const db = await raw(name);
    const meta = await db.get("meta", "experiment");
    if (!meta || !("spec" in meta)) throw new Error("no experiment saved");
    const runs: unknown[] = [null, ...meta.spec.runs, 7];
    await db.put("meta", { ...meta, spec: { ...meta.spec, runs } } as typeof meta, "experiment");
    db.close();
    const f = fakeDeps(name);
    // Before: "Cannot read properties of null (reading 'id')" (session_lines.ts savedExperiment), no page.
    session = await openLab(f.deps);
    expect(useLab.getState().notice).toMatch(
      /^2 entries of the saved run list are no run \("run 1 of the experiment \(null\)", "run 5 of the experiment \(a number\)"\) and are left out\. /,
    );
    expect(useLab.getState().spec.runs.map((r) => r.id)).toEqual(defaultExperiment().runs.map((r) => r.id));
    expect(f.loads.map(([id]) => id)).toEqual(["ppo-1"]);
    expect(useLab.getState().runs["ppo-1"].history).toHaveLength(5);
  });

  it("leaves out runs imported for comparison it cannot draw, names them, and neither draws nor trains them", async () => {
    const name = newDbName();
    await saved(name);
    const db = await raw(name);
    const meta = await db.get("meta", "experiment");
    if (!meta || !("spec" in meta)) throw new Error("no experiment saved");
    const curve = (spec: object, status = "paused") => ({
      id: (spec as { id: string }).id,
      spec,
      status,
      step: 3,
      markers: [],
      points: 3,
      comparison: true,
      savedAt: 0,
    });
    const specs = [
      { id: "zzz-1", algo: "zzz", label: "Old algo", config: {} }, // an algorithm this lab does not have
      { id: "dpo-9", algo: "dpo", label: "Bad lr", config: { lr: "fast" } }, // a setting its field refuses
      { id: "dpo-8", algo: "dpo", label: "Bogus status", config: {} },
      { id: "dpo-7", algo: "dpo", label: "DPO (imported)", config: { beta: 0.2 } }, // drawn
    ];
    await db.put(
      "meta",
      { ...meta, spec: { ...meta.spec, runs: [...meta.spec.runs, ...specs] } } as typeof meta,
      "experiment",
    );
    for (const spec of specs) {
      await db.put("runs", curve(spec, spec.id === "dpo-8" ? "bogus" : "paused"));
      await db.put("history", { runId: spec.id, chunk: 0, points: points(3) });
    }
    db.close();
    session = await openLab(fakeDeps(name).deps);
    const lab = useLab.getState();
    // Before: each came back as a comparison run, its card reading ALGORITHMS["zzz"].fields (a crash).
    for (const id of ["zzz-1", "dpo-9", "dpo-8"]) {
      expect(lab.runs[id], id).toBeUndefined();
      expect(lab.notice).toContain(`"${id}"`);
      expect(lab.spec.runs.map((r) => r.id)).not.toContain(id);
    }
    // They are left out, not started over (no weights to start from): the notice must not say they start over.
    expect(lab.notice).toMatch(
      /3 runs imported for comparison could not be read \("dpo-8", "dpo-9", "zzz-1"\) and are left out: import them again to see them\./,
    );
    expect(lab.notice).not.toMatch(/start over/);
    expect(lab.runs["dpo-7"]?.comparison).toBe(true);
    expect(lab.runs["dpo-7"]?.history).toHaveLength(3);
  });

  it("does not save over a session whose experiment it cannot read", async () => {
    const name = newDbName();
    await savedUnreadable(name);
    session = await openLab(fakeDeps(name).deps);
    expect(useLab.getState().notice).toMatch(/could not be read .* so this page does not save over them/);
    expect(session.autosaver).toBeNull();
    const after = await raw(name);
    expect((await after.get("runs", "ppo-1"))?.step).toBe(6); // still there
    expect((await after.get("checkpoints", "ppo-1"))?.step).toBe(5);
    after.close();
  });

  it("offers to discard the unreadable session: asked first, then this page saves; kept experiments stay", async () => {
    const name = newDbName();
    await saved(name);
    const keeper = await openLabPersistence(name);
    const kept = await keeper.archive.keep((await keeper.load()) as SavedSession, null); // a kept experiment
    keeper.close();
    const db = await raw(name);
    await db.put("meta", { spec: { task: "sentiment", runs: "oops" }, savedAt: 0 }, "experiment");
    db.close();
    session = await openLab(fakeDeps(name).deps);
    const discard = useDiscardSaved.getState().discard;
    expect(discard, "offered").not.toBeNull();
    const asked: string[] = [];
    const confirm = globalThis.confirm;
    try {
      globalThis.confirm = (q?: string) => (asked.push(q ?? ""), false);
      await discard?.();
      expect(asked[0]).toMatch(/cannot be read by this version of the lab .*Discard them for good/);
      expect(session.autosaver, "no: still not saving").toBeNull();
      expect((await (await raw(name)).get("runs", "ppo-1"))?.step).toBe(6);
      globalThis.confirm = () => true;
      await discard?.();
    } finally {
      globalThis.confirm = confirm;
    }
    expect(session.autosaver, "yes: saving").not.toBeNull();
    expect(useDiscardSaved.getState().discard).toBeNull();
    expect(useLab.getState().notice).toMatch(/were discarded: this page saves its runs from now on/);
    expect(useLab.getState().notice).not.toMatch(/does not save over them/);
    expect(useLab.getState().saveFailed).toBeNull();
    const after = await openLabPersistence(name);
    expect((await after.load())?.spec).toEqual(useLab.getState().spec); // this page's experiment, readable
    expect(await after.runIds()).toEqual(
      useLab
        .getState()
        .spec.runs.map((r) => r.id)
        .sort(),
    );
    expect((await after.archive.list()).map((e) => e.id)).toEqual([kept.id]);
    after.close();
  });

  it("does not discard what another tab saved over the unreadable runs meanwhile (it reads now)", async () => {
    const name = newDbName();
    await savedUnreadable(name);
    session = await openLab(fakeDeps(name).deps);
    const discard = useDiscardSaved.getState().discard;
    // Another tab offered the same, discarded, and saved its own training (PPO at step 2).
    const other = await openLabPersistence(name);
    expect(await other.discardUnreadable()).toBe(true);
    const spec = defaultExperiment();
    await other.saveExperiment(spec);
    await other.saveRun({ spec: spec.runs[0], status: "paused", step: 2, history: points(2), markers: [] });
    expect(await other.discardUnreadable(), "a readable session is never discarded").toBe(false);
    other.close();
    const confirm = globalThis.confirm;
    try {
      globalThis.confirm = () => true;
      await discard?.();
    } finally {
      globalThis.confirm = confirm;
    }
    expect(session.autosaver, "still not saving").toBeNull();
    expect(useLab.getState().notice).toMatch(
      /read now \(another tab saved its own over them, or the failure at the start has passed\), so this page leaves them be/,
    );
    const after = await openLabPersistence(name);
    expect((await after.load())?.runs.map((r) => [r.spec.id, r.step])).toEqual([["ppo-1", 2]]);
    expect(await after.discardUnreadable(), "nothing to discard").toBe(false);
    after.close();
  });

  it("'Start without the saved runs' keeps a trained session, and drops an untrained one without keeping it", async () => {
    const name = newDbName();
    const db = await openLabPersistence(name);
    await db.saveExperiment(defaultExperiment());
    db.close();
    const { tabStore } = tabStub();
    askSafeStart(tabStore);
    session = await openLab({ ...fakeDeps(name).deps, tabStore });
    expect(useLab.getState().notice).toMatch(/crashed with the experiment open before \(no training in it\)/);
    expect(await recentExperiments()).toEqual([]);
  });

  it("keeps what the other tab saved while this one started, and its later writes land in neither", async () => {
    const name = newDbName();
    await saved(name); // seed 0: PPO at step 6, checkpoint at 5
    const a = await openLabPersistence(name); // the other tab, still saving
    await a.claim("tab-a");
    setHash(`#${encode({ ...defaultExperiment(), seed: 1 })}`);
    const f = fakeDeps(name);
    const start = f.deps.start;
    session = await openLab({
      ...f.deps,
      start: async (spec, models) => {
        // While this page starts its worker, the other tab's pause lands its last save.
        const run = defaultExperiment().runs[0];
        await a.saveRun({ spec: run, status: "paused", step: 24, history: points(24), markers: [] });
        await a.saveCheckpoint("ppo-1", new Uint8Array([2]), { step: 24, samples: 192, tokens: 1200 });
        await start(spec, models);
      },
    });
    expect(useLab.getState().notice).toMatch(/seed 0: PPO at step 24\) is kept/);
    await expect(
      a.saveCheckpoint("ppo-1", new Uint8Array([3]), { step: 25, samples: 200, tokens: 1250 }),
    ).rejects.toBeInstanceOf(NotWriterError);
    a.close();
  });
});
