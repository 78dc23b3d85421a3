/**
 * A run imported for comparison across reloads (src/ui/lab/session.ts, ./import_run.ts), in Node: the stubbed
 * page of ./session_page.ts. It comes back as curves, out of the worker and out of links, is kept under Recent
 * experiments with its experiment, and comes back among a full lab of runs.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import { LESSONS } from "../../src/lab/presets";
import type { ExperimentSpec, PipelineModels } from "../../src/lab/protocol";
import { sameExperiment } from "../../src/lab/restore";
import { MAX_RUNS } from "../../src/lab/settings";
import { encode, specFromLocation } from "../../src/lab/url";
import { importRunFiles } from "../../src/ui/lab/import_run";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { writeUrlNow } from "../../src/ui/lab/url_sync";
import { useLab } from "../../src/ui/lab_store";
import { exported, file } from "./import_files";
import { fakeDeps, newDbName, page, points, setHash, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

describe("importing a run", () => {
  it("keeps a comparison run across reloads as curves, out of the worker and out of links", async () => {
    const name = newDbName();
    session = await openLab(fakeDeps(name).deps);
    await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    await session.autosaver?.flush();
    writeUrlNow();
    const linked = specFromLocation(page.loc as unknown as Location, defaultExperiment).spec;
    expect(linked.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1", "grpo-1"]); // the link leaves it out
    for (const hash of [page.loc.hash, ""]) {
      await session.stop(); // a reload: the page's last writes land before the next page reads
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

  it("leaves a comparison run with its experiment when a lesson on the same task, model and seed opens", async () => {
    const name = newDbName();
    session = await openLab(fakeDeps(name).deps);
    await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    // The import's own save (queued a macrotask later) lands before the next page opens, as it would in a browser.
    await new Promise((r) => setTimeout(r, 0));
    await session.autosaver?.flush();
    expect(useLab.getState().runs["ppo-2"]?.comparison).toBe(true);
    const d = defaultExperiment();
    const lesson = Object.values(LESSONS)
      .map((l) => l.experiment(d.seed))
      .find((e) => sameExperiment(e, d));
    if (!lesson) throw new Error("no lesson on the default's task, model and seed");
    session.stop();
    setHash(`#${encode(lesson)}`);
    session = await openLab(fakeDeps(name).deps);
    const st = useLab.getState();
    expect(st.spec.preset).toBe(lesson.preset);
    expect(Object.values(st.runs).filter((r) => r.comparison)).toEqual([]);
    expect(st.spec.runs.map((r) => r.id)).toEqual(lesson.runs.map((r) => r.id));
    expect(st.notice).toMatch(/The experiment open before \(.*1 run imported for comparison\) is kept/);
    const db = await openLabPersistence(name);
    const kept = await db.archive.list();
    db.close();
    expect(kept).toHaveLength(1);
    expect(kept[0].runs.find((r) => r.label === "PPO (imported)")?.comparison).toBe(true);
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
});
