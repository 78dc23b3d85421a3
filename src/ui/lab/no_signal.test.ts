import { describe, expect, it } from "vitest";
import { LEARNS_FROM, REWARD_LEARNERS } from "../../lab/algo_ids";
import type { MetricPoint } from "../../lab/protocol";
import { ALGO_IDS } from "../../lab/registry";
import { DRIFT_NATS, NO_SIGNAL_STEPS, noSignalNote } from "./no_signal";

const point = (step: number, metrics: Record<string, number>): MetricPoint => ({
  step,
  samples: step * 8,
  tokens: step * 40,
  metrics,
});
const steps = (n: number, metrics: (i: number) => Record<string, number>) =>
  Array.from({ length: n }, (_, i) => point(i + 1, metrics(i)));

describe("noSignalNote", () => {
  it("says so after NO_SIGNAL_STEPS group steps in which every group scored the same", () => {
    const h = steps(NO_SIGNAL_STEPS, () => ({ reward: 0, reward_std: 0, frac_reward_zero_std: 1 }));
    const note = noSignalNote(h, true);
    expect(note).toContain(`last ${NO_SIGNAL_STEPS} steps`);
    expect(note).toContain("each group scored 0");
    expect(note).toContain("randomly initialised");
    expect(noSignalNote(h, false)).not.toContain("randomly initialised");
  });

  it("blames drift when the policy has moved far from its start, and names G only for group methods", () => {
    const drifted = steps(NO_SIGNAL_STEPS, () => ({
      reward: 0,
      reward_std: 0,
      frac_reward_zero_std: 1,
      "objective/kl_exact": DRIFT_NATS * 8,
    }));
    expect(noSignalNote(drifted, false)).toContain("moved far from its start (exact KL 40 nats)");
    const near = steps(NO_SIGNAL_STEPS, () => ({ reward: 0, reward_std: 0, "objective/kl_exact": 0.3 }));
    expect(noSignalNote(near, false)).toContain("A higher temperature or a denser reward");
    const groups = steps(NO_SIGNAL_STEPS, () => ({ reward: 0, reward_std: 0, frac_reward_zero_std: 1 }));
    expect(noSignalNote(groups, false)).toContain("a larger group (G)");
  });

  it("Safe RLHF: tied rewards still teach while the costs differ (its penalised scores decide)", () => {
    const tiedRewards = steps(NO_SIGNAL_STEPS, () => ({
      reward: 0,
      reward_std: 0,
      frac_reward_zero_std: 1,
      "objective/frac_score_zero_std": 0.5,
    }));
    expect(noSignalNote(tiedRewards, false)).toBeNull();
    const tiedScores = steps(NO_SIGNAL_STEPS, () => ({
      reward: 0,
      frac_reward_zero_std: 1,
      "objective/frac_score_zero_std": 1,
    }));
    expect(noSignalNote(tiedScores, false)).toContain("each group");
  });

  it("stays quiet with fewer steps, or when one recent step had signal", () => {
    const flat = () => ({ reward: 0, reward_std: 0, frac_reward_zero_std: 1 });
    expect(noSignalNote(steps(NO_SIGNAL_STEPS - 1, flat), true)).toBeNull();
    const h = steps(NO_SIGNAL_STEPS + 3, (i) =>
      i === NO_SIGNAL_STEPS + 1 ? { reward: 0.1, reward_std: 0.3, frac_reward_zero_std: 0.75 } : flat(),
    );
    expect(noSignalNote(h, true)).toBeNull();
    // Signal long ago does not hide a flat recent stretch.
    const later = [...h, ...steps(NO_SIGNAL_STEPS, flat)];
    expect(noSignalNote(later, true)).not.toBeNull();
  });

  it("for groups, zero std in every group is enough even when the groups differ", () => {
    const h = steps(NO_SIGNAL_STEPS, (i) => ({ reward: i / 10, reward_std: 0, frac_reward_zero_std: 1 }));
    expect(noSignalNote(h, false)).toContain("scored the same as the others");
    // Some groups with a winner: signal.
    const some = steps(NO_SIGNAL_STEPS, () => ({ reward: 0.2, reward_std: 0.1, frac_reward_zero_std: 0.9 }));
    expect(noSignalNote(some, false)).toBeNull();
  });

  it("without groups it reads the batch's reward std; pair methods (no reward std) never get the note", () => {
    expect(
      noSignalNote(
        steps(NO_SIGNAL_STEPS, () => ({ reward: 1, reward_std: 0 })),
        false,
      ),
    ).toContain("in the batch scored 1");
    expect(
      noSignalNote(
        steps(NO_SIGNAL_STEPS, () => ({ reward: 1, reward_std: 0.2 })),
        false,
      ),
    ).toBeNull();
    expect(
      noSignalNote(
        steps(NO_SIGNAL_STEPS, () => ({ loss: 0.69 })),
        false,
      ),
    ).toBeNull();
  });
});

describe("REWARD_LEARNERS", () => {
  it("names registry algorithms that learn from reward differences, not the pair methods or best-of-n", () => {
    for (const id of REWARD_LEARNERS) expect(ALGO_IDS).toContain(id as (typeof ALGO_IDS)[number]);
    expect(Object.keys(LEARNS_FROM).sort()).toEqual([...ALGO_IDS].sort());
    for (const id of ["dpo", "kto", "orpo", "bon"] as const) expect(REWARD_LEARNERS.has(id)).toBe(false);
    expect(REWARD_LEARNERS.has("grpo")).toBe(true);
  });
});
