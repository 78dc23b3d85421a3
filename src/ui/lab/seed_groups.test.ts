/**
 * The seeds summary's numbers (seed_groups.ts) against a hand computation on known histories: the mean over each
 * run's last N points up to the group's smallest last step (N = 10, or fewer where a run has fewer there), then
 * mean ± sample sd (n − 1) across seeds.
 */
import { describe, expect, it } from "vitest";
import type { MetricPoint, RunSpec } from "../../lab/protocol";
import { toBibtex } from "../explain/bibtex";
import { PAPERS } from "../explain/papers";
import { lastMean, meanSd, type SeedRun, seedGroups } from "./seed_groups";

const lab = { task: "arithmetic", model: "nano", seed: 0 };
const ppo: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: { beta: 0.05 } };

/** Steps 1…steps: reward = step / 100 + k, entropy = e, exact KL = step (absent with `noExact`). */
function history(steps: number, k: number, e: number, noExact = false): MetricPoint[] {
  return Array.from({ length: steps }, (_, i) => ({
    step: i + 1,
    samples: i + 1,
    tokens: i + 1,
    metrics: {
      reward: (i + 1) / 100 + k,
      reward_gold: k,
      entropy: e,
      "objective/kl": 2 * (i + 1),
      ...(noExact ? {} : { "objective/kl_exact": i + 1 }),
    },
  }));
}

const run = (spec: Partial<RunSpec>, h: MetricPoint[], extra: Partial<SeedRun> = {}): SeedRun => ({
  spec: { ...ppo, ...spec },
  history: h,
  ...extra,
});

