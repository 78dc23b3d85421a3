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
      history: [point(1, { reward: 0.25, "rewards/margins": 1 })],
      markers: [],
    };
    const rows = Papa.parse<string[]>(allRunsCsv([ppo, dpo]).trim()).data;
    expect(rows[0]).toEqual([
      "run",
      "label",
      "algorithm",
      "seed",
      "task",
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
      "1",
      "4",
      "40",
      "0.25",
      "",
      "1",
      "",
    ]);
    expect(allRunsCsv([])).toBe("run,label,algorithm,seed,task,step,samples,tokens,settings_changed\n");
  });

  it("file names carry the seed", () => {
    expect(runFileBase("PPO β = 0", "arithmetic", 0, 6)).toBe("ppo-beta-0-arithmetic-seed0-step6");
    expect(runFileBase("PPO β = 0", "arithmetic", 2, 6)).not.toBe(
      runFileBase("PPO β = 0", "arithmetic", 1, 6),
    );
    expect(allRunsFileName("arithmetic", 0, 6)).toBe("arithmetic-seed0-all-runs-step6.csv");
  });
});
