/**
 * The metric glossary: one line for every metric a run can report (TRL names), shown on hover and focus of a
 * chart's title and of each row of the "all metrics" table. The charted metrics' lines live with their chart
 * info (./metric_info.ts); the rest (counters, loss parts, algorithm state) are defined here.
 */
import { ENTROPY, GOLD, KL_CHART_UNIT, KL_ESTIMATORS, MORE_METRICS, REWARD } from "./metric_info";

/** Metrics reported by some algorithm but not charted on their own. */
const REPORTED: Record<string, string> = {
  samples:
    "Completions the policy generated this step (ReMax's greedy ones too; offline DPO: those it samples for its charts, not its dataset pairs); summed on the Samples axis.",
  tokens:
    "Completion tokens of the completions the samples metric counts; the CSV's tokens column and the Tokens x-axis add them up.",
  lr: "PPO: the AdamW learning rate used this step (TRL's PPOTrainer logs it as lr; the other algorithms, learning_rate).",
  learning_rate: "The AdamW learning rate used this step (TRL's Trainer-based trainers' name; PPO logs lr).",
  step_time: "Wall-clock seconds this step took: sampling, scoring and updates (s).",
  kl: "Mean per-token k3 KL to π_ref in the update (nats/token); objective/kl sums k1 over a sequence. KTO: its reference point z₀, a KL per completion.",
  "val/ratio":
    "Mean probability ratio ρ = π_θ/π_old over the update's tokens; PPO: mean over every minibatch of its epochs (1 only before the first update: val/ratio_first).",
  "val/ratio_first":
    "PPO: mean ratio ρ in the first minibatch of the first epoch; 1 means log-probs match between sampling and training.",
  "objective/kl_bound":
    "Best-of-n: log n − (n−1)/n, an upper bound on its KL (nats); its KL lines are estimated from each prompt's n scores, averaged over prompts.",
  "objective/non_score_reward": "PPO: batch mean of the KL penalty −β·Σ_t k_t added to the score.",
  "objective/rlhf_reward": "PPO: batch mean of score + KL penalty, R − β·Σ_t k_t: what PPO maximises.",
  "objective/scores": "PPO: batch mean of the scores R before the KL penalty.",
  "objective/entropy":
    "PPO: batch mean of −Σ_t log π(y_t) over the sampled tokens (nats/completion), TRL's sequence-level entropy estimate; entropy is the exact per-token mean.",
  "objective/score": "Safe RLHF: mean penalised score R − λ·c the policy is trained on.",
  "objective/score_std":
    "Safe RLHF: reward_std of the penalised score R − λ·c (what TRL logs as reward_std with this score as its reward).",
  "objective/frac_score_zero_std":
    "Safe RLHF: share of groups whose penalised scores R − λ·c all tie: no learning signal there (reward ties alone still leave the cost's).",
  "reward/all_samples": "Best-of-n: mean reward of all n samples, before the best one is picked.",
  "completions/min_length": "Shortest completion of the step, EOS included (tokens).",
  "completions/max_length": "Longest completion of the step, EOS included (tokens).",
  "logps/chosen": "DPO: mean sequence log-prob log π_θ(y_w) of the chosen completions (nats).",
  "logps/rejected": "DPO: mean sequence log-prob log π_θ(y_l) of the rejected completions (nats).",
  nll_loss:
    "ORPO: the SFT term, each chosen completion's mean token cross-entropy, averaged over pairs (TRL's: one token mean over the batch's chosen sequences, prompts included).",
  log_odds_ratio: "ORPO: mean log σ(log odds(y_w) − log odds(y_l)); ≤ 0, near 0 when chosen is far likelier.",
  log_odds_chosen:
    "ORPO: mean log odds(y_w) − log odds(y_l); positive when the chosen completion is likelier.",
  "kto/desirable_fraction": "KTO: share of the step's examples labelled desirable.",
  "ei/kept_fraction": "Expert iteration: share of the sampled completions kept for fine-tuning.",
  "ei/kept_reward": "Expert iteration: mean reward of the kept completions.",
  "safe/lambda": "Safe RLHF: the Lagrange multiplier λ used this step (the price of one unit of cost).",
  "safe/cost":
    "Safe RLHF: mean cost c of the step's completions (its setting: length in tokens, or positive words).",
  "safe/lambda_integral":
    "Safe RLHF: the integral part λ_I of λ (dashed), the running sum of η(E[c] − d) kept ≥ 0; λ equals it when Kₚ = 0.",
  "safe/cost_limit": "Safe RLHF: the cost limit d the multiplier enforces on average.",
  baseline:
    "REINFORCE: the baseline b subtracted from the scores: earlier batches' moving average, or (ReMax) the mean of the greedy answers' scores.",
  "annotator/flipped":
    "Share of this step's pairs with a gold preference whose label the simulated annotator flipped (ties left out).",
  "annotator/ties":
    "Share of this step's pairs the gold scorer rates equal (two wrong sums, the same text): their order is a coin toss.",
};

function build(): Map<string, string> {
  const m = new Map<string, string>();
  for (const info of [REWARD, GOLD, ENTROPY, ...MORE_METRICS]) m.set(info.key, info.doc);
  for (const k of KL_ESTIMATORS)
    m.set(k.key, `Sequence KL(π ‖ π_ref), batch mean (nats), estimator ${k.name}: ${k.doc}.`);
  for (const [k, doc] of Object.entries(REPORTED)) if (!m.has(k)) m.set(k, doc);
  return m;
}

/** Units of the metrics whose chart info (./metric_info.ts) gives none or which no chart shows. */
const UNITS: Record<string, string> = {
  step_time: "s",
  samples: "completions",
  tokens: "tokens",
  "logps/rejected": "nats",
  "objective/kl_bound": "nats",
  "objective/entropy": "nats/completion",
  kl: "nats/token",
  "completions/min_length": "tokens",
  "completions/max_length": "tokens",
};

/** Metric key → unit: the charts' infos, the KL estimators, then UNITS; built once, as the glossary. */
const UNIT_OF: ReadonlyMap<string, string> = new Map([
  ...[REWARD, GOLD, ENTROPY, ...MORE_METRICS].flatMap((i) => (i.unit ? [[i.key, i.unit] as const] : [])),
  // As the KL chart says it (the tables said "nats" beside it).
  ...KL_ESTIMATORS.map((k) => [k.key, KL_CHART_UNIT] as const),
  ...Object.entries(UNITS),
]);

/** Units that differ by algorithm under one TRL name: KTO's `kl` is its reference point z₀, a sequence's KL. */
const ALGO_UNITS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  kto: { kl: "nats/completion" },
};

/**
 * A metric's unit for a table ("s", "nats", …), or undefined where it has none (a share, a loss); `algo`: the
 * reporting run's algorithm, where a name's unit depends on it.
 */
export function metricUnit(key: string, algo?: string): string | undefined {
  return (algo === undefined ? undefined : ALGO_UNITS[algo]?.[key]) ?? UNIT_OF.get(key);
}

/**
 * A word for one run's cell of the all-metrics table where its value is not what the row's name says for the
 * other runs: best-of-n writes its KL estimate from the scores under every KL estimator's name.
 */
export function metricCellNote(key: string, algo: string): string | undefined {
  return algo === "bon" && KL_ESTIMATORS.some((k) => k.key === key) ? "estimate from scores" : undefined;
}

/** Metric key (TRL name) → its one-line definition. */
export const GLOSSARY: ReadonlyMap<string, string> = build();

/** The definition of a metric, or undefined for a key the glossary does not know. */
export function metricDoc(key: string): string | undefined {
  return GLOSSARY.get(key);
}
