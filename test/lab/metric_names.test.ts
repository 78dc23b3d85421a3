/**
 * Histories saved under older metric names (src/lab/metric_names.ts) read under today's: `lr` becomes
 * `learning_rate` outside PPO, and best-of-n's `objective/kl_exact` (an estimate) is dropped, on a run file's
 * import and on a saved session's load (fake-indexeddb).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { parseRunFile, runFileJson } from "../../src/lab/export/run_file";
import { currentMetricNames } from "../../src/lab/metric_names";
import type { MetricPoint } from "../../src/lab/protocol";
import { freshDb } from "./persist_db";

const old = (n: number): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    step: i + 1,
    samples: 8 * (i + 1),
    tokens: 64 * (i + 1),
    metrics: { reward: i / 10, lr: 1e-5 },
  }));

describe("older metric names", () => {
  it("renames lr to learning_rate outside PPO only, leaving the rest and new points alone", () => {
    const mixed = [
      ...old(2),
      { step: 3, samples: 24, tokens: 192, metrics: { reward: 0.3, learning_rate: 1e-5 } },
    ];
    const got = currentMetricNames("grpo", mixed);
    expect(got.map((p) => p.metrics)).toEqual([
      { reward: 0, learning_rate: 1e-5 },
      { reward: 0.1, learning_rate: 1e-5 },
      { reward: 0.3, learning_rate: 1e-5 },
    ]);
    expect(mixed[0].metrics).toEqual({ reward: 0, lr: 1e-5 }); // the input is not changed
    const ppo = old(2);
    expect(currentMetricNames("ppo", ppo)).toBe(ppo);
    const fresh = currentMetricNames("dpo", []);
    expect(fresh).toEqual([]);
  });

  it("applies on a run file's import and on a saved session's load", async () => {
    const experiment = defaultExperiment();
    const grpo = experiment.runs.find((r) => r.algo === "grpo");
    if (!grpo) throw new Error("no GRPO run in the default experiment");
    const file = runFileJson(experiment, {
      spec: grpo,
      status: "paused",
      step: 3,
      history: old(3),
      markers: [],
    });
    const back = parseRunFile(file);
    expect(
      back.ok && back.history.every((p) => p.metrics.learning_rate === 1e-5 && !("lr" in p.metrics)),
    ).toBe(true);
    const db = await freshDb();
    await db.saveExperiment(experiment);
    await db.saveRun({ spec: grpo, status: "paused", step: 3, history: old(3), markers: [] });
    const s = await db.load();
    expect(s?.runs[0].history.map((p) => Object.keys(p.metrics).sort())).toEqual(
      Array(3).fill(["learning_rate", "reward"]),
    );
    db.close();
  });

  it("drops best-of-n's objective/kl_exact (an estimate saved under it) on import and load; others keep it", async () => {
    const experiment = defaultExperiment();
    const bon = { ...experiment.runs[0], id: "bon-1", algo: "bon" as const, label: "best-of-n" };
    const withExact = old(3).map((p) => ({ ...p, metrics: { ...p.metrics, "objective/kl_exact": 0.2 } }));
    const keys = (h: MetricPoint[]) => h.map((p) => Object.keys(p.metrics).sort());
    expect(keys(currentMetricNames("grpo", withExact))).toEqual(
      Array(3).fill(["learning_rate", "objective/kl_exact", "reward"]),
    );
    // Before: a best-of-n run saved or exported before it stopped logging one kept it, drawn under "exact".
    const want = Array(3).fill(["learning_rate", "reward"]);
    expect(keys(currentMetricNames("bon", withExact))).toEqual(want);
    const file = runFileJson(experiment, {
      spec: bon,
      status: "paused",
      step: 3,
      history: withExact,
      markers: [],
    });
    const back = parseRunFile(file);
    expect(back.ok && keys(back.history)).toEqual(want);
    const db = await freshDb();
    await db.saveExperiment({ ...experiment, runs: [bon] });
    await db.saveRun({ spec: bon, status: "paused", step: 3, history: withExact, markers: [] });
    const s = await db.load();
    expect(keys(s?.runs[0].history ?? [])).toEqual(want);
    db.close();
  });
});
