/**
 * What the lab knows about the metrics it charts (TRL names): a title, a unit for axes and tooltips, and one
 * sentence for a student. The "more metrics" section shows MORE_METRICS that at least one run reports.
 */
export interface MetricInfo {
  key: string;
  title: string;
  unit?: string;
  doc: string;
  /** The y-axis starts no lower than this (ChartProps.yFloor): for a metric whose early outliers flatten the rest. */
  floor?: number;
  /**
   * A second metric drawn dashed on the same chart, per run, with its name (e.g. the limit d under a cost), and
   * the name of the solid line beside it (the chart's legend names both).
   */
  companion?: { key: string; name: string; solidName: string };
}

export const REWARD: MetricInfo = {
  key: "reward",
  title: "Reward",
  doc: "Mean score of the step's completions from the run's reward source (solid); the task's gold scorer dashed.",
};
/**
 * The reward chart's y axis: both its lines are a scorer's mean over the step's completions — the run's reward
 * source (the gold scorer, a reward model's score, Safe RLHF's R) and the task's gold scorer — in each scorer's
 * own units (gold: arithmetic 0–1, sentiment −1–1; a reward model's score is unbounded).
 */
export const REWARD_Y_LABEL = "mean score per completion";
export const GOLD: MetricInfo = {
  key: "reward_gold",
  title: "Gold reward",
  doc: "Mean score of the same completions from the task's gold scorer (what the proxy stands in for).",
};
export const ENTROPY: MetricInfo = {
  key: "entropy",
  title: "Entropy",
  unit: "nats/token",
  doc: "Mean per-token entropy of the policy at τ over completion tokens; falling entropy = a more certain policy.",
};

/**
 * Metrics this lab logs under its own names where TRL logs nothing alike: no exact KL, k2/k3 series, KL bound,
 * explained variance, β (outside PPO) or sample variety. The lab's objective/kl is k1 for every run, so that the
 * KL chart compares like with like: TRL's PPOTrainer logs its penalty's estimator under that name (with k3, the
 * lab's objective/kl_k3), and TRL's GRPO and RLOO trainers log `kl` (GRPO: the per-token mean of k3) instead.
 */
export const LAB_ONLY_METRICS: ReadonlySet<string> = new Set([
  "objective/kl_k2",
  "objective/kl_k3",
  "objective/kl_exact",
  "objective/kl_bound",
  "val/ratio_first",
  "val/explained_variance",
  "kl_coef",
  "completions/distinct_frac",
  // The gold score beside a learned reward's, REINFORCE's moving baseline, the lab's counters and speed,
  // best-of-n's and KTO's bookkeeping: TRL logs nothing alike.
  "reward_gold",
  "reward/all_samples",
  "baseline",
  "samples",
  "tokens",
  "step_time",
  "tokens/s",
  "prompts/step",
  "pairs/step",
  "kto/desirable_fraction",
  // Safe RLHF (not in TRL): its reward spread under its own names, beside its cost and λ (safe/…).
  "objective/score",
  "objective/score_std",
  "objective/frac_score_zero_std",
]);

/** Families of the lab's own metrics (Safe RLHF's λ and cost, expert iteration's, the simulated annotator's). */
const LAB_ONLY_PREFIXES = ["safe/", "ei/", "annotator/"];

/** Whether `metric` is the lab's own ({@link LAB_ONLY_METRICS}, or of a family only the lab logs). */
export function labOnly(metric: string): boolean {
  return LAB_ONLY_METRICS.has(metric) || LAB_ONLY_PREFIXES.some((p) => metric.startsWith(p));
}

