/**
 * A run's own training seed (RunSpec.seed) through the settings table: links (round trip; a bad seed dropped with
 * an issue, the experiment's kept), saved sessions (IndexedDB), forks, the restore check (sameRun), Change… of the
 * experiment's seed (a run's own seed stays, and the dialog's list says so) and the exports: run.json's run.seed
 * (its experiment.seed stays the experiment's, the start model's), config.json's seed (and experimentSeed where
 * it differs), the all-runs CSV's seed column (runWhere), the TRL script's SEED, also of a re-exported import.
 */
import "fake-indexeddb/auto";
import { compressToEncodedURIComponent } from "lz-string";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { changeExperiment } from "../../src/lab/experiment_change";
import { allRunsCsv } from "../../src/lab/export/all_runs";
import { runConfig } from "../../src/lab/export/config";
import { runWhere } from "../../src/lab/export/origin";
import { parseRunFile, runFileJson } from "../../src/lab/export/run_file";
import { trlScript } from "../../src/lab/export/trl_script";
import { openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec, RunSpec } from "../../src/lab/protocol";
import { sameRun } from "../../src/lab/restore";
import { EXPERIMENT_FIELDS, RUN_SEED_FIELD, runSeed } from "../../src/lab/settings";
import { checkSpec, issueText } from "../../src/lab/spec_check";
import { decode, encode, URL_VERSION } from "../../src/lab/url";
import { forkSpec } from "../../src/ui/lab/run_specs";
import { experiment, ppo } from "./export_fixtures";

const hashOf = (payload: unknown) => `#s=${compressToEncodedURIComponent(JSON.stringify(payload))}`;

/** The default experiment with its PPO repeated on seeds 1 and 2 (seed 0: the experiment's). */
function seeded(): ExperimentSpec {
  const spec = defaultExperiment();
  const p = spec.runs[0];
  return {
    ...spec,
    runs: [
      ...spec.runs,
      { ...p, id: "ppo-2", label: "PPO seed 1", seed: 1 },
      { ...p, id: "ppo-3", label: "PPO seed 2", seed: 2 },
    ],
  };
}

