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
    // Gold peaks at step 41 and then slips by 0.01 only (under 0.02): a plateau, not a fall.
    const slip = (i: number) => (i <= 40 ? i / 400 : 0.1 - (i - 40) / 6000);
    expect(ok("overoptimisation", { "ppo-b0": free({ gold: slip }), "ppo-b02": held })).toBe(false);
  });

  it("kl-estimators: k3 and the exact KL must stay ≥ 0 while k1 goes negative", () => {
    const h = (
      k3: number,
      exact: number,
      k1 = (i: number) => (i % 3 === 0 ? -0.01 : 0.02),
    ): LessonHistories => ({
      "ppo-1": rows(40, {
        "objective/kl": k1,
        "objective/kl_k3": (i) => (i === 7 ? k3 : 0.01),
        "objective/kl_exact": (i) => (i === 7 ? exact : 0.01),
      }),
    });
    expect(ok("kl-estimators", h(0.01, 0.01))).toBe(true);
    expect(ok("kl-estimators", h(-0.01, 0.01))).toBe(false);
    expect(ok("kl-estimators", h(0.01, -0.01))).toBe(false);
    // k1 never below 0: nothing to contrast k3 and the exact KL with.
    expect(
      ok(
        "kl-estimators",
        h(0.01, 0.01, () => 0.02),
      ),
    ).toBe(false);
  });

  it("kl-estimators: a run without k3 or the exact KL shows nothing about them (min of no values is +∞)", () => {
    const k1 = (i: number) => (i % 3 === 0 ? -0.01 : 0.02);
    const only = (fs: Record<string, (i: number) => number>): LessonHistories => ({
      "ppo-1": rows(40, { "objective/kl": k1, ...fs }),
    });
    expect(
      ok("kl-estimators", only({ "objective/kl_k3": () => 0.01, "objective/kl_exact": () => 0.01 })),
    ).toBe(true);
    expect(ok("kl-estimators", only({ "objective/kl_exact": () => 0.01 }))).toBe(false);
    expect(ok("kl-estimators", only({ "objective/kl_k3": () => 0.01 }))).toBe(false);
    expect(ok("kl-estimators", only({}))).toBe(false);
    // Not-finite values are skipped like absent ones.
    expect(
      ok("kl-estimators", only({ "objective/kl_k3": () => Number.NaN, "objective/kl_exact": () => 0.01 })),
    ).toBe(false);
  });

  it("grpo-groups: G = 2 must waste clearly more groups (by 0.2), not just more", () => {
    const f = (v: number) => rows(30, { frac_reward_zero_std: () => v });
    expect(ok("grpo-groups", { "grpo-g2": f(0.6), "grpo-g8": f(0.1) })).toBe(true);
    expect(ok("grpo-groups", { "grpo-g2": f(0.25), "grpo-g8": f(0.1) })).toBe(false);
  });

  it("entropy-collapse: the fast run loses over a fifth of its entropy, ends below the slow run, its reward rises", () => {
    const h = (
      reward: (i: number) => number,
      fast: (i: number) => number = (i) => 0.6 * 0.98 ** i,
      slow: (i: number) => number = (i) => 0.6 - i / 400,
    ): LessonHistories => ({
      "grpo-3e5": rows(60, { entropy: fast, reward }),
      "grpo-3e5-clip": rows(60, { entropy: (i) => 0.6 * 0.985 ** i }),
      "grpo-slow": rows(60, { entropy: slow }),
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
    const rising = (i: number) => 0.3 + i / 200;
    // 0.59 → 0.55 over 20-step means (7 % gone), still below the slow run's flat 0.6: too small a fall.
    expect(
      ok(
        "entropy-collapse",
        h(
          rising,
          (i) => 0.6 - i / 1000,
          () => 0.6,
        ),
      ),
    ).toBe(false);
    // The fast run loses over half its entropy, but the slow run ends lower still (0.08 against 0.22).
    expect(
      ok(
        "entropy-collapse",
        h(rising, undefined, (i) => 0.6 * 0.96 ** i),
      ),
    ).toBe(false);
    expect(
      ok(
        "entropy-collapse",
        h(rising, undefined, () => 0.6),
      ),
    ).toBe(true);
  });

  it("dpo-implicit-reward: margins and accuracy rise, chosen log-probs and reward fall, the flipped run stays below", () => {
    type F = (i: number) => number;
    const offline = (o: { margins?: F; acc?: F; chosen?: F; reward?: F } = {}) =>
      rows(40, {
        "rewards/margins": o.margins ?? ((i) => i / 20),
        "rewards/accuracies": o.acc ?? ((i) => 0.5 + i / 100),
        "logps/chosen": o.chosen ?? ((i) => -5 - i / 10),
        reward: o.reward ?? ((i) => 0.4 - i / 200),
      });
    const flipped = (margin: number, acc = 0.5) =>
      rows(40, { "rewards/margins": () => margin, "rewards/accuracies": () => acc });
    expect(ok("dpo-implicit-reward", { "dpo-offline": offline(), "dpo-flipped": flipped(0.01) })).toBe(true);
    expect(
      ok("dpo-implicit-reward", {
        "dpo-offline": offline({ chosen: (i) => -5 + i / 10 }),
        "dpo-flipped": flipped(0.01),
      }),
    ).toBe(false);
    // The flipped run's margin above the clean run's (its accuracy still lower): not the lesson.
    expect(ok("dpo-implicit-reward", { "dpo-offline": offline(), "dpo-flipped": flipped(10) })).toBe(false);
    // Margins falling (1.9 → 0.28, still above the flipped run's 0.01).
    expect(
      ok("dpo-implicit-reward", {
        "dpo-offline": offline({ margins: (i) => 2 - i / 20 }),
        "dpo-flipped": flipped(0.01),
      }),
    ).toBe(false);
    // Accuracy ending at 0.45, not above one half (the flipped run's 0.3 still lower).
    expect(
      ok("dpo-implicit-reward", {
        "dpo-offline": offline({ acc: () => 0.45 }),
        "dpo-flipped": flipped(0.01, 0.3),
      }),
    ).toBe(false);
    // The sampled reward rising.
    expect(
      ok("dpo-implicit-reward", {
        "dpo-offline": offline({ reward: (i) => 0.4 + i / 200 }),
        "dpo-flipped": flipped(0.01),
      }),
    ).toBe(false);
    // The flipped run's accuracy (0.9) above the clean run's (0.85), its margin still lower.
    expect(ok("dpo-implicit-reward", { "dpo-offline": offline(), "dpo-flipped": flipped(0.01, 0.9) })).toBe(
      false,
    );
  });

  it("bon-vs-rl: reward grows with n at every step of n, and a best-of-n KL above its bound fails the check", () => {
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
    // Best-of-16 below best-of-4 (best-of-4 still above best-of-2).
    expect(
      ok("bon-vs-rl", { "bon-2": bon(0.3, 2), "bon-4": bon(0.4, 4), "bon-16": bon(0.35, 16), grpo }),
    ).toBe(false);
    // Best-of-4 below best-of-2 (best-of-16 still above best-of-4).
    expect(
      ok("bon-vs-rl", { "bon-2": bon(0.45, 2), "bon-4": bon(0.4, 4), "bon-16": bon(0.6, 16), grpo }),
    ).toBe(false);
  });
});
