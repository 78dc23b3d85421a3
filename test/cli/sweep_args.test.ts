import { describe, expect, it } from "vitest";
import { parseSeeds, settingGrid } from "../../cli/lab/grid";
import { runPath } from "../../cli/lab/train";
import { trainPlan } from "../../cli/lab/train_args";
import { ALGORITHMS } from "../../src/lab/registry";

const ppo = ALGORITHMS.ppo.fields;
const grid = (...sets: string[]) => settingGrid("ppo", ppo, sets);

describe("lab train sweeps: seeds and the grid of --set values", () => {
  it("reads seeds as lists and ranges, and refuses the rest", () => {
    expect(parseSeeds("0,1,2", 100)).toEqual([0, 1, 2]);
    expect(parseSeeds("0-4", 100)).toEqual([0, 1, 2, 3, 4]);
    expect(parseSeeds("0-2,7", 100)).toEqual([0, 1, 2, 7]);
    expect(() => parseSeeds("0,,1", 100)).toThrow(/--seeds must be whole numbers or ranges/);
    expect(() => parseSeeds("4-2", 100)).toThrow(/range 4-2 runs backwards/);
    expect(() => parseSeeds("0,1-3", 100)).not.toThrow();
    expect(() => parseSeeds("0,0-1", 100)).toThrow(/repeats seed 0/);
    expect(() => parseSeeds("99-101", 100)).toThrow(/must be in \[0, 100\]/);
    expect(() => parseSeeds("-1", 100)).toThrow(/--seeds must be whole numbers/);
  });

  it("takes every combination of the listed values, single values in every point", () => {
    const g = grid("beta=0.05,1", "lr=3e-3", "ppoEpochs=1,2");
    expect(g.map((p) => p.name)).toEqual([
      "beta=0.05_ppoEpochs=1",
      "beta=0.05_ppoEpochs=2",
      "beta=1_ppoEpochs=1",
      "beta=1_ppoEpochs=2",
    ]);
    expect(g[1].config).toEqual({ beta: 0.05, lr: 3e-3, ppoEpochs: 2 });
    expect(g[1].varied).toEqual({ beta: 0.05, ppoEpochs: 2 });
    // No list: one point, named "", exactly the settings a single run had.
    expect(grid("beta=1", "lr=3e-3")).toEqual([{ config: { beta: 1, lr: 3e-3 }, varied: {}, name: "" }]);
    expect(grid()).toEqual([{ config: {}, varied: {}, name: "" }]);
    // Linked settings per point, as for one run: SimPO brings its β = 2, sigmoid keeps DPO's 0.1.
    const dpo = settingGrid("dpo", ALGORITHMS.dpo.fields, ["lossType=sigmoid,simpo"]);
    expect(dpo.map((p) => p.config.beta)).toEqual([undefined, 2]);
  });

  it("refuses an empty, malformed, unknown, repeated or out-of-range value with the single run's messages", () => {
    expect(() => grid("beta=")).toThrow(/ppo\.beta must be a number \(decimal: 0\.1, 5, 3e-4\), got ""/);
    expect(() => grid("beta=0.05,")).toThrow(/--set beta=0\.05,: an empty value in the list/);
    expect(() => grid("beta=0.05,abc")).toThrow(
      /ppo\.beta must be a number \(decimal: 0\.1, 5, 3e-4\), got "abc"/,
    );
    expect(() => grid("beta")).toThrow(/--set expects key=value, got "beta"/);
    expect(() => grid("betta=0.1,1")).toThrow(/ppo: unknown setting "betta" \(known: /);
    expect(() => grid("betta=0.1")).toThrow(/ppo: unknown setting "betta" \(known: /);
    expect(() => grid("beta=0.1", "beta=1")).toThrow(
      /--set beta given twice \(give its values as one list: beta=a,b\)/,
    );
    expect(() => grid("beta=1,1")).toThrow(/--set beta=1,1: a value repeats/);
    expect(() => grid("lr=0.1,Infinity")).toThrow(/ppo\.lr must be a number in \[0, 1\], got Infinity/);
  });

  it("plans a sweep from --seeds or a list; one run otherwise, as before; sweep-only options refused there", () => {
    const base = { task: "arithmetic", algo: "ppo", steps: "3" };
    const one = trainPlan(base, ["beta=1"]);
    expect([one.sweep, one.seeds, one.grid.length, one.last]).toEqual([false, [0], 1, 3]);
    const sweep = trainPlan({ ...base, seeds: "0-1", steps: "30" }, ["beta=0.05,1"]);
    expect([sweep.sweep, sweep.seeds, sweep.grid.length, sweep.last]).toEqual([true, [0, 1], 2, 10]);
    expect(trainPlan({ ...base, last: "2" }, ["beta=0.05,1"]).last).toBe(2);
    expect(() => trainPlan({ ...base, seed: "1", seeds: "0,1" }, [])).toThrow(
      /give --seed S or --seeds list/,
    );
    expect(() => trainPlan({ ...base, last: "2" }, [])).toThrow(/--last summarises a sweep/);
    expect(() => trainPlan({ ...base, seeds: "0,1", save: "/tmp/x.safetensors" }, [])).toThrow(
      /--save keeps one run/,
    );
    expect(() => trainPlan({ ...base, seeds: "0,1", last: "4" }, [])).toThrow(
      /--last must be a whole number in \[1, 3\]/,
    );
    expect(() => trainPlan({ ...base, seeds: "0,1", summary: "/tmp/s.txt" }, [])).toThrow(
      /give a \.csv or \.json/,
    );
    expect(runPath("runs/", grid("beta=0.05,1")[1], 2)).toBe("runs/beta=1/seed2.jsonl");
    expect(runPath("runs", grid()[0], 0)).toBe("runs/seed0.jsonl");
  });
});
