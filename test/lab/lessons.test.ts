import { describe, expect, it } from "vitest";
import { LESSONS, lessonUrl } from "../../src/lab/presets";
import type { LessonHistories, MetricRows } from "../../src/lab/presets/checks";
import { movingAverage, tailMean } from "../../src/lab/presets/checks";
import { PRESET_IDS } from "../../src/lab/presets/ids";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { checkSpec, nonDefaultConfig } from "../../src/lab/spec_check";
import { decode } from "../../src/lab/url";

/** The spec as a link carries it: each run's settings without the values equal to the defaults. */
const carried = (spec: ExperimentSpec): ExperimentSpec => ({
  ...spec,
  runs: spec.runs.map((r) => ({ ...r, config: nonDefaultConfig(r.algo, r.config) })),
});

/** n rows where metric k follows f(i) (i = 0 … n−1). */
function rows(n: number, fs: Record<string, (i: number) => number>): MetricRows {
  return Array.from({ length: n }, (_, i) =>
    Object.fromEntries(Object.entries(fs).map(([k, f]) => [k, f(i)])),
  );
}

/** Histories in which each lesson's effect shows (hand-made), and ones in which it does not. */
const flat = (n: number, keys: string[], v = 0.3) =>
  rows(n, Object.fromEntries(keys.map((k) => [k, () => v])));
const SHOWS: Record<string, () => LessonHistories> = {
  "ppo-dpo-grpo": () => {
    const up = rows(60, { reward_gold: (i) => i / 60 });
    return { "ppo-1": up, "dpo-1": up, "grpo-1": up };
  },
  overoptimisation: () => ({
    "ppo-b0": rows(100, {
      reward: (i) => i / 100,
      reward_gold: (i) => 0.5 - ((i - 40) / 60) ** 2,
      "objective/kl_exact": (i) => i / 10,
    }),
    "ppo-b02": rows(100, {
      reward: (i) => i / 200,
      reward_gold: () => 0.1,
      "objective/kl_exact": (i) => i / 100,
    }),
  }),
  "kl-estimators": () => ({
    "ppo-1": rows(40, {
      "objective/kl": (i) => (i % 3 === 0 ? -0.01 : 0.02),
      "objective/kl_k3": () => 0.01,
      "objective/kl_exact": () => 0.01,
    }),
  }),
  "grpo-groups": () => ({
    "grpo-g2": flat(30, ["frac_reward_zero_std"], 0.6),
    "grpo-g8": flat(30, ["frac_reward_zero_std"], 0.1),
  }),
  "entropy-collapse": () => ({
    "grpo-3e5": rows(60, { entropy: (i) => 0.6 * 0.98 ** i, reward: (i) => 0.3 + i / 200 }),
    "grpo-3e5-clip": rows(60, { entropy: (i) => 0.6 * 0.985 ** i }),
    "grpo-slow": rows(60, { entropy: (i) => 0.6 - i / 400 }),
  }),
  "dpo-implicit-reward": () => ({
    "dpo-offline": rows(40, {
      "rewards/margins": (i) => i / 20,
      "rewards/accuracies": (i) => 0.5 + i / 100,
      "logps/chosen": (i) => -5 - i / 10,
      reward: (i) => 0.4 - i / 200,
    }),
    "dpo-flipped": rows(40, { "rewards/margins": () => 0.01, "rewards/accuracies": () => 0.5 }),
  }),
  "length-bias": () => ({
    grpo: rows(60, { "completions/mean_length": (i) => 30 + i / 5, reward: () => 0.5 }),
    "dr-grpo": rows(60, { "completions/mean_length": () => 30, reward: () => 0.5 }),
  }),
  "bon-vs-rl": () => {
    const bon = (r: number, n: number) =>
      rows(30, {
        reward: () => r,
        "objective/kl": () => Math.log(n) - (n - 1) / n,
        "objective/kl_bound": () => Math.log(n) - (n - 1) / n,
      });
    return {
      "bon-2": bon(0.3, 2),
      "bon-4": bon(0.4, 4),
      "bon-16": bon(0.6, 16),
      grpo: flat(30, ["reward", "objective/kl"]),
    };
  },
};

