/**
 * Shared fixtures of the lesson tests (lessons.test.ts, lesson_mutations.test.ts): SHOWS, a hand-made history
 * per lesson in which its effect shows (`showsOf` names a lesson that has none), and `lessonSpecProblems`, every
 * way a lesson's experiment fails to survive its own link, as sentences naming the lesson.
 */
import type { LessonHistories, MetricRows } from "../../src/lab/presets/checks";
import type { PresetId } from "../../src/lab/presets/ids";
import type { Lesson } from "../../src/lab/presets/lesson";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { DEFAULT_SHARED_VIEW } from "../../src/lab/settings";
import { checkSpec, nonDefaultConfig } from "../../src/lab/spec_check";
import { decode, shareUrl } from "../../src/lab/url";

/** The spec as a link carries it: each run's settings without the values equal to the defaults. */
export const carried = (spec: ExperimentSpec): ExperimentSpec => ({
  ...spec,
  runs: spec.runs.map((r) => ({ ...r, config: nonDefaultConfig(r.algo, r.config) })),
});

/** n rows where metric k follows f(i) (i = 0 … n−1). */
export function rows(n: number, fs: Record<string, (i: number) => number>): MetricRows {
  return Array.from({ length: n }, (_, i) =>
    Object.fromEntries(Object.entries(fs).map(([k, f]) => [k, f(i)])),
  );
}

/** Histories in which each lesson's effect shows (hand-made), and ones in which it does not. */
export const flat = (n: number, keys: string[], v = 0.3) =>
  rows(n, Object.fromEntries(keys.map((k) => [k, () => v])));
export const SHOWS: Record<string, () => LessonHistories> = {
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

/**
 * The lesson's hand-made history in which its effect shows.
 * @throws Error naming the lesson when SHOWS has none (a new lesson needs one here).
 */
export function showsOf(id: string): LessonHistories {
  const make = SHOWS[id];
  if (!make)
    throw new Error(
      `lesson "${id}" has no SHOWS history in test/lab/lesson_fixtures.ts: add one in which its effect shows (docs/adding-a-lesson.md)`,
    );
  return make();
}

/** JSON with sorted keys (undefined values dropped, as toEqual ignores them). */
const canon = (x: unknown): string =>
  JSON.stringify(x, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
/** Deep equality as toEqual reads it (key order and undefined values aside). */
const same = (a: unknown, b: unknown) => canon(a) === canon(b);

/**
 * What goes wrong when `lesson`'s experiment is checked as a link would be and read back from its link (seed 0
 * and 2): one sentence per problem, each naming the lesson and the issue's own text; [] when none. Issues come
 * first, since a setting out of range or unknown is also what makes the spec read back differently.
 */
export function lessonSpecProblems(lesson: Lesson, id: PresetId = lesson.id): string[] {
  const out: string[] = [];
  const spec = lesson.experiment(0);
  if (spec.preset !== id) out.push(`${id}: its experiment's preset is "${spec.preset}"`);
  if (!((spec.steps ?? 0) > 0)) out.push(`${id}: its experiment has no length (steps ${spec.steps})`);
  const issues: string[] = [];
  const checked = checkSpec(spec as unknown as Record<string, unknown>, issues);
  for (const i of issues) out.push(`${id}: the settings check says: ${i}`);
  if (!same(checked, carried(spec)))
    out.push(
      `${id}: the settings check changed the experiment (a setting dropped or altered) without an issue`,
    );
  // As lessonUrl builds it (src/lab/presets/index.ts), from this lesson object (it may not be in LESSONS).
  const url = shareUrl(
    lesson.experiment(2),
    { ...DEFAULT_SHARED_VIEW, ...lesson.view },
    "https://lab.example/#old",
  );
  if (!url.startsWith("https://lab.example/#s=")) out.push(`${id}: its link is ${url}`);
  const back = decode(url.slice(url.indexOf("#")));
  if (!back.ok) return [...out, `${id}: its link does not read back: ${back.error.message}`];
  for (const i of back.issues) out.push(`${id}: its link reads back with: ${i}`);
  if (!same(back.spec, carried(lesson.experiment(2))))
    out.push(`${id}: its link reads back as another experiment`);
  for (const [k, v] of Object.entries(lesson.view ?? {}))
    if (back.view[k as keyof typeof back.view] !== v)
      out.push(`${id}: its view's ${k} reads back as ${back.view[k as keyof typeof back.view]}, not ${v}`);
  return out;
}
