/**
 * The experiment-level and view settings as declarative field tables, in the style of the algorithms' tables
 * (src/algorithms/fields.ts): one row per setting (key, label, doc, kind, default, range/options). Together
 * with the run field tables of src/lab/registry.ts they are the one settings table that drives the controls,
 * the URL (src/lab/url.ts), IndexedDB and export. Plain data: no DOM, no React. The experiment the lab opens
 * with is src/lab/defaults.ts's.
 */
import type { Field } from "../algorithms/fields";
import { PREFERENCE_LEARNERS } from "./algo_ids";
import { PRESET_IDS } from "./presets/ids";
import type { ExperimentSpec } from "./protocol";

/**
 * The known costs each task defines (Task.costs' keys; Safe RLHF's `cost` beyond "length"), known before the
 * task loads so a link can be checked at once (a test keeps it equal to the loaded tasks').
 */
export const TASK_COSTS: Readonly<Record<ExperimentSpec["task"], readonly string[]>> = {
  sentiment: ["positive_words"],
  arithmetic: [],
};

/**
 * A cost limit d that makes sense for each Safe RLHF cost, in its unit: a run card moves d to it when the cost
 * changes and d was still the previous cost's suggestion (./linked_settings.ts). "length" is
 * the field's default (tokens); the sentiment SFT model writes about 0.06 positive words a completion, so one
 * word a completion is a limit the reward pushes against.
 */
export const COST_LIMITS: Readonly<Record<string, number>> = {
  length: 8,
  positive_words: 1,
};

/** The largest seed an experiment takes (links, the CLI): 2³¹ − 1. */
export const MAX_SEED = 2147483647;

/** The range and default of a seed, the experiment's and a run's own alike: an integer in [0, 2³¹ − 1], 0. */
const SEED_RANGE = { kind: "int", default: 0, min: 0, max: MAX_SEED } as const;

/** Task, start model and seed: what every run shares. */
export const EXPERIMENT_FIELDS = [
  {
    key: "task",
    label: "task",
    kind: "enum",
    default: "sentiment",
    options: ["sentiment", "arithmetic"],
    doc: "What the policy is rewarded for: positive sentiment (AFINN lexicon) or exact 2-digit sums.",
    source: "implementation",
  },
  {
    key: "model",
    label: "start model",
    kind: "enum",
    default: "sft",
    options: ["sft", "nano", "tiny", "small"],
    doc: "The task's shipped SFT checkpoint, or a preset initialised fresh from the seed (tests, demos).",
    source: "implementation",
  },
  {
    key: "seed",
    label: "seed",
    ...SEED_RANGE,
    doc: "Seeds the start model (presets), the prompt order and sampling: equal seeds, equal experiments.",
    source: "implementation",
  },
  {
    key: "steps",
    label: "stop at step",
    kind: "int",
    default: 0,
    min: 0,
    max: 100000,
    doc: "Pause when every run has done this many steps (a lesson's length); 0 = train until paused.",
    source: "implementation",
  },
  {
    key: "preset",
    label: "lesson",
    kind: "enum",
    default: "none",
    options: ["none", ...PRESET_IDS],
    doc: "The guided lesson this experiment was opened from (shows its “what to watch” card); none = free play.",
    source: "implementation",
  },
] as const satisfies readonly Field[];

/**
 * A run's own training seed (RunSpec.seed), a row like the experiment's `seed` (same range): it orders that
 * run's prompts and seeds its sampling; the start model stays the experiment's (for a preset model, initialised
 * from the experiment's seed), so runs on several seeds start from the same weights: the usual RL seed
 * comparison. Absent: the experiment's seed. A run keeps its own seed when Change… gives the experiment another.
 * Offline DPO's pair order is the run's seed's too (src/lab/runs.ts). The win rate is not: its prompts and
 * samples are drawn with the experiment's seed for every run (src/lab/worker.ts winRate), a paired evaluation, so
 * two runs' win rates differ by their policies, not by the draws.
 * Set by "Repeat on other seeds" (src/ui/lab/seed_repeat.ts); read from links, saved sessions and run files.
 */
