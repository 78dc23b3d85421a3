/**
 * Each lesson check is a conjunction; lessons.test.ts only checks "effect → ok" and "flat → not ok", so any one
 * condition could be dropped unnoticed (the headless `lab lesson` verification would then pass a run that does not
 * show the lesson). Here every condition is broken alone, on histories that meet all the others.
 */
import { describe, expect, it } from "vitest";
import { LESSONS } from "../../src/lab/presets";
import type { LessonHistories, MetricRows } from "../../src/lab/presets/checks";

function rows(n: number, fs: Record<string, (i: number) => number>): MetricRows {
  return Array.from({ length: n }, (_, i) =>
    Object.fromEntries(Object.entries(fs).map(([k, f]) => [k, f(i)])),
  );
}
const ok = (id: keyof typeof LESSONS, h: LessonHistories) => LESSONS[id].check(h).ok;

describe("every condition of a lesson's check is needed", () => {
  it("ppo-dpo-grpo: every one of the three runs must gain gold reward", () => {
    const up = rows(60, { reward_gold: (i) => i / 60 });
    const flatGold = rows(60, { reward_gold: () => 0.3 });
    expect(ok("ppo-dpo-grpo", { "ppo-1": up, "dpo-1": up, "grpo-1": up })).toBe(true);
    for (const id of ["ppo-1", "dpo-1", "grpo-1"])
      expect(ok("ppo-dpo-grpo", { "ppo-1": up, "dpo-1": up, "grpo-1": up, [id]: flatGold }), id).toBe(false);
  });

  it("overoptimisation: proxy up, gold peaks early and falls, and β = 0.2 holds the KL lower", () => {
    const free = (
      o: { proxy?: (i: number) => number; gold?: (i: number) => number; kl?: (i: number) => number } = {},
    ) =>
      rows(100, {
        reward: o.proxy ?? ((i) => i / 100),
        reward_gold: o.gold ?? ((i) => 0.5 - ((i - 40) / 60) ** 2),
        "objective/kl_exact": o.kl ?? ((i) => i / 10),
      });
    const held = rows(100, {
      reward: (i) => i / 200,
      reward_gold: () => 0.1,
      "objective/kl_exact": (i) => i / 100,
    });
    expect(ok("overoptimisation", { "ppo-b0": free(), "ppo-b02": held })).toBe(true);
    // The held run's KL above the free run's: not the lesson.
    expect(ok("overoptimisation", { "ppo-b0": free({ kl: (i) => i / 1000 }), "ppo-b02": held })).toBe(false);
    // Gold's smoothed peak in the last 5 steps (a late spike, not a rise and fall): no over-optimisation shown.
    const late = (i: number) => (i === 94 ? 3 : i >= 95 ? 1 : i / 100);
    expect(ok("overoptimisation", { "ppo-b0": free({ gold: late }), "ppo-b02": held })).toBe(false);
    // Proxy not rising.
    expect(ok("overoptimisation", { "ppo-b0": free({ proxy: () => 0.2 }), "ppo-b02": held })).toBe(false);
  });

  it("kl-estimators: k3 and the exact KL must stay ≥ 0 while k1 goes negative", () => {
    const h = (k3: number, exact: number): LessonHistories => ({
      "ppo-1": rows(40, {
        "objective/kl": (i) => (i % 3 === 0 ? -0.01 : 0.02),
        "objective/kl_k3": (i) => (i === 7 ? k3 : 0.01),
        "objective/kl_exact": (i) => (i === 7 ? exact : 0.01),
      }),
    });
    expect(ok("kl-estimators", h(0.01, 0.01))).toBe(true);
    expect(ok("kl-estimators", h(-0.01, 0.01))).toBe(false);
    expect(ok("kl-estimators", h(0.01, -0.01))).toBe(false);
  });

  it("grpo-groups: G = 2 must waste clearly more groups (by 0.2), not just more", () => {
    const f = (v: number) => rows(30, { frac_reward_zero_std: () => v });
    expect(ok("grpo-groups", { "grpo-g2": f(0.6), "grpo-g8": f(0.1) })).toBe(true);
    expect(ok("grpo-groups", { "grpo-g2": f(0.25), "grpo-g8": f(0.1) })).toBe(false);
  });

  it("entropy-collapse: the fast run's reward must rise too", () => {
    const h = (reward: (i: number) => number): LessonHistories => ({
      "grpo-3e5": rows(60, { entropy: (i) => 0.6 * 0.98 ** i, reward }),
      "grpo-3e5-clip": rows(60, { entropy: (i) => 0.6 * 0.985 ** i }),
      "grpo-slow": rows(60, { entropy: (i) => 0.6 - i / 400 }),
    });
    expect(
      ok(
        "entropy-collapse",
        h((i) => 0.3 + i / 200),
      ),
    ).toBe(true);
    expect(
      ok(
        "entropy-collapse",
        h((i) => 0.6 - i / 200),
      ),
    ).toBe(false);
  });

  it("dpo-implicit-reward: chosen log-probs must fall, and the flipped run's margin stay below", () => {
    const offline = (o: { chosen?: (i: number) => number } = {}) =>
      rows(40, {
        "rewards/margins": (i) => i / 20,
        "rewards/accuracies": (i) => 0.5 + i / 100,
        "logps/chosen": o.chosen ?? ((i) => -5 - i / 10),
        reward: (i) => 0.4 - i / 200,
      });
    const flipped = (margin: number) =>
      rows(40, { "rewards/margins": () => margin, "rewards/accuracies": () => 0.5 });
    expect(ok("dpo-implicit-reward", { "dpo-offline": offline(), "dpo-flipped": flipped(0.01) })).toBe(true);
    expect(
      ok("dpo-implicit-reward", {
        "dpo-offline": offline({ chosen: (i) => -5 + i / 10 }),
        "dpo-flipped": flipped(0.01),
      }),
    ).toBe(false);
    // The flipped run's margin above the clean run's (its accuracy still lower): not the lesson.
    expect(ok("dpo-implicit-reward", { "dpo-offline": offline(), "dpo-flipped": flipped(10) })).toBe(false);
  });

  it("bon-vs-rl: a best-of-n KL above its bound fails the check", () => {
    const bon = (r: number, n: number, kl = Math.log(n) - (n - 1) / n) =>
      rows(30, {
        reward: () => r,
        "objective/kl": () => kl,
        "objective/kl_bound": () => Math.log(n) - (n - 1) / n,
      });
    const grpo = rows(30, { reward: () => 0.3, "objective/kl": () => 0.3 });
    expect(
      ok("bon-vs-rl", { "bon-2": bon(0.3, 2), "bon-4": bon(0.4, 4), "bon-16": bon(0.6, 16), grpo }),
    ).toBe(true);
    expect(
      ok("bon-vs-rl", { "bon-2": bon(0.3, 2), "bon-4": bon(0.4, 4), "bon-16": bon(0.6, 16, 5), grpo }),
    ).toBe(false);
  });
});