describe("guided lessons", () => {
  it("there are the eight lessons of the teaching issue, each with a narrative and papers", () => {
    expect(Object.keys(LESSONS)).toEqual([...PRESET_IDS]);
    expect(PRESET_IDS).toHaveLength(8);
    for (const l of Object.values(LESSONS)) {
      expect(l.watch.length, l.id).toBeGreaterThanOrEqual(2);
      expect(l.refs.length, l.id).toBeGreaterThanOrEqual(1);
      for (const r of l.refs) expect(r.url, l.id).toMatch(/^https?:\/\//);
    }
  });

  it("every lesson is a valid experiment: no setting is dropped when its link is read back", () => {
    for (const id of PRESET_IDS) {
      const spec = LESSONS[id].experiment(0);
      expect(spec.preset).toBe(id);
      expect(spec.steps).toBeGreaterThan(0);
      const issues: string[] = [];
      expect(checkSpec(spec as unknown as Record<string, unknown>, issues)).toEqual(carried(spec));
      expect(issues, id).toEqual([]);
      const url = lessonUrl(id, "https://lab.example/#old", 2);
      expect(url.startsWith("https://lab.example/#s=")).toBe(true);
      const back = decode(url.slice(url.indexOf("#")));
      expect(back.ok, id).toBe(true);
      if (!back.ok) continue;
      expect(back.issues, id).toEqual([]);
      expect(back.spec).toEqual(carried(LESSONS[id].experiment(2)));
      for (const [k, v] of Object.entries(LESSONS[id].view ?? {}))
        expect(back.view[k as keyof typeof back.view], `${id} view ${k}`).toBe(v);
    }
  });

  it("each check sees its effect in histories that show it, and not in flat ones", () => {
    for (const id of PRESET_IDS) {
      const shows = SHOWS[id]();
      // The runs a check reads are the lesson's own runs.
      const ids = new Set(LESSONS[id].experiment(0).runs.map((r) => r.id));
      for (const run of Object.keys(shows))
        expect(ids.has(run), `${id}: ${run} is one of its runs`).toBe(true);
      const v = LESSONS[id].check(shows);
      expect(v.ok, `${id}: ${JSON.stringify(v.numbers)}`).toBe(true);
      const none: Record<string, MetricRows> = {};
      for (const [run, r] of Object.entries(shows)) none[run] = flat(r.length, Object.keys(r[0]));
      // k1 never negative, or a flat history: the effect is absent.
      expect(LESSONS[id].check(none).ok, `${id} on flat histories`).toBe(false);
    }
  });

  it("length bias: the papers' direction only (Dr. GRPO ending the longer is not the effect)", () => {
    const shows = SHOWS["length-bias"]();
    expect(LESSONS["length-bias"].check(shows).ok).toBe(true);
    const reversed = { grpo: shows["dr-grpo"], "dr-grpo": shows.grpo };
    expect(LESSONS["length-bias"].check(reversed).ok).toBe(false);
    // Longer because it hacked the reward sooner (seed 1: rewards 0.95 vs 0.43) is not the loss's bias.
    const hacked = { ...shows, grpo: shows.grpo.map((r) => ({ ...r, reward: 0.95 })) };
    expect(LESSONS["length-bias"].check(hacked).ok).toBe(false);
  });

  it("statistics skip missing and non-finite values", () => {
    const r: MetricRows = [{ a: 1 }, { a: Number.NaN }, {}, { a: 3 }];
    expect(tailMean(r, "a", 2)).toBe(2);
    expect(movingAverage([0, 3, 0, 3], 3)).toEqual([1.5, 1, 2, 1.5]);
  });
});
