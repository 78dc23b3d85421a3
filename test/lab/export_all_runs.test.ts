/**
 * Every run in one long-format CSV (src/lab/export/all_runs.ts) and export file names with the seed
 * (src/lab/export/file_names.ts): three seeds' exports of one run used to share one name.
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { allRunsCsv } from "../../src/lab/export/all_runs";
import { allRunsFileName, runFileBase } from "../../src/lab/export/file_names";
import type { MetricPoint } from "../../src/lab/protocol";

const point = (step: number, metrics: Record<string, number>): MetricPoint => ({
  step,
  samples: 4 * step,
  tokens: 40 * step,
  metrics,
});

describe("all runs' CSV, long format", () => {
  it("run, label, algorithm, seed, task, then the union of the runs' columns; one row per run and step", () => {
    const ppo = {
      id: "ppo-1",
      label: "PPO β = 0.2",
      algo: "ppo",
      seed: 3,
      task: "arithmetic",
      model: "sft",
      config: { beta: 0.2 },
      history: [
        point(1, { reward: 0.5, "objective/kl": 0 }),
        point(2, { reward: 0.75, "objective/kl": 0.1 }),
      ],
      markers: [{ runId: "ppo-1", step: 2, label: "β 0.2 → 0.5" }],
    };
    const dpo = {
      id: "dpo-1",
      label: "=DPO, plain",
      algo: "dpo",
      seed: 3,
      task: "arithmetic",
      model: "sft",
      config: {},
      history: [point(1, { reward: 0.25, "rewards/margins": 1 })],
      markers: [],
    };
    const parsed = Papa.parse<string[]>(allRunsCsv([ppo, dpo]).trim()).data;
    // The settings that differ between PPO and DPO (tested below) stand between the run's columns and the step's.
    const first = parsed[0].findIndex((c) => c.startsWith("setting/"));
    const settings = parsed[0].filter((c) => c.startsWith("setting/")).length;
    expect([first, parsed[0][first + settings]]).toEqual([6, "step"]);
    const rows = parsed.map((r) => [...r.slice(0, first), ...r.slice(first + settings)]);
    expect(rows[0]).toEqual([
      "run",
      "label",
      "algorithm",
      "seed",
      "task",
      "model",
      "step",
      "samples",
      "tokens",
      "reward",
      "objective/kl",
      "rewards/margins",
      "settings_changed",
    ]);
    expect(rows).toHaveLength(1 + 2 + 1);
    expect(rows[1]).toEqual([
      "ppo-1",
      "PPO β = 0.2",
      "ppo",
      "3",
      "arithmetic",
      "sft",
      "1",
      "4",
      "40",
      "0.5",
      "0",
      "",
      "",
    ]);
    expect(rows[2]).toEqual([
      "ppo-1",
      "PPO β = 0.2",
      "ppo",
      "3",
      "arithmetic",
      "sft",
      "2",
      "8",
      "80",
      "0.75",
      "0.1",
      "",
      "β 0.2 → 0.5",
    ]);
    // A label a spreadsheet would run as a formula is escaped, as in the per-run CSV; a missing metric is empty.
    expect(rows[3]).toEqual([
      "dpo-1",
      "'=DPO, plain",
      "dpo",
      "3",
      "arithmetic",
      "sft",
      "1",
      "4",
      "40",
      "0.25",
      "",
      "1",
      "",
    ]);
    expect(allRunsCsv([])).toBe("run,label,algorithm,seed,task,model,step,samples,tokens,settings_changed\n");
  });

  it("a column per setting that differs between the runs (G, loss type, ε, μ of a sweep), and the model", () => {
    const grpo = (
      id: string,
      config: Record<string, number | string | boolean>,
      model: string | null = "sft",
    ) => ({
      id,
      label: id,
      algo: "grpo",
      seed: 0,
      task: "arithmetic",
      model,
      config,
      history: [point(1, { reward: 0.5 })],
      markers: [],
    });
    const runs = [
      grpo("a", { numGenerations: 4, lossType: "grpo", epsilon: 0.2 }),
      grpo("b", { numGenerations: 8, lossType: "dr_grpo", epsilon: 0.2, numIterations: 2 }),
      grpo("c", { numGenerations: 8, lossType: "grpo", epsilon: 0.1 }, null),
    ];
    const rows = Papa.parse<string[]>(allRunsCsv(runs).trim()).data;
    // In the settings table's order; β, lr and the rest are the same for all three (GRPO's defaults): left
    // out. μ at its default 1 in a and c.
    expect(rows[0]).toEqual([
      "run",
      "label",
      "algorithm",
      "seed",
      "task",
      "model",
      "setting/numGenerations",
      "setting/lossType",
      "setting/epsilon",
      "setting/numIterations",
      "step",
      "samples",
      "tokens",
      "reward",
      "settings_changed",
    ]);
    expect(rows.slice(1).map((r) => r.slice(5, 10))).toEqual([
      ["sft", "4", "grpo", "0.2", "1"],
      ["sft", "8", "dr_grpo", "0.2", "2"],
      ["", "8", "grpo", "0.1", "1"],
    ]);
    // A setting that varies among the runs that have it: empty for a run whose algorithm lacks it. One that
    // only one algorithm has, at one value (PPO's ppoEpochs), is no difference. One run: no setting columns.
    const ppo = { ...grpo("p", { beta: 0.2 }), algo: "ppo" };
    const mixed = Papa.parse<string[]>(allRunsCsv([runs[0], runs[1], ppo]).trim()).data;
    const g = mixed[0].indexOf("setting/numGenerations");
    expect([mixed[1][g], mixed[2][g], mixed[3][g]]).toEqual(["4", "8", ""]);
    expect(mixed[0]).not.toContain("setting/ppoEpochs");
    const pair = Papa.parse<string[]>(allRunsCsv([runs[0], ppo]).trim()).data;
    expect(pair[0].filter((c) => c.startsWith("setting/"))).toEqual(["setting/beta"]);
    expect(allRunsCsv([runs[1]]).split("\n")[0]).not.toContain("setting/");
  });

  it("file names carry the seed", () => {
    expect(runFileBase("PPO β = 0", "arithmetic", 0, 6)).toBe("ppo-beta-0-arithmetic-seed0-step6");
    expect(runFileBase("PPO β = 0", "arithmetic", 2, 6)).not.toBe(
      runFileBase("PPO β = 0", "arithmetic", 1, 6),
    );
    expect(allRunsFileName("arithmetic", 0, 6)).toBe("arithmetic-seed0-all-runs-step6.csv");
  });
});
