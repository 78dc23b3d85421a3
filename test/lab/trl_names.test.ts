import { describe, expect, it } from "vitest";
import { trlNames } from "../../src/lab/export/trl_names";
import { trlScript } from "../../src/lab/export/trl_script";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";

describe("TRL's names in the knob tooltips", () => {
  it("name the keyword of the class the run maps to, in TRL's unit, or why there is none", () => {
    const grpo = trlNames("grpo", { batchPrompts: 4, numGenerations: 8 });
    expect(grpo.batchPrompts).toBe(
      "GRPOConfig per_device_train_batch_size (TRL counts completions: 4 prompts × 8 samples = 32)",
    );
    expect(grpo.epsilonHigh).toMatch(/^GRPOConfig epsilon_high/);
    // PPOConfig calls the completion length response_length; GRPO max_completion_length.
    expect(trlNames("ppo", {}).maxNewTokens).toBe("PPOConfig response_length");
    expect(grpo.maxNewTokens).toBe("GRPOConfig max_completion_length");
    // SimPO is TRL's CPOTrainer: its γ is CPOConfig's simpo_gamma; DPOConfig samples nothing.
    const simpo = trlNames("dpo", { lossType: "simpo" });
    expect(simpo.simpoGamma).toBe("CPOConfig simpo_gamma");
    expect(simpo.lossType).toBe("CPOConfig loss_type");
    const dpo = trlNames("dpo", {});
    expect(dpo.temperature).toBe("none: DPOConfig has no temperature");
    expect(dpo.simpoGamma).toBe("none: DPOConfig has no simpo_gamma");
    expect(trlNames("bon", {}).n).toBe("none: no TRL trainer");
    expect(grpo.reward).toBe("none: the script's score() is this reward");
    // GRPOConfig's entropy_coef exists from TRL 1.x on, and TRL averages it over all tokens (the lab's dapo).
    expect(trlNames("grpo", { entCoef: 0.1 }).entCoef).toBe(
      'GRPOConfig entropy_coef (TRL averages the entropy over all the batch\'s completion tokens (the lab\'s loss_type "dapo" weighting), not by loss_type "grpo"; TRL 1.x with entropy regularisation, e.g. 1.13; TRL 0.x\'s GRPOTrainer has no entropy bonus)',
    );
    expect(trlNames("grpo", { lossType: "dapo", entCoef: 0.1 }).entCoef).toBe(
      "GRPOConfig entropy_coef (TRL 1.x with entropy regularisation, e.g. 1.13; TRL 0.x's GRPOTrainer has no entropy bonus)",
    );
    // At 0 (off, TRL's default too) how TRL would average it does not matter.
    expect(grpo.entCoef).toBe(
      "GRPOConfig entropy_coef (TRL 1.x with entropy regularisation, e.g. 1.13; TRL 0.x's GRPOTrainer has no entropy bonus)",
    );
    expect(trlNames("ppo", {}).entCoef).toBe("none: PPOConfig has no entropy_coef");
    // Invalid settings: no names (the tooltip falls back to the field table's).
    expect(trlNames("grpo", { numGenerations: -3 })).toEqual({});
  });

  it("cover every field of every algorithm, without Markdown", () => {
    for (const id of ALGO_IDS) {
      const names = trlNames(id, {});
      for (const f of ALGORITHMS[id].fields) {
        expect(names[f.key], `${id}.${f.key}`).toBeTruthy();
        expect(names[f.key], `${id}.${f.key}`).not.toMatch(/`| below/);
      }
    }
  });

  it("the TRL script writes GRPO's ε_high as the number the lab uses (ε at the default 0)", () => {
    const exp = { task: "arithmetic" as const, model: "nano" as const, seed: 0 };
    const script = (config: Record<string, number>) =>
      trlScript(exp, { spec: { id: "g", algo: "grpo", label: "GRPO", config }, step: 2 });
    expect(script({})).toMatch(/\n\s*epsilon_high=0\.2,.*the lab's 0: the upper clip follows ε/);
    expect(script({ epsilon: 0.1 })).toMatch(/\n\s*epsilon_high=0\.1,/);
    expect(script({ epsilon: 0.1, epsilonHigh: 0.28 })).toMatch(/\n\s*epsilon_high=0\.28,/);
  });
});
