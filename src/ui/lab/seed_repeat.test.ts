/**
 * "Repeat on other seeds" (seed_repeat.ts): copies of a run with the same algorithm and settings, from the start
 * model (no fork point), on the next seeds no identical run uses, labelled with their seed, within MAX_RUNS.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../lab/defaults";
import type { RunSpec } from "../../lab/protocol";
import { MAX_RUNS } from "../../lab/settings";
import { configKey, repeatSpecs } from "./seed_repeat";

describe("Repeat on other seeds", () => {
  const runs = defaultExperiment().runs;
  const ppo = runs[0];

  it("adds 2 copies on the next unused seeds, from the start model, labelled with their seed", () => {
    const { specs, note } = repeatSpecs(runs, runs, ppo, 0);
    expect(note).toBeNull();
    expect(specs.map((s) => [s.label, s.seed, s.algo])).toEqual([
      ["PPO seed 1", 1, "ppo"],
      ["PPO seed 2", 2, "ppo"],
    ]);
    for (const s of specs) {
      expect(s.config).toEqual(ppo.config);
      expect(s.forkOf).toBeUndefined();
      expect(configKey(s)).toBe(configKey(ppo));
    }
    expect(new Set([...runs, ...specs].map((r) => r.id)).size).toBe(5);
    // The three default runs take colour slots 0–2 in order: the copies the next free ones.
    expect(specs.map((s) => s.colour)).toEqual([3, 4]);
    // Again: seeds 1 and 2 are taken by identical runs; from a copy, its label's seed mark is replaced.
    const more = [...runs, ...specs];
    expect(repeatSpecs(more, more, ppo, 0).specs.map((s) => s.seed)).toEqual([3, 4]);
    expect(repeatSpecs(more, more, specs[1], 0).specs.map((s) => s.label)).toEqual([
      "PPO seed 3",
      "PPO seed 4",
    ]);
    // A run with other settings on seed 1 leaves seed 1 free; the experiment's seed 5 is the source's.
    const other: RunSpec = {
      ...ppo,
      id: "ppo-9",
      label: "PPO β 1",
      config: { ...ppo.config, beta: 1 },
      seed: 1,
    };
    expect(repeatSpecs([...runs, other], [...runs, other], ppo, 0).specs.map((s) => s.seed)).toEqual([1, 2]);
    expect(repeatSpecs(runs, runs, ppo, 5).specs.map((s) => s.seed)).toEqual([6, 7]);
  });

  it("adds what the run limit leaves room for, and says so", () => {
    const many = (n: number): RunSpec[] =>
      Array.from({ length: n }, (_, i) => ({ ...runs[1], id: `dpo-${i + 1}`, label: `DPO ${i + 1}` }));
    const eleven = [ppo, ...many(MAX_RUNS - 2)];
    const one = repeatSpecs(eleven, eleven, ppo, 0);
    expect(one.specs.map((s) => s.seed)).toEqual([1]);
    expect(one.note).toMatch(/^Only 1 of 2 copies of PPO could be added: 12 runs is the most a lab holds/);
    const full = [ppo, ...many(MAX_RUNS - 1)];
    const none = repeatSpecs(full, full, ppo, 0);
    expect(none.specs).toEqual([]);
    expect(none.note).toMatch(/^No copy of PPO could be added/);
  });

  it("counts a copy being added once, though it is both pending and in the lab's spec", () => {
    const many = (n: number): RunSpec[] =>
      Array.from({ length: n }, (_, i) => ({ ...runs[1], id: `dpo-${i + 1}`, label: `DPO ${i + 1}` }));
    // 10 runs, one of them (dpo-3) an overlapping add's copy that the store already lists: room for 2.
    const ten = [ppo, ...many(MAX_RUNS - 3)];
    const listed = [...ten, ten[3]];
    const both = repeatSpecs(listed, listed, ppo, 0);
    expect(both.specs.map((s) => s.seed)).toEqual([1, 2]);
    expect(both.note).toBeNull();
  });

  it("gives the source its seed when it makes copies, so Change… keeps the three seeds apart", () => {
    expect(repeatSpecs(runs, runs, ppo, 4).sourceSeed).toBe(4);
    // Its own seed already: left as it is; no copy made: left.
    expect(repeatSpecs(runs, runs, { ...ppo, seed: 3 }, 4).sourceSeed).toBeNull();
    const full = [ppo, ...Array.from({ length: MAX_RUNS - 1 }, (_, i) => ({ ...runs[1], id: `d${i}` }))];
    expect(repeatSpecs(full, full, ppo, 0).sourceSeed).toBeNull();
  });
});
