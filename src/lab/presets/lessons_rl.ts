/**
 * Lessons 1–4: the default comparison, reward over-optimisation, KL estimators and GRPO's groups. Sizes are
 * picked so that a lesson finishes in a few minutes on a laptop GPU; the arithmetic task (16-token context)
 * is used wherever the effect does not need free text, because its steps are several times cheaper.
 */
import { defaultExperiment } from "../defaults";
import type { RunSpec } from "../protocol";
import { allMean, headMean, movingAverage, r4, runRows, series, tailMean, verdict } from "./checks";
import { type Lesson, run } from "./lesson";

const ARXIV = (id: string) => `https://arxiv.org/abs/${id}`;

export const PPO_DPO_GRPO: Lesson = {
  id: "ppo-dpo-grpo",
  title: "PPO vs DPO vs GRPO",
  summary: "The three headline algorithms from the same model and seed, on the same stream of prompts.",
  watch: [
    "All three start from the same SFT model, so their curves start from the same expected reward; the first points still differ, because each run scores its own small batch (PPO 16 completions, DPO 32 samples beside its 16 training pairs, GRPO 4 × 8).",
    "Compare the KL each pays for its reward gain: switch the x-axis to KL and pick the exact estimator in the menu beside the KL chart's title; the default k1 is noisy, and its batch estimates can even dip below 0.",
    "PPO and GRPO sample, score and push up what scored well; DPO never sees a reward, only which of two answers a (noisy) annotator preferred (the reward menu on its card only scores the samples it charts) — yet its gold reward can move too (not always up: see the lesson “DPO's implicit reward”).",
    "A step is not the same budget for each: PPO samples 16 completions and makes 4 updates on them (its epochs), GRPO samples 32 and makes 1, DPO makes 1 on 16 dataset pairs. Switch the x-axis to Samples to compare PPO and GRPO at equal completions (DPO's x counts the 32 it samples only for its charts): at 2,400 (PPO's step 150, GRPO's 75; means of 10 steps, the lesson's own runs) GRPO's gold reward is 0.90–0.98, PPO's 0.36–0.52.",
    "Measured over the lesson's 150 steps on seeds 0, 1 and 2: GRPO's gold reward rises by 0.96–0.99, to the lexicon score's ceiling, for an exact KL of 48–52 nats (it writes whatever scores, far from the start model); PPO's by 0.35–0.51 for about 11 nats, most of it after its first 60 steps (−0.05 to +0.04 there); DPO's by 0.07–0.11 for 7–9 nats (measured on longer samples, 64 tokens: expect a little difference).",
  ],
  status: {
    kind: "unverified",
    reason:
      "PPO's and GRPO's runs showed it on seeds 0, 1 and 2; DPO's are to be run again (its logs were made when it sampled 64 tokens an answer, not today's 48).",
  },
  refs: [
    { label: "PPO (Schulman et al. 2017)", url: ARXIV("1707.06347") },
    { label: "DPO (Rafailov et al. 2023)", url: ARXIV("2305.18290") },
    { label: "GRPO (Shao et al. 2024)", url: ARXIV("2402.03300") },
  ],
  // 150 steps: PPO's gold reward moves only after ~100 (at 60 it fell on seed 0; GPU runs of 2026-12-04).
  experiment: (seed = 0) => ({ ...defaultExperiment(), seed, steps: 150, preset: "ppo-dpo-grpo" }),
  check(h) {
    const numbers: Record<string, number> = {};
    const conditions: Record<string, boolean> = {};
    for (const id of ["ppo-1", "dpo-1", "grpo-1"]) {
      const rows = runRows(h, id);
      const gain = tailMean(rows, "reward_gold", 10) - headMean(rows, "reward_gold", 5);
      numbers[`${id}.gold_gain`] = r4(gain);
      conditions[`${id} gold reward rose`] = gain > 0;
    }
    return verdict(conditions, numbers, "every run's gold reward (last 10 steps vs first 5) rose");
  },
};

/**
 * Two PPO runs on the learned proxy RM: a small KL penalty and none. Arithmetic, because its proxy (0.76 held-out
 * gold accuracy) is good enough to be worth optimising and wrong often enough to be exploited, and its steps are
 * cheap (a seed-0 probe, β = 0: proxy −0.16 → 0.3–0.47, gold 0.26 → 0.06–0.16 by step 45; docs/lesson-runs).
 */
function overoptRuns(): RunSpec[] {
  const base = { batchPrompts: 16, lr: 3e-5, reward: "proxy" };
  return [
    run("ppo-b02", "ppo", "PPO β = 0.2", { ...base, beta: 0.2 }),
    run("ppo-b0", "ppo", "PPO β = 0", { ...base, beta: 0 }),
  ];
}