export const RUN_SEED_FIELD = {
  key: "seed",
  label: "seed",
  ...SEED_RANGE,
  doc: "This run's own seed: it orders the run's prompts (and offline DPO's pairs) and draws its samples. The start model stays the experiment's (the same initial weights for every run), so runs that differ only in seed show how much of a difference is luck. The win rate is measured with the experiment's seed for every run (the same prompts and draws: a paired comparison). Absent: the experiment's seed.",
  source: "Henderson et al. 2018, Deep Reinforcement Learning that Matters",
} as const satisfies Field;

/** The seed `run` trains with: its own (RunSpec.seed), else the experiment's. */
export function runSeed(run: { seed?: number }, experiment: Pick<ExperimentSpec, "seed">): number {
  return run.seed ?? experiment.seed;
}

/**
 * Per-run settings of the lab itself, the same for every algorithm (the registry appends them to each
 * algorithm's table, so they get a run-card control, URL and import checks and an export entry like any
 * other setting; the algorithms never see them). `reward`: the source the run optimises — the task's gold
 * scorer, the task's shipped learned reward model (models/<task>/rm.onnx, the proxy), an ONNX reward model
 * loaded in the page (docs/reward-models.md) or the reward model trained by the Pipeline view. The gold score is computed for every run whatever it optimises
 * (`reward_gold`), so proxy-vs-gold over-optimisation shows on the reward chart.
 */
export const RUN_FIELDS = [
  {
    key: "reward",
    label: "reward",
    kind: "enum",
    default: "gold",
    options: ["gold", "proxy", "custom", "pipeline"],
    doc: "What the run optimises: the task's gold scorer, the shipped learned reward model (proxy RM, rm.onnx), a reward model you loaded (.onnx), or the one the Pipeline trained in this page. The gold score is always charted too: dashed beside a learned reward model's, one line with it when the run optimises gold.",
    source: "Gao et al. 2022, Scaling laws for reward model overoptimization",
  },
] as const satisfies readonly Field[];

/**
 * Whether a run learns from labels made from the gold scores, so its `reward` setting only scores the charted
 * samples: the preference learners, except KTO with labels = threshold, which labels its samples by the run's
 * own reward source (desirable when it scores ≥ the threshold).
 */
export function labelsFromGold(algo: string, config: Record<string, unknown>): boolean {
  return PREFERENCE_LEARNERS.has(algo) && !(algo === "kto" && config.label === "threshold");
}

/** A run's reward source (RUN_FIELDS' `reward`). */
export type RewardChoice = (typeof RUN_FIELDS)[0]["options"][number];

/** Keys of {@link RUN_FIELDS}: the lab's, not the algorithm's. */
export const RUN_KEYS: ReadonlySet<string> = new Set(RUN_FIELDS.map((f) => f.key));

/** A run's settings without the lab's own keys: what the algorithm validates and uses. */
export function algoConfig<T>(config: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(config).filter(([k]) => !RUN_KEYS.has(k)));
}

/** The reward source a run's settings ask for (the field's default when absent or not a known choice). */
export function rewardOf(config: Record<string, unknown>): RewardChoice {
  const v = config.reward;
  const f = RUN_FIELDS[0];
  return (f.options as readonly unknown[]).includes(v) ? (v as RewardChoice) : f.default;
}

/** Reward sources that exist only in a running page (a loaded file, the Pipeline's model). */
export const IN_PAGE_REWARDS: ReadonlySet<unknown> = new Set(["custom", "pipeline"]);

/**
 * The experiment with every run that optimises a reward model made in the page ("custom": a user's file,
 * "pipeline": the Pipeline view's) moved to the gold scorer: a fresh training worker has neither (a loaded file
 * is not kept across reloads; the Pipeline's models are, in IndexedDB: `keepPipeline` when they come back).
 * @returns the spec and the labels of the runs that changed.
 */
export function customRewardsToGold(
  spec: ExperimentSpec,
  keepPipeline = false,
): { spec: ExperimentSpec; changed: string[] } {
  const lost = (r: ExperimentSpec["runs"][number]) =>
    IN_PAGE_REWARDS.has(r.config.reward) && !(keepPipeline && r.config.reward === "pipeline");
  const changed = spec.runs.filter(lost).map((r) => r.label);
  if (!changed.length) return { spec, changed };
  const runs = spec.runs.map((r) => (lost(r) ? { ...r, config: algoConfig(r.config) } : r));
  return { spec: { ...spec, runs }, changed };
}

