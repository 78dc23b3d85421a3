/**
 * GRPO's group view (src/lab/inspect/groups.ts) on hand-made inputs: group/batch/none scaling (sums to 0 per
 * group, equals grpoAdvantages, zero-reward-std groups flagged and exactly 0), the loss types' token weights,
 * how many groups are shown, RLOO's leave-one-out baseline.
 */
import { describe, expect, it } from "vitest";
import { grpoAdvantages } from "../../src/algorithms/math/grpo";
import { groupInspect } from "../../src/lab/inspect/groups";
import { GROUP_MAX, GROUP_ROWS } from "../../src/lab/inspect/types";
import { TEXT } from "./inspect_text";

describe("GRPO group view", () => {
  // 3 groups of G = 3: spread scores, an all-equal group, two equal and one different.
  const scores = [1, 0, 0.5, 2, 2, 2, 0, 1, 1];
  const input = {
    step: 1,
    algo: "grpo",
    rule: "grpo" as const,
    G: 3,
    scaleRewards: "batch" as const,
    scoreFormula: null,
    scoreNote: null,
    prompts: [[1], [1], [1], [2], [2], [2], [3], [3], [3]],
    completions: scores.map((_, i) => [i % 5]),
    reward: scores,
    scores,
  };

  it("gives (R − mean)/(std + 1e-4) per group, batch std and none, as grpoAdvantages does", () => {
    const v = groupInspect(input, TEXT);
    expect(v.totalGroups).toBe(3);
    expect(v.groups).toHaveLength(3);
    expect(v.scaleRewards).toBe("batch");
    const g0 = v.groups[0];
    // Group 0: mean 0.5, sample std sqrt(((0.5)² + (0.5)² + 0)/2) = 0.5.
    expect(g0.mean).toBeCloseTo(0.5, 12);
    expect(g0.std).toBeCloseTo(0.5, 12);
    expect(g0.rows.map((r) => r.byScale?.group)).toEqual([
      expect.closeTo(0.5 / 0.5001, 12),
      expect.closeTo(-0.5 / 0.5001, 12),
      0,
    ]);
    expect(g0.rows.map((r) => r.byScale?.none)).toEqual([0.5, -0.5, 0]);
    const m = 9.5 / 9;
    const batchStd = Math.sqrt(scores.reduce((a, s) => a + (s - m) ** 2, 0) / 8);
    expect(v.batchStd).toBeCloseTo(batchStd, 12);
    expect(g0.rows[0].byScale?.batch).toBeCloseTo(0.5 / (batchStd + 1e-4), 12);
    for (const mode of ["group", "batch", "none"] as const) {
      const want = grpoAdvantages(scores, 3, mode).advantages;
      const got = v.groups.flatMap((g) => g.rows.map((r) => r.byScale?.[mode]));
      expect(got).toEqual(Array.from(want));
    }
    for (const g of v.groups) {
      const sum = g.rows.reduce((a, r) => a + (r.byScale?.group ?? Number.NaN), 0);
      expect(Math.abs(sum)).toBeLessThan(1e-12);
    }
  });

  it("gives each completion's per-token weight under grpo, dapo and dr_grpo, by hand and as the loss weighs", () => {
    // Lengths 1..5 repeating (tokens counted in the loss), n = 1+2+3+4+5+1+2+3+4 = 25, B = 9, L = 6.
    const completions = scores.map((_, i) => Array.from({ length: (i % 5) + 1 }, () => 0));
    const v = groupInspect({ ...input, completions, loss: { lossType: "dapo", L: 6 } }, TEXT);
    expect(v.loss).toEqual({ lossType: "dapo", B: 9, n: 25, L: 6 });
    const rows = v.groups.flatMap((g) => g.rows);
    rows.forEach((r, i) => {
      const len = (i % 5) + 1;
      expect(r.length).toBe(len);
      expect(r.byLoss?.grpo).toBeCloseTo(1 / (9 * len), 15);
      expect(r.byLoss?.dapo).toBeCloseTo(1 / 25, 15);
      expect(r.byLoss?.dr_grpo).toBeCloseTo(1 / (9 * 6), 15);
    });
    // grpo: every completion's weights add up to 1/B whatever its length.
    for (const r of rows) expect((r.byLoss?.grpo ?? 0) * r.length).toBeCloseTo(1 / 9, 15);
    // RLOO and runs without a loss type: none.
    expect(groupInspect(input, TEXT).loss).toBeUndefined();
    // L below the run's max tokens (the model's context cut it): both are in the view, for the note to say so.
    const cut = groupInspect(
      { ...input, completions, loss: { lossType: "dr_grpo", L: 6, maxNewTokens: 48 } },
      TEXT,
    );
    expect(cut.loss).toEqual({ lossType: "dr_grpo", B: 9, n: 25, L: 6, maxNewTokens: 48 });
    expect(groupInspect(input, TEXT).groups[0].rows[0].byLoss).toBeUndefined();
  });

  it("flags a group whose scores are all equal and gives it exactly 0 advantages", () => {
    const v = groupInspect(input, TEXT);
    expect(v.groups.map((g) => g.zeroStd)).toEqual([false, true, false]);
    expect(v.groups[1].std).toBe(0);
    for (const r of v.groups[1].rows) expect(r.byScale).toEqual({ group: 0, batch: 0, none: 0 });
  });

  it(`shows at most ${GROUP_MAX} groups and ${GROUP_ROWS} completions (at least one group)`, () => {
    const inputOf = (G: number, B: number) => {
      const many = Array.from({ length: B }, (_, i) => i % 3);
      return {
        ...input,
        G,
        prompts: many.map(() => [1]),
        completions: many.map(() => [0]),
        reward: many,
        scores: many,
      };
    };
    // The lessons' batches come whole: 16 prompts × G 2.
    expect(groupInspect(inputOf(2, 32), TEXT).groups).toHaveLength(16);
    const v = groupInspect(inputOf(2, 2 * (GROUP_MAX + 8)), TEXT);
    expect(v.groups).toHaveLength(GROUP_MAX);
    expect(v.totalGroups).toBe(GROUP_MAX + 8);
    const byRows = groupInspect(inputOf(16, 16 * 12), TEXT);
    expect(byRows.groups).toHaveLength(GROUP_ROWS / 16);
    const w = groupInspect(inputOf(2 * GROUP_ROWS, 4 * GROUP_ROWS), TEXT);
    expect(w.groups).toHaveLength(1);
    expect(w.groups[0].rows).toHaveLength(2 * GROUP_ROWS);
    expect(w.totalGroups).toBe(2);
  });

  it("RLOO: A_i = s_i − mean of the others, baseline = that mean", () => {
    const s = [3, 0, 0, 1, 1, 1];
    const v = groupInspect(
      {
        ...input,
        rule: "rloo",
        G: 3,
        scaleRewards: null,
        prompts: s.map(() => [1]),
        completions: s.map(() => [0]),
        reward: [4, 1, 1, 1, 1, 1],
        scores: s,
      },
      TEXT,
    );
    expect(v.scaleRewards).toBeNull();
    const g0 = v.groups[0].rows;
    expect(g0.map((r) => r.advantage)).toEqual([3, -1.5, -1.5]);
    expect(g0.map((r) => r.baseline)).toEqual([0, 1.5, 1.5]);
    expect(g0.map((r) => r.reward)).toEqual([4, 1, 1]);
    expect(g0[0].byScale).toBeUndefined();
    expect(v.groups[1].rows.map((r) => r.advantage)).toEqual([0, 0, 0]);
  });

  it("flags a group by its rewards, as frac_reward_zero_std counts, though RLOO's scores (with −β·KL) differ", () => {
    // A reviewer's RLOO batch: rewards [0.2, 0.2, 0.2] and [0, 0, 0], the metric 1, and no group flagged.
    const v = groupInspect(
      {
        ...input,
        rule: "rloo",
        G: 3,
        scaleRewards: null,
        prompts: [[1], [1], [1], [2], [2], [2]],
        completions: [[0], [0], [0], [0], [0], [0]],
        reward: [0.2, 0.2, 0.2, 0, 1, 0],
        scores: [0.0156, -0.1726, -0.4127, 0.1, 0.9, -0.2],
      },
      TEXT,
    );
    expect(v.groups.map((g) => g.zeroStd)).toEqual([true, false]);
    // Its advantages are the KL penalty's, not zero: the page says so (GroupTable).
    expect(v.groups[0].std).toBeGreaterThan(0);
    expect(v.groups[0].rows.some((r) => r.advantage !== 0)).toBe(true);
  });

  it("rejects a batch that is not whole groups", () => {
    expect(() => groupInspect({ ...input, G: 4 }, TEXT)).toThrow(/whole number of groups/);
  });
});