export const OVEROPTIMISATION: Lesson = {
  id: "overoptimisation",
  title: "Reward over-optimisation",
  summary: "Optimise a learned reward model hard: the proxy ends higher, the true (gold) reward ends lower.",
  watch: [
    "The runs optimise the learned proxy reward model (solid lines, the chart key's “run's reward”): a small network trained on ~10,000 preferences between two answers to a+b=, from a simulated annotator that flips a quarter of its labels. The gold reward (dashed) is whether the answer is the right sum — what the proxy stands in for. Held out, the proxy orders 76 % of pairs as the gold does: good, not perfect.",
    "The x-axis is √KL from the start model, as in Gao et al. (2022): the further the policy moves, the more the proxy's mistakes are exploited.",
    "Without a KL penalty (β = 0) the policy moves fastest: the proxy ends higher while the share of right sums falls — the policy learns the answers the proxy likes, not the sums. In Gao et al. gold first rises; on this small model it holds for a few steps at most, then falls. Read the samples: wrong sums the proxy scores high.",
    "β = 0.2 pays for every nat it moves, so it stays closer to the start model (lower KL). Would a smaller penalty do? We tried β = 0.05 in this run's place once (on seed 0): it held the exact KL lower until about step 55 (1.6–2.8 nats over steps 16–45, against β = 0's 1.9–4.0), and over the last 10 steps it was as far out as β = 0 (3.42 against 3.40 nats). That is one seed, and β = 0's own last-10 KL spans 3.4–5.9 nats over seeds 0–2, so whether β = 0.05 ends as far on other seeds is not known. To try it, set this run's β to 0.05 (rename it with the ✎ beside its name) before pressing Play, or afterwards and press Reset. Gao et al. found that a KL penalty mostly stops the policy earlier; it does not buy more gold reward at a given KL.",
  ],
  status: { kind: "verified", reason: "its effect showed on seeds 0, 1 and 2 at the lesson's length." },
  refs: [
    { label: "Scaling laws for RM over-optimisation (Gao et al. 2022)", url: ARXIV("2210.10760") },
    { label: "Fine-tuning LMs from human preferences (Ziegler et al. 2019)", url: ARXIV("1909.08593") },
  ],
  experiment: (seed = 0) => ({
    task: "arithmetic",
    model: "sft",
    seed,
    runs: overoptRuns(),
    steps: 60,
    preset: "overoptimisation",
  }),
  view: { xAxis: "sqrt_kl", klEstimator: "objective/kl_exact" },
  check(h) {
    const free = runRows(h, "ppo-b0");
    const held = runRows(h, "ppo-b02");
    const proxyGain = tailMean(free, "reward", 10) - headMean(free, "reward", 5);
    const gold = movingAverage(series(free, "reward_gold"), 9);
    const peak = Math.max(...gold);
    const peakAt = gold.indexOf(peak);
    const goldDrop = peak - gold[gold.length - 1];
    const klFree = tailMean(free, "objective/kl_exact", 10);
    const klHeld = tailMean(held, "objective/kl_exact", 10);
    return verdict(
      {
        "β = 0: proxy rose": proxyGain > 0,
        "β = 0: gold peaked before the last 5 steps": peakAt < gold.length - 5,
        "β = 0: gold fell over 0.02 after its peak": goldDrop > 0.02,
        "β = 0.2 ended at a lower exact KL": klHeld < klFree,
      },
      {
        proxy_gain: r4(proxyGain),
        gold_peak: r4(peak),
        gold_peak_step: peakAt + 1,
        gold_drop_after_peak: r4(goldDrop),
        kl_exact_beta0: r4(klFree),
        kl_exact_beta02: r4(klHeld),
      },
      "β = 0: proxy rises, gold peaks before the end and falls; β = 0.2 stays closer (lower KL)",
    );
  },
};