/**
 * The notice for runs whose in-page reward model is gone (`lost`: their labels; `opened`: the experiment as it
 * was opened, with their rewards): an .onnx file is not kept across reloads; the Pipeline's models are not in
 * this browser (a link from elsewhere: it carries settings, not models, so those runs also start from the
 * experiment's model, not the Pipeline's SFT model), or they were kept but did not load (`pipelineNotRestored`).
 * Either way they optimise the gold scorer now. "" when none.
 */
export function lostRewardNotice(
  opened: ExperimentSpec,
  lost: readonly string[],
  pipelineNotRestored = false,
): string {
  const of = (reward: string) =>
    opened.runs.filter((r) => lost.includes(r.label) && r.config.reward === reward).map((r) => r.label);
  const verb = (names: string[]) => (names.length > 1 ? "they optimise" : "it optimises");
  const onnx = of("custom");
  const piped = lost.filter((l) => !onnx.includes(l));
  const out: string[] = [];
  if (onnx.length)
    out.push(
      `${onnx.join(", ")} optimised a reward model loaded from an .onnx file, which is not kept across reloads: ${verb(onnx)} the gold scorer now (load the file again with Load RM to switch back).`,
    );
  if (piped.length)
    out.push(
      `${piped.join(", ")} optimised the Pipeline's reward model, which ${pipelineNotRestored ? "this browser kept but could not load again" : "this browser does not hold (a link carries settings, not models)"}: ${verb(piped)} the gold scorer now, from model ${opened.model} rather than the Pipeline's SFT model. Train the Pipeline here and press Use in RL to redo that.`,
    );
  return out.join(" ");
}

/** Chart settings worth sharing in a link (legend toggles and the sample colour mode are not). */
export const VIEW_FIELDS = [
  {
    key: "xAxis",
    label: "x-axis",
    kind: "enum",
    default: "step",
    options: ["step", "samples", "tokens", "kl", "sqrt_kl"],
    doc: "What the charts plot against: steps, completions generated, their tokens, the KL(π‖π_ref) of the step, or its square root (Gao et al. 2022 plot reward against √KL).",
    source: "implementation",
  },
  {
    key: "klEstimator",
    label: "KL estimator",
    kind: "enum",
    default: "objective/kl",
    options: ["objective/kl", "objective/kl_k2", "objective/kl_k3", "objective/kl_exact"],
    doc: "Which KL(π‖π_ref) the KL chart shows: k1, k2, k3 (Schulman 2020) or the exact sum over the vocabulary.",
    source: "Schulman 2020, Approximating KL divergence",
  },
  {
    key: "smoothing",
    label: "smoothing",
    kind: "number",
    default: 0.6,
    min: 0,
    max: 0.99,
    doc: "Exponential moving-average weight of the plotted curves (TensorBoard style); 0 = raw.",
    source: "implementation",
  },
] as const satisfies readonly Field[];

/** The view settings a link carries (a subset of the lab store's ViewSettings, same names and types). */
export interface SharedView {
  xAxis: (typeof VIEW_FIELDS)[0]["options"][number];
  klEstimator: (typeof VIEW_FIELDS)[1]["options"][number];
  smoothing: number;
}

export const DEFAULT_SHARED_VIEW: SharedView = {
  xAxis: VIEW_FIELDS[0].default,
  klEstimator: VIEW_FIELDS[1].default,
  smoothing: VIEW_FIELDS[2].default,
};

/** Most runs an experiment (and so a link or an import) may hold. */
export const MAX_RUNS = 12;
/** Why another run is refused at MAX_RUNS (the scheduler's error; the page's disabled add and duplicate buttons). */
export const TOO_MANY_RUNS = `${MAX_RUNS} runs is the most a lab holds (a link keeps no more): remove one to add another`;
/** Run ids: short, URL- and filename-safe. */
export const RUN_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** Longest run label (characters). */
export const MAX_LABEL = 60;