/** The KL chart's estimators (metric keys and the name shown in the selector). */
export const KL_ESTIMATORS = [
  {
    key: "objective/kl",
    name: "k1",
    doc: "log π/π_ref summed over tokens (unbiased; can be negative); k1 for every run (TRL's PPO with k3 logs k3 here)",
  },
  {
    key: "objective/kl_k2",
    name: "k2",
    doc: "½ (log π/π_ref)², summed over the completion's tokens (low variance, biased)",
  },
  {
    key: "objective/kl_k3",
    name: "k3",
    doc: "π_ref/π − 1 − log π_ref/π, summed over the completion's tokens (unbiased, ≥ 0 per token)",
  },
  {
    key: "objective/kl_exact",
    name: "exact",
    doc: "whole-vocabulary KL at each sampled position, summed: no noise from the drawn token (prefixes still sampled), never < 0",
  },
] as const;

/**
 * What a best-of-n run plots on the KL chart: it samples from π_ref, so there is nothing to estimate per token;
 * its KL is that of picking the best of n (src/algorithms/math/best_of_n.ts), an estimate: under k1, k2 and k3,
 * not under the exact KL.
 */
export const BON_KL_DOC =
  "Best-of-n runs plot the KL of picking the best of n, estimated from each prompt's n scores and averaged over prompts (the same under k1, k2 and k3; ≤ log n − (n−1)/n, objective/kl_bound). They have no exact KL: under “exact” they are not drawn.";

/** The KL's unit: each completion's KL summed over its tokens, as TRL's objective/kl (entropy is per token). */
export const KL_CHART_UNIT = "nats/completion";

