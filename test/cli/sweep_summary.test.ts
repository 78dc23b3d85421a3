import { describe, expect, it } from "vitest";
import { lastMean, type SweepRun, summarise, summaryCsv, summaryTable } from "../../cli/lab/sweep_summary";

// Two β × two seeds, 4 steps each; the summary over the last 2 steps.
const rows = (r: number[], kl: number[]) =>
  r.map((x, i) => ({ reward: x, reward_gold: x / 2, "objective/kl": kl[i], entropy: 1 }));
const runs: SweepRun[] = [
  { name: "beta=0.05", varied: { beta: 0.05 }, seed: 0, rows: rows([0, 0, 0.2, 0.4], [0, 0, 1, 3]) },
  { name: "beta=1", varied: { beta: 1 }, seed: 0, rows: rows([0, 0, 0.1, 0.1], [0, 0, 0.5, 0.5]) },
  { name: "beta=0.05", varied: { beta: 0.05 }, seed: 1, rows: rows([0, 0, 0.6, 0.8], [0, 0, 5, 7]) },
  { name: "beta=1", varied: { beta: 1 }, seed: 1, rows: rows([9, 9, 0.1, 0.1], [0, 0, 0.5, 0.5]) },
];

describe("lab train sweep summary", () => {
  it("is the mean ± sample sd across seeds of each run's mean over its last N steps (by hand)", () => {
    expect(lastMean(runs[0].rows, "reward", 2)).toBeCloseTo(0.3, 12);
    const [a, b] = summarise(runs, 2);
    // β 0.05: run means reward 0.3 and 0.7 → mean 0.5, sd √(((0.2)² + (0.2)²)/1) = 0.2828…; KL 2 and 6 → 4 ± 2.828.
    expect(a.name).toBe("beta=0.05");
    expect(a.seeds).toEqual([0, 1]);
    expect(a.last).toBe(2);
    expect(a.metrics.reward?.mean).toBeCloseTo(0.5, 12);
    expect(a.metrics.reward?.sd).toBeCloseTo(Math.SQRT2 * 0.2, 12);
    expect(a.metrics.reward_gold?.mean).toBeCloseTo(0.25, 12);
    expect(a.metrics["objective/kl"]?.mean).toBeCloseTo(4, 12);
    expect(a.metrics["objective/kl"]?.sd).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(a.metrics.entropy).toEqual({ mean: 1, sd: 0 });
    // Not logged: no exact-KL column value.
    expect(a.metrics["objective/kl_exact"]).toBeUndefined();
    // β 1: the first steps (9) are outside the last 2.
    expect(b.metrics.reward?.mean).toBeCloseTo(0.1, 12);
    expect(b.metrics.reward?.sd).toBeCloseTo(0, 12);
    // One seed: no sd.
    expect(summarise(runs.slice(0, 1), 2)[0].metrics.reward?.sd).toBeNull();
    // N beyond a run's length: over all its steps.
    expect(summarise(runs.slice(0, 1), 10)[0].metrics.reward?.mean).toBeCloseTo(0.15, 12);
  });

  it("prints a table and writes CSV", () => {
    const lines = summarise(runs, 2);
    const table = summaryTable(lines).split("\n");
    expect(table[0]).toBe("mean ± sd across seeds of each run's mean over its last 2 steps");
    expect(table[1]).toMatch(
      /^settings +n +reward +reward_gold +objective\/kl +objective\/kl_exact +entropy$/,
    );
    expect(table[2]).toMatch(
      /^beta=0\.05 +2 +0\.500 ± 0\.283 +0\.250 ± 0\.141 +4\.000 ± 2\.828 +– +1\.000 ± 0\.000$/,
    );
    const csv = summaryCsv(lines).trim().split("\n");
    expect(csv[0].split(",").slice(0, 6)).toEqual([
      "beta",
      "seeds",
      "n",
      "last_steps",
      "reward_mean",
      "reward_sd",
    ]);
    expect(csv[2].split(",").slice(0, 5)).toEqual(["1", "0 1", "2", "2", "0.1"]);
  });
});
