/**
 * The settings that follow a change on a run card (Safe RLHF's limit d with its cost, DPO's β with its loss), and
 * a change as a screen reader hears it.
 */
import { describe, expect, it } from "vitest";
import { DPO_FIELDS } from "../../algorithms/dpo";
import { PPO_FIELDS } from "../../algorithms/ppo";
import { SAFE_RLHF_FIELDS } from "../../algorithms/safe_rlhf";
import { LOSS_BETAS, linkedSettings } from "../../lab/linked_settings";
import { COST_LIMITS, TASK_COSTS } from "../../lab/settings";
import { changeSentence, simpoBetaNote } from "./knobs";

describe("linkedSettings", () => {
  const safe = (config: Record<string, string | number>) => ({ algo: "safe_rlhf" as const, config });

  it("moves Safe RLHF's d with the cost while d is the old cost's suggestion", () => {
    expect(linkedSettings(safe({}), { cost: "positive_words" })).toEqual({
      cost: "positive_words",
      costLimit: 1,
    });
    expect(linkedSettings(safe({ cost: "positive_words", costLimit: 1 }), { cost: "length" })).toEqual({
      cost: "length",
      costLimit: 8,
    });
  });

  it("keeps a d the user chose, a d sent with the change, and every other change", () => {
    expect(linkedSettings(safe({ costLimit: 20 }), { cost: "positive_words" })).toEqual({
      cost: "positive_words",
    });
    expect(linkedSettings(safe({}), { cost: "positive_words", costLimit: 3 })).toEqual({
      cost: "positive_words",
      costLimit: 3,
    });
    expect(linkedSettings(safe({}), { lambdaLr: 0.1 })).toEqual({ lambdaLr: 0.1 });
    expect(linkedSettings({ algo: "ppo" as const, config: {} }, { cost: "positive_words" })).toEqual({
      cost: "positive_words",
    });
  });

  it("moves DPO's β with the loss while β is the old loss's (SimPO's 2, DPO's 0.1), and notes a small β on SimPO", () => {
    const dpo = (config: Record<string, string | number>) => ({ algo: "dpo" as const, config });
    expect(linkedSettings(dpo({}), { lossType: "simpo" })).toEqual({ lossType: "simpo", beta: 2 });
    expect(linkedSettings(dpo({ lossType: "simpo", beta: 2 }), { lossType: "ipo" })).toEqual({
      lossType: "ipo",
      beta: 0.1,
    });
    expect(linkedSettings(dpo({ lossType: "ipo" }), { lossType: "hinge" })).toEqual({ lossType: "hinge" });
    // A β the user chose, or one sent with the change, stays.
    expect(linkedSettings(dpo({ beta: 0.3 }), { lossType: "simpo" })).toEqual({ lossType: "simpo" });
    expect(linkedSettings(dpo({}), { lossType: "simpo", beta: 1 })).toEqual({ lossType: "simpo", beta: 1 });
    expect(linkedSettings({ algo: "grpo" as const, config: {} }, { lossType: "dapo" })).toEqual({
      lossType: "dapo",
    });
    // The field's default is DPO's β; SimPO's is the spec's.
    expect(DPO_FIELDS.find((f) => f.key === "beta")?.default).toBe(LOSS_BETAS.sigmoid);
    expect(LOSS_BETAS.simpo).toBe(2);
    expect(simpoBetaNote("dpo", { lossType: "simpo" })).toMatch(/β = 2 to 2\.5/);
    expect(simpoBetaNote("dpo", { lossType: "simpo", beta: 2 })).toBeNull();
    expect(simpoBetaNote("dpo", { lossType: "sigmoid" })).toBeNull();
  });

  it("says a settings change as a screen reader hears it: the run, each value before → after, when it applies", () => {
    expect(changeSentence("PPO", PPO_FIELDS, { beta: 0.05 }, { beta: 0.25 }, true)).toBe(
      "PPO: β 0.05 → 0.25, from its next step.",
    );
    // The value before is the default when the run never set it; linked settings come along; units kept.
    expect(
      changeSentence("DPO", DPO_FIELDS, {}, { lossType: "simpo", beta: 2, maxNewTokens: 12 }, false),
    ).toBe("DPO: loss sigmoid → simpo, β 0.1 → 2, max tokens 24 tokens → 12 tokens, from its first step.");
  });

  it("suggests a limit for every cost a task defines, and length's is the field's default", () => {
    const d = SAFE_RLHF_FIELDS.find((f) => f.key === "costLimit")!;
    expect(COST_LIMITS.length).toBe(d.default);
    for (const costs of Object.values(TASK_COSTS))
      for (const c of costs) expect(COST_LIMITS[c]).toBeGreaterThan(0);
  });
});