export const KL_ESTIMATORS: Lesson = {
  id: "kl-estimators",
  title: "KL estimators k1, k2, k3",
  summary: "Three Monte-Carlo estimates of KL(π‖π_ref) and the exact value, on the same samples.",
  watch: [
    "Pick the estimator in the menu beside the KL chart's title: k1 = log π/π_ref, k2 = ½(log π/π_ref)², k3 = π_ref/π − 1 − log π_ref/π, and the exact one (the whole vocabulary's KL at each sampled position, summed).",
    "k1 is unbiased but noisy: while π ≈ π_ref (a small lr keeps it there), whole batches come out negative — a KL never is.",
    "k3 is unbiased and never negative (GRPO uses it in its loss); k2 is biased but low-variance. The exact one is still an estimate of the sequence's KL, but without the noise of which token was drawn, and never below 0: the reference to compare the others with.",
  ],
  status: { kind: "verified", reason: "its effect showed on seeds 0, 1 and 2 at the lesson's length." },
  refs: [
    { label: "Approximating KL divergence (Schulman 2020)", url: "http://joschu.net/blog/kl-approx.html" },
    { label: "GRPO's k3 penalty (Shao et al. 2024)", url: ARXIV("2402.03300") },
  ],
  experiment: (seed = 0) => ({
    task: "arithmetic",
    model: "sft",
    seed,
    // lr 1e-5 (a tenth of the default) keeps π near π_ref for most of the lesson, where k1's noise shows: at the
    // default 1e-4 the arithmetic model's KL passes 0.5 nats by step 3 and only 0–2 of 40 k1 batches were < 0.
    runs: [
      run("ppo-1", "ppo", "PPO (k1 penalty), lr 1e-5", { batchPrompts: 16, lr: 1e-5 }),
      run("grpo-1", "grpo", "GRPO (k3 in the loss), lr 1e-5", {
        batchPrompts: 4,
        numGenerations: 8,
        lr: 1e-5,
      }),
    ],
    steps: 16,
    preset: "kl-estimators",
  }),
  check(h) {
    // Whichever runs there are, pooled; with none, "not checked" (MissingRunError), not a failure on no batches.
    const all = Object.values(h);
    if (all.length === 0) runRows(h, "ppo-1");
    const k1 = all.flatMap((r) => series(r, "objective/kl"));
    const k3 = all.flatMap((r) => series(r, "objective/kl_k3"));
    const exact = all.flatMap((r) => series(r, "objective/kl_exact"));
    const negative = k1.filter((v) => v < 0).length;
    // A run there whose rows lack k3 or the exact KL shows nothing about them (the min of no values is +∞): not ok.
    return verdict(
      {
        "some k1 batch is negative": negative > 0,
        "k3 is there and never negative": k3.length > 0 && Math.min(...k3) >= -1e-6,
        "the exact KL is there and never negative": exact.length > 0 && Math.min(...exact) >= -1e-6,
      },
      {
        k1_negative_batches: negative,
        batches: k1.length,
        k3_batches: k3.length,
        exact_batches: exact.length,
        k1_min: r4(Math.min(...k1)),
        k3_min: r4(Math.min(...k3)),
        exact_min: r4(Math.min(...exact)),
        mean_k1: r4(allMean(all.flat(), "objective/kl")),
        mean_exact: r4(allMean(all.flat(), "objective/kl_exact")),
      },
      "some k1 batch estimates are negative; k3 and the exact KL never are",
    );
  },
};

export const GRPO_GROUPS: Lesson = {
  id: "grpo-groups",
  title: "GRPO's groups",
  summary: "Group size G and the share of groups that teach nothing (all answers scored alike).",
  watch: [
    "GRPO scores each answer against the mean and spread of the G answers to its prompt (itself included). A group whose answers all score the same has zero advantages: no reward signal (only the KL penalty, β = 0.04 here, still acts on its answers).",
    "With G = 2 on a task the model solves about 30 % of the time, the two answers agree 58 % of the time (0.7² both wrong + 0.3² both right): “Zero-std groups” (frac_reward_zero_std, in more metrics) stays high (59–69 % over the 12 steps, seeds 0–2). With G = 8 it falls to about a fifth (19–23 %), not the 6 % that equally hard prompts would give: some prompts this model almost never solves, and then all eight answers are wrong (Inspect shows such groups).",
    "Both runs sample 32 answers per step; pause, then Inspect shows each group (its group advantages, with the table's “Advantages” columns): G answers → scores → advantages.",
  ],
  status: { kind: "verified", reason: "its effect showed on seeds 0, 1 and 2 at the lesson's length." },
  refs: [
    { label: "GRPO (Shao et al. 2024)", url: ARXIV("2402.03300") },
    { label: "DAPO: dynamic sampling of zero-std groups (Yu et al. 2025)", url: ARXIV("2503.14476") },
  ],
  experiment: (seed = 0) => ({
    task: "arithmetic",
    model: "sft",
    seed,
    runs: [
      run("grpo-g2", "grpo", "GRPO G = 2", { batchPrompts: 16, numGenerations: 2 }),
      run("grpo-g8", "grpo", "GRPO G = 8", { batchPrompts: 4, numGenerations: 8 }),
    ],
    steps: 12,
    preset: "grpo-groups",
  }),
  check(h) {
    const g2 = allMean(runRows(h, "grpo-g2"), "frac_reward_zero_std");
    const g8 = allMean(runRows(h, "grpo-g8"), "frac_reward_zero_std");
    return verdict(
      { "G = 2's zero-std share exceeds G = 8's by over 0.2": g2 > g8 + 0.2 },
      { frac_reward_zero_std_G2: r4(g2), frac_reward_zero_std_G8: r4(g8) },
      "G = 2 wastes far more groups (zero std) than G = 8",
    );
  },
};