/** Algorithm-specific diagnostics, in display order. */
export const MORE_METRICS: readonly MetricInfo[] = [
  {
    key: "safe/cost",
    title: "Cost vs limit d",
    unit: "tokens or words",
    doc: "Safe RLHF: the step's mean cost E[c] (solid) against the limit d (dashed): λ's integral rises while E[c] > d, falls while below.",
    companion: { key: "safe/cost_limit", name: "d", solidName: "E[c]" },
  },
  {
    key: "safe/lambda",
    title: "Lagrange multiplier λ",
    doc: "Safe RLHF: the price per unit of cost the step's update used (it maximises R − λ·c): λ = max(0, λ_I + Kₚ(E[c] − d)); after it λ_I ← max(0, λ_I + η(E[c] − d)).",
    companion: { key: "safe/lambda_integral", name: "λ_I", solidName: "λ" },
  },
  {
    key: "clip_ratio/region_mean",
    title: "Clip ratio (region)",
    doc: "Fraction of tokens whose ratio left [1−ε, 1+ε_high] with a clipped gradient (ε_high = ε unless set). TRL's RLOO clips and counts completions, not tokens.",
  },
  {
    key: "clip_ratio/low_mean",
    title: "Clip ratio (low)",
    doc: "Fraction of tokens clipped below 1−ε (negative advantage); TRL's RLOO counts completions.",
  },
  {
    key: "clip_ratio/high_mean",
    title: "Clip ratio (high)",
    doc: "Fraction of tokens clipped above 1+ε_high (positive advantage); TRL's RLOO counts completions.",
  },
  {
    key: "policy/clipfrac_avg",
    title: "Policy clip fraction",
    doc: "Share of update tokens with ρ outside [1−ε, 1+ε_high] whatever Â's sign (PPO: ε_high = ε); TRL's PPO counts only the clips that bind, so it logs less.",
  },
  {
    key: "policy/approxkl_avg",
    title: "Approx. KL (π_old → π)",
    unit: "nats",
    doc: "½·mean (log ρ)² over the update's tokens: how far the update moved the policy from the one that sampled the batch.",
  },
  {
    key: "loss/policy_avg",
    title: "Policy loss",
    doc: "Clipped-surrogate loss −ρ·Â of the last update (PPO: mean of its epochs); ≈ 0 at ρ = 1 only for centred Â: not dapo/dr_grpo, β > 0, or RLOO/REINFORCE (length-weighted).",
  },
  {
    key: "loss",
    title: "Training loss",
    doc: "The step's loss (TRL's loss): DPO, KTO, ORPO over their pairs or examples; expert iteration the kept samples' mean token cross-entropy −log π_θ(y_t).",
  },
  { key: "loss/value_avg", title: "Value loss", doc: "PPO: mean clipped value-head loss." },
  {
    key: "val/clipfrac_avg",
    title: "Value clip fraction",
    doc: "PPO: share of the value loss's tokens where the clipped prediction (within ±ε_v of the old value) has the larger error, so the clip sets the loss (TRL: this key, its vf_clipfrac).",
  },
  {
    key: "val/explained_variance",
    title: "Explained variance",
    doc: "PPO: 1 − Var(returns − values)/Var(returns); 1 = a perfect value head, < 0 worse than a constant (axis from −1; no point when returns are all equal).",
    floor: -1,
  },
  {
    key: "kl_coef",
    title: "KL coefficient β",
    doc: "The β in use: the KL penalty in the reward (PPO, RLOO, REINFORCE; moves with adaptive KL) or the loss (GRPO, Safe RLHF); DPO/KTO's fixed strength.",
  },
  {
    key: "completions/mean_length",
    title: "Completion length",
    unit: "tokens",
    doc: "Mean completion length, EOS included.",
  },
  {
    key: "completions/clipped_ratio",
    title: "Cut at the length limit",
    doc: "Share of the step's completions (best-of-n: the kept ones) that reached the run's sampling limit without EOS: cut, not ended (0 to 1).",
  },
  {
    key: "completions/distinct_frac",
    title: "Distinct completions",
    doc: "GRPO, RLOO, Safe RLHF, expert iteration: mean share of distinct texts among a prompt's G samples, from 1/G (all the same: collapsed) to 1.",
  },
  {
    key: "reward_std",
    title: "Reward std",
    doc: "Reward spread as TRL logs it (sample std, n − 1): GRPO, Safe RLHF the mean of the groups' (scale batch: the batch's); best-of-n its picks'; else the batch's.",
  },
  {
    key: "frac_reward_zero_std",
    title: "Zero-std groups",
    doc: "GRPO, RLOO, Safe RLHF: share of groups (a prompt's G completions) all scored alike: no reward signal. RLOO: by raw score (TRL's counts after −β·KL: ≈ 0 when β > 0).",
  },
  {
    key: "rewards/margins",
    title: "Reward margin",
    doc: "Mean implicit-reward margin, chosen minus rejected (DPO: β·log π/π_ref; ORPO: λ·mean log-prob).",
  },
  {
    key: "rewards/accuracies",
    title: "Preference accuracy",
    doc: "DPO, ORPO: share of pairs where the chosen completion has the higher implicit reward; ties count as wrong (TRL), so with a reference (all margins 0 at step 1) it starts at 0.",
  },
  {
    key: "annotator/ties",
    title: "Tied pairs",
    doc: "DPO, ORPO, KTO's annotator: share of the step's pairs the gold scores alike, ordered by a coin (as a reward model's tie in TRL): noise. Offline pairs have none.",
  },
  {
    key: "logps/chosen",
    title: "Log-prob: chosen vs rejected",
    unit: "nats",
    doc: "DPO: mean log π(y_w|x) of the chosen completions (solid), log π(y_l|x) of the rejected (dashed); ipo/simpo: per token. The margin can rise while both fall.",
    companion: { key: "logps/rejected", name: "rejected", solidName: "chosen" },
  },
  {
    key: "rewards/chosen",
    title: "Chosen reward",
    doc: "Mean implicit reward of the chosen (KTO: desirable) completions: β·log π/π_ref (ORPO: λ·mean log-prob).",
  },
  {
    key: "rewards/rejected",
    title: "Rejected reward",
    doc: "Mean implicit reward of the rejected (KTO: undesirable) completions, as for the chosen ones.",
  },
  { key: "grad_norm", title: "Gradient norm", doc: "Global L2 norm of the gradient before clipping." },
  {
    key: "tokens/s",
    title: "Throughput",
    unit: "tokens/s",
    doc: "Completion tokens generated this step per second of the whole step (sampling, scoring, updates; a fresh page's first step also compiles the kernels).",
  },
];
