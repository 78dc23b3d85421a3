import { describe, expect, it } from "vitest";
import { trlLength } from "../../src/lab/export/trl_length";
import { trlScript } from "../../src/lab/export/trl_script";
import type { RunSpec } from "../../src/lab/protocol";
import { ALGO_IDS } from "../../src/lab/registry";

/**
 * The exported TRL script trains as long as the lab run did, in each trainer's own unit (src/lab/export/
 * trl_length.ts); without it TRL would run 3 epochs over PROMPTS (8,100 arithmetic prompts).
 */
const arith = { task: "arithmetic" as const, model: "sft" as const, seed: 0 };
const spec = (algo: RunSpec["algo"], config: RunSpec["config"] = {}): RunSpec => ({
  id: `${algo}-1`,
  algo,
  label: algo,
  config,
});
const script = (r: RunSpec, step: number) => trlScript(arith, { spec: r, step });

describe("TRL script length", () => {
  it("GRPO and RLOO count an optimizer step per update: max_steps = steps × num_iterations", () => {
    expect(script(spec("grpo", { numIterations: 4 }), 30)).toMatch(
      /\n {4}max_steps=120, {2}# the lab run's 30 steps × num_iterations 4/,
    );
    expect(script(spec("grpo"), 30)).toMatch(/\n {4}max_steps=30, {2}#/); // μ = 1 by default
    expect(script(spec("rloo", { numIterations: 2 }), 5)).toMatch(/\n {4}max_steps=10,/);
    expect(script(spec("safe_rlhf", { numIterations: 3 }), 5)).toMatch(/\n {4}max_steps=15,/);
    expect(script(spec("reinforce"), 7)).toMatch(/\n {4}max_steps=7,/);
  });

  it("PPO counts prompts: total_episodes = steps × prompts per step", () => {
    const p = script(spec("ppo", { batchPrompts: 12 }), 12);
    expect(p).toMatch(/\n {4}total_episodes=144, {2}# the lab run's 12 steps × 12 prompts/);
    expect(p).not.toMatch(/max_steps=/);
  });

  it("offline trainers take one batch a step; expert iteration one round a step", () => {
    for (const algo of ["dpo", "kto", "orpo"] as const)
      expect(script(spec(algo), 9), algo).toMatch(/\n {4}max_steps=9, {2}# the lab run's 9 steps/);
    expect(script(spec("dpo", { lossType: "simpo" }), 9)).toMatch(/CPOConfig\([\s\S]*\n {4}max_steps=9,/);
    const ei = script(spec("expert_iteration", { sftSteps: 3 }), 7);
    expect(ei).toMatch(/\nROUNDS = 7 {2}# the lab run's steps/);
    expect(ei).toMatch(/\n {8}max_steps=3,/); // each round's own SFT steps
    expect(script(spec("bon"), 4)).not.toMatch(/max_steps|total_episodes|ROUNDS/);
  });

  it("a run that has not trained keeps TRL's length and says so", () => {
    const g = script(spec("grpo"), 0);
    expect(g).not.toMatch(/max_steps=/);
    expect(g).toContain("The run had not trained yet, so TRL trains its own length");
    expect(script(spec("expert_iteration"), 0)).toMatch(/\nROUNDS = 20 {2}# PLACEHOLDER/);
  });

  it("has a length for every algorithm that trains", () => {
    for (const algo of ALGO_IDS) {
      const l = trlLength(algo, { numIterations: 2, batchPrompts: 4 }, 5);
      if (algo === "bon") expect(l).toEqual({ arg: null, rounds: null, note: null });
      else expect(l.arg !== null || l.rounds === 5, algo).toBe(true);
    }
  });
});