describe("a run's own seed", () => {
  it("a link carries it and reads it back; a link without one leaves runs on the experiment's seed", () => {
    const spec = seeded();
    const back = decode(encode(spec));
    expect(back.ok && back.spec).toEqual(spec);
    expect(back.ok && back.issues).toEqual([]);
    expect(back.ok && back.spec.runs.map((r) => runSeed(r, back.spec))).toEqual([0, 0, 0, 1, 2]);
    // Made before per-run seeds: no run has one.
    const old = decode(encode(defaultExperiment()));
    expect(old.ok && old.spec.runs.map((r) => r.seed)).toEqual([undefined, undefined, undefined]);
  });

  it("a bad seed in a link is dropped with an issue naming the run; the experiment's seed applies", () => {
    const bad = [-1, 1.5, "3", RUN_SEED_FIELD.max + 1, null];
    const r = decode(
      hashOf({
        v: URL_VERSION,
        seed: 5,
        runs: [
          { id: "a", algo: "ppo", label: "A", seed: 7 },
          ...bad.map((seed, i) => ({ id: `b${i}`, algo: "ppo", label: `B${i}`, seed })),
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.spec.runs.map((x) => x.seed)).toEqual([
      7,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(r.spec.runs.map((x) => runSeed(x, r.spec))).toEqual([7, 5, 5, 5, 5, 5]);
    expect(r.issues).toHaveLength(bad.length);
    expect(issueText(r.issues[0])).toBe(
      "B0's “seed” must be an integer in [0, 2147483647], got -1; using the experiment's seed",
    );
  });

  it("a saved session keeps it (IndexedDB, read back through the spec check)", async () => {
    const db = await openLabPersistence(`seed-${Math.random()}`);
    const spec = seeded();
    await db.saveExperiment(spec);
    const saved = (await db.load())?.spec;
    const issues: string[] = [];
    expect(checkSpec(saved as unknown as Record<string, unknown>, issues)).toEqual(spec);
    expect(issues).toEqual([]);
    await db.clear();
    db.close();
  });

  it("a fork keeps its source's seed; a run on another seed is not the same run to restore", () => {
    const spec = seeded();
    expect(forkSpec(spec.runs, spec.runs[3], 4).seed).toBe(1);
    expect(forkSpec(spec.runs, spec.runs[0], 4).seed).toBeUndefined();
    expect(sameRun(spec.runs[0], { ...spec.runs[0] })).toBe(true);
    expect(sameRun(spec.runs[0], spec.runs[3])).toBe(false);
    // No own seed and an own seed equal to the experiment's (Repeat gives its source one): one run where the
    // experiment's seed is known; another seed stays another run.
    expect(sameRun(spec.runs[0], { ...spec.runs[0], seed: 0 }, 0)).toBe(true);
    expect(sameRun(spec.runs[0], { ...spec.runs[0], seed: 1 }, 0)).toBe(false);
    expect(sameRun(spec.runs[0], { ...spec.runs[0], seed: 0 }, 5)).toBe(false);
  });

  it("the seed row has the experiment seed's range and says the win rate is drawn with the experiment's seed", () => {
    const { kind, min, max } = EXPERIMENT_FIELDS.find((f) => f.key === "seed") ?? {};
    expect([RUN_SEED_FIELD.kind, RUN_SEED_FIELD.min, RUN_SEED_FIELD.max]).toEqual([kind, min, max]);
    expect(RUN_SEED_FIELD.doc).toMatch(/offline DPO's pairs/);
    expect(RUN_SEED_FIELD.doc).toMatch(/win rate is measured with the experiment's seed for every run/);
  });

  it("Change… warns where two runs of one configuration would land on one seed", () => {
    // Repeat left "PPO" with no own seed; Change… to seed 1 would put it on "PPO seed 1"'s seed.
    const next = changeExperiment(seeded(), { task: "sentiment", model: "sft", seed: 1 });
    expect(next?.changes.join("\n")).toMatch(
      /PPO and PPO seed 1 would both train on seed 1 with the same settings \(the same prompts and samples/,
    );
    expect(next?.changes.join("\n")).not.toMatch(/PPO seed 2 would both/);
    // With the source's seed explicit (as Repeat now gives it), the seeds stay apart: no warning.
    const spec = seeded();
    const kept = { ...spec, runs: spec.runs.map((r, i) => (i === 0 ? { ...r, seed: 0 } : r)) };
    expect(
      changeExperiment(kept, { task: "sentiment", model: "sft", seed: 1 })?.changes.join("\n"),
    ).not.toMatch(/would both train/);
    // Two identical runs on one seed before (a duplicate): nothing new to say.
    const dup = { ...spec, runs: [...spec.runs, { ...spec.runs[0], id: "ppo-9", label: "PPO 2" }] };
    expect(
      changeExperiment(dup, { task: "sentiment", model: "sft", seed: 7 })?.changes.join("\n"),
    ).not.toMatch(/would both train/);
  });

  it("Change… of the experiment's seed leaves a run's own seed, and says so", () => {
    const next = changeExperiment(seeded(), { task: "sentiment", model: "sft", seed: 9 });
    expect(next?.spec.runs.map((r) => runSeed(r, next.spec))).toEqual([9, 9, 9, 1, 2]);
    expect(next?.changes.join("\n")).toMatch(
      /PPO seed 1 keeps its own seed 1, PPO seed 2 keeps its own seed 2/,
    );
    // Another task on the same seed: nothing to say about seeds.
    const task = changeExperiment(seeded(), { task: "arithmetic", model: "sft", seed: 0 });
    expect(task?.changes.join("\n")).not.toMatch(/own seed/);
  });

  it("exports say the run's own seed: run.json, config.json, the all-runs CSV and the TRL script", () => {
    const run: RunSpec = { ...ppo, seed: 3 };
    const record = { spec: run, status: "paused" as const, step: 2, history: [], markers: [] };
    // experiment.seed is 7: run.json keeps it as the experiment's (its start model's); the run's own is run.seed.
    const file = JSON.parse(runFileJson(experiment, record));
    expect(file.experiment.seed).toBe(7);
    expect(file.run.seed).toBe(3);
    const back = parseRunFile(runFileJson(experiment, record));
    expect(back.ok && back.run.seed).toBe(3);
    expect(back.ok && back.experiment.seed).toBe(7);
    expect(back.ok && back.origin).toMatchObject({ seed: 3, experimentSeed: 7 });
    // config.json: seed = the training seed, experimentSeed where the experiment's differs.
    expect(runConfig(experiment, run)).toMatchObject({ seed: 3, experimentSeed: 7 });
    expect(runConfig(experiment, ppo).seed).toBe(7);
    expect(runConfig(experiment, ppo)).not.toHaveProperty("experimentSeed");
    // Imported for comparison and exported again: the same experiment seed and own seed; its exports say 3.
    if (!back.ok) throw new Error(back.error);
    const imported = { ...record, comparison: true, origin: back.origin };
    const again = JSON.parse(runFileJson({ ...experiment, seed: 0 }, imported));
    expect([again.experiment.seed, again.run.seed]).toEqual([7, 3]);
    expect(
      runConfig({ ...experiment, seed: 0 }, run, null, undefined, [], new Date(), back.origin),
    ).toMatchObject({
      seed: 3,
      experimentSeed: 7,
    });
    expect(runWhere(imported, { ...experiment, seed: 0 }).seed).toBe(3);
    expect(trlScript({ ...experiment, seed: 0 }, imported)).toMatch(/\nSEED = 3\n/);
    expect(runWhere(record, experiment)).toEqual({ task: "sentiment", seed: 3, model: "nano" });
    const csv = allRunsCsv([
      {
        ...run,
        ...runWhere(record, experiment),
        history: [{ step: 1, samples: 1, tokens: 1, metrics: {} }],
        markers: [],
      },
    ]);
    expect((Papa.parse(csv, { header: true }).data as Record<string, string>[])[0].seed).toBe("3");
    expect(trlScript(experiment, record)).toMatch(/\nSEED = 3\n/);
    expect(trlScript(experiment, { ...record, spec: ppo })).toMatch(/\nSEED = 7\n/);
  });
});