describe("seeds summary", () => {
  it("mean ± sd across seeds of each run's mean over its last 10 steps, as by hand", () => {
    const runs = [
      run({}, history(12, 0, 1)),
      run({ id: "ppo-2", label: "PPO seed 1", seed: 1 }, history(12, 1, 2)),
      run({ id: "ppo-3", label: "PPO seed 2", seed: 2 }, history(12, 2, 4)),
      // Other settings, one seed: no group.
      run({ id: "ppo-4", label: "PPO β 1", config: { beta: 1 } }, history(12, 5, 5)),
    ];
    const [g, ...rest] = seedGroups(runs, lab);
    expect(rest).toEqual([]);
    expect(g.label).toBe("PPO");
    expect(g.seeds).toEqual([0, 1, 2]);
    expect(g.n).toBe(10);
    expect(g.window).toEqual([3, 12]);
    expect(g.steps).toEqual([12, 12]);
    // Steps 3…12: reward means 0.075 + k for k = 0, 1, 2 → 1.075 ± 1.
    expect(g.reward?.mean).toBeCloseTo(1.075, 12);
    expect(g.reward?.sd).toBeCloseTo(1, 12);
    // Entropies 1, 2, 4: mean 7/3, sd √(((4/3)² + (1/3)² + (5/3)²) / 2) = √(7/3).
    expect(g.entropy?.mean).toBeCloseTo(7 / 3, 12);
    expect(g.entropy?.sd).toBeCloseTo(Math.sqrt(7 / 3), 12);
    // Exact KL of steps 3…12: 7.5 on every seed.
    expect(g.klKey).toBe("objective/kl_exact");
    expect(g.kl).toEqual({ mean: 7.5, sd: 0 });
    // It optimises the gold scorer: its gold reward is its reward.
    expect(g.gold).toBeNull();
  });

  it("a run that trained further is read at the steps its copies reached, not at its own end", () => {
    // Repeat on other seeds: the source at step 100, its copies at step 10; reward = step / 100, no seed noise.
    const runs = [
      run({}, history(100, 0, 1)),
      run({ id: "ppo-2", label: "PPO seed 1", seed: 1 }, history(10, 0, 1)),
      run({ id: "ppo-3", label: "PPO seed 2", seed: 2 }, history(10, 0, 1)),
    ];
    const [g] = seedGroups(runs, lab);
    // Every run read at steps 1…10: reward (1 + … + 10) / 10 / 100 = 0.055 on each seed, no spread (before:
    // the source's steps 91…100 gave 0.955 against the copies' 0.055: 0.355 ± 0.52, all of it progress).
    expect(g.n).toBe(10);
    expect(g.window).toEqual([1, 10]);
    expect(g.steps).toEqual([10, 100]);
    expect(g.reward?.mean).toBeCloseTo(0.055, 12);
    expect(g.reward?.sd).toBeCloseTo(0, 12);
    expect(g.kl).toEqual({ mean: 5.5, sd: 0 });
    // A window of 91…100 once the copies reach step 100 too.
    const later = [run({}, history(100, 0, 1)), run({ id: "ppo-2", seed: 1 }, history(100, 0, 1))];
    expect(seedGroups(later, lab)[0]?.window).toEqual([91, 100]);
    expect(seedGroups(later, lab)[0]?.reward?.mean).toBeCloseTo(0.955, 12);
  });

  it("N is what a run has in the window; k1 where a run lacks the exact KL; gold where the reward is a proxy", () => {
    const proxy = { beta: 0.05, reward: "proxy" };
    const runs = [
      run({ config: proxy }, history(12, 0, 1)),
      run({ id: "ppo-2", label: "PPO seed 1", seed: 1, config: proxy }, history(4, 1, 1, true)),
    ];
    const [g] = seedGroups(runs, lab);
    expect(g.n).toBe(4);
    expect(g.window).toEqual([1, 4]);
    expect(g.steps).toEqual([4, 12]);
    // Both read at steps 1…4: seed 0 0.025, seed 1 1.025.
    expect(g.reward?.mean).toBeCloseTo((0.025 + 1.025) / 2, 12);
    expect(g.reward?.sd).toBeCloseTo(1 / Math.SQRT2, 12);
    expect(g.klKey).toBe("objective/kl");
    // k1 = 2·step: steps 1…4 → 5 on both.
    expect(g.kl?.mean).toBeCloseTo(5, 12);
    // A run with fewer points in the window (a gap: steps 7, 9, 10 only) sets N for the group: 3.
    const gappy = history(10, 1, 1).filter((p) => p.step === 7 || p.step >= 9);
    const [h] = seedGroups([run({}, history(20, 0, 1)), run({ id: "ppo-2", seed: 1 }, gappy)], lab);
    expect(h.n).toBe(3);
    // Seed 0 steps 8…10: 0.09; seed 1 steps 7, 9, 10: 1 + 0.26 / 3.
    expect(h.window).toEqual([7, 10]);
    expect(h.reward?.mean).toBeCloseTo((0.09 + 1 + 0.26 / 3) / 2, 12);
    expect(g.gold).toEqual(meanSd([0, 1]));
  });

  it("one seed counted once; runs without steps wait; an import counts on its own file's seed where comparable", () => {
    const fork = run({ id: "ppo-5", label: "PPO (fork @ 3)" }, history(5, 9, 9));
    expect(seedGroups([run({}, history(3, 0, 1)), fork], lab)).toEqual([]);
    expect(seedGroups([run({}, history(3, 0, 1)), run({ id: "b", seed: 1 }, [])], lab)).toEqual([]);
    // Trained on its own seed 3 in a seed-0 experiment: the same nano init as this seed-0 lab's.
    const imported = run({ id: "ppo-9", label: "PPO (imported, seed 3)" }, history(3, 1, 1), {
      comparison: true,
      origin: { task: "arithmetic", model: "nano", seed: 3, experimentSeed: 0 },
    });
    expect(seedGroups([run({}, history(3, 0, 1)), imported], lab)[0]?.seeds).toEqual([0, 3]);
    // A seed-3 experiment's run: its nano start was initialised from seed 3, not this lab's 0.
    const otherInit = {
      ...imported,
      origin: { task: "arithmetic" as const, model: "nano" as const, seed: 3 },
    };
    expect(seedGroups([run({}, history(3, 0, 1)), otherInit], lab)).toEqual([]);
    // On the shipped SFT model no seed changes the start: it counts.
    const sftLab = { ...lab, model: "sft" };
    const sft = { ...imported, origin: { task: "arithmetic" as const, model: "sft" as const, seed: 3 } };
    expect(seedGroups([run({}, history(3, 0, 1)), sft], sftLab)[0]?.seeds).toEqual([0, 3]);
    const elsewhere = { ...imported, origin: { task: "sentiment" as const, model: "sft" as const, seed: 3 } };
    expect(seedGroups([run({}, history(3, 0, 1)), elsewhere], lab)).toEqual([]);
    expect(lastMean(history(3, 0, 1), "reward", 4)).toBeNull();
  });

  it("an import counts only where it started from this lab's Pipeline model (or, without one, from none)", () => {
    const base = run({}, history(3, 0, 1));
    const handed = run({ id: "ppo-9", label: "PPO (imported, seed 3)" }, history(3, 1, 1), {
      comparison: true,
      origin: { task: "arithmetic", model: "nano", seed: 3, startModel: "SFT model (step 40)" },
    });
    // This lab starts from the shipped/preset model: the import's Pipeline start is another start model.
    expect(seedGroups([base, handed], lab)).toEqual([]);
    expect(seedGroups([base, handed], { ...lab, startModel: null })).toEqual([]);
    // This lab started from another Pipeline model: not the same start either.
    expect(seedGroups([base, handed], { ...lab, startModel: "SFT model (step 80)" })).toEqual([]);
    // The same hand-off's name from an experiment of another seed: the Pipeline trained it from another preset
    // init (src/lab/pipeline.ts), so other weights: not comparable.
    expect(seedGroups([base, handed], { ...lab, startModel: "SFT model (step 40)" })).toEqual([]);
    // The same hand-off in an experiment of this lab's seed, the run on its own seed 3: one group on seeds 0 and 3.
    const own = { ...handed, origin: { ...handed.origin, experimentSeed: lab.seed } };
    expect(seedGroups([base, own], { ...lab, startModel: "SFT model (step 40)" })[0]?.seeds).toEqual([0, 3]);
    // A lab on a hand-off, an import from the plain start model: not comparable.
    const plain = { ...handed, origin: { task: "arithmetic" as const, model: "nano" as const, seed: 3 } };
    expect(seedGroups([base, plain], { ...lab, startModel: "SFT model (step 40)" })).toEqual([]);
  });

  it("a non-finite value inside the window empties that metric's cell, never reads the run at other steps", () => {
    const b = history(20, 1, 1);
    b[19].metrics.reward = Number.NaN;
    const [g] = seedGroups([run({}, history(20, 0, 1)), run({ id: "ppo-2", seed: 1 }, b)], lab);
    expect(g.window).toEqual([11, 20]);
    expect(g.reward).toBeNull();
    // The other metrics are whole in the window: still read.
    expect(g.entropy).not.toBeNull();
  });

  it("cites Henderson et al. 2018 with a BibTeX entry", () => {
    const bib = toBibtex(PAPERS.henderson);
    expect(bib).toContain("Deep Reinforcement Learning that Matters");
    expect(bib).toContain("Peter Henderson and Riashat Islam");
    expect(bib).toContain("1709.06560");
  });
});
