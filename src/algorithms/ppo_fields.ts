/**
 * PPO's settings table (./ppo.ts is the algorithm and its PpoConfig): one entry per hyperparameter with its
 * range, default, meaning, paper and TRL name. The lab's run cards, the URL and config validation read it.
 */
import {
  COMMON_FIELDS,
  type ConfigProblem,
  ENTROPY_BONUS_FIELD,
  type Field,
  MISSING_EOS_PENALTY_FIELD,
} from "./fields";
import { adaptiveKlBeta } from "./math/ppo";

export const PPO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.05,
    min: 0,
    max: 10,
    doc: "KL penalty per token in the reward, r_t = −β·k_t (+ the score at the last token).",
    source: "Ziegler et al. 2019 eq. 2",
    trl: "kl_coef",
  },
  {
    key: "klEstimator",
    label: "KL est.",
    kind: "enum",
    default: "k1",
    options: ["k1", "k3"],
    doc: "Per-token KL estimator in the reward: k1 = log π/π_ref (unbiased, can be negative) or k3 (≥ 0).",
    source: "Schulman 2020",
    trl: "kl_estimator",
  },
  {
    key: "gamma",
    label: "γ",
    kind: "number",
    default: 1,
    min: 0,
    max: 1,
    doc: "Discount over tokens.",
    source: "Schulman et al. 2016",
    trl: "gamma",
  },
  {
    key: "lam",
    label: "λ",
    kind: "number",
    default: 0.95,
    min: 0,
    max: 1,
    doc: "GAE bias/variance trade-off.",
    source: "Schulman et al. 2016 eq. 16",
    trl: "lam",
  },
  {
    key: "whitenAdvantages",
    label: "whiten",
    kind: "bool",
    default: true,
    doc: "Normalise advantages to mean 0, std 1 over the batch's tokens. TRL always does (no setting; its whiten_rewards normalises the rewards, another thing).",
    source: "Huang et al. 2024",
  },
  {
    key: "epsilon",
    label: "ε",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 0.99,
    doc: "Clip range of the ratio ρ = π_θ/π_old.",
    source: "Schulman et al. 2017 eq. 7",
    trl: "cliprange",
  },
  {
    key: "epsilonV",
    label: "ε_v",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 100,
    doc: "Clip range of the value update.",
    source: "Huang et al. 2024",
    trl: "cliprange_value",
  },
  {
    key: "vfCoef",
    label: "c_v",
    kind: "number",
    default: 0.1,
    min: 0,
    max: 10,
    doc: "Weight of the value loss.",
    source: "Schulman et al. 2017 eq. 9",
    trl: "vf_coef",
  },
  {
    key: "valueModel",
    label: "critic",
    fixed: "models",
    kind: "enum",
    default: "shared",
    options: ["shared", "separate"],
    doc: "The value model V(s). shared: a value head on the policy's transformer, trained with it; separate: a second transformer from the start model with its own optimizer, trained on the value loss alone (2× weights).",
    source: "Ouyang et al. 2022 §3.5; Huang et al. 2024; TRL PPOTrainer value_model",
  },
  ENTROPY_BONUS_FIELD,
  MISSING_EOS_PENALTY_FIELD,
  {
    key: "ppoEpochs",
    label: "epochs",
    kind: "int",
    default: 4,
    min: 1,
    max: 16,
    doc: "Passes over each sampled batch.",
    source: "Schulman et al. 2017 alg. 1",
    trl: "num_ppo_epochs",
  },
  {
    key: "numMiniBatches",
    label: "minibatches",
    kind: "int",
    default: 1,
    min: 1,
    max: 64,
    doc: "Minibatches per epoch (sequences are shuffled into them); at most the prompts a step.",
    source: "Schulman et al. 2017 alg. 1",
    trl: "num_mini_batches",
  },
  {
    key: "adaptiveKl",
    label: "adaptive β",
    kind: "bool",
    default: false,
    doc: "Adjust β after each batch towards a target KL (from a β above 0, where it would stay).",
    source: "Ziegler et al. 2019 §2.2",
  },
  {
    key: "klTarget",
    label: "KL target",
    kind: "number",
    default: 6,
    min: 0.001,
    max: 1000,
    unit: "nats",
    doc: "Target sequence KL of the adaptive controller, measured with the penalty's estimator (KL est.; with k3, the KL chart's k3 line).",
    source: "Ziegler et al. 2019",
    usedWhen: { key: "adaptiveKl", values: [true] },
  },
  {
    key: "klHorizon",
    label: "horizon",
    kind: "number",
    default: 10000,
    min: 1,
    max: 1e7,
    doc: "Samples over which the adaptive controller moves β by up to 20%; above 0.2 × the prompts a step (a shorter one can take β to 0 in one step).",
    source: "Ziegler et al. 2019",
    usedWhen: { key: "adaptiveKl", values: [true] },
  },
];

/**
 * The first problem of a complete PPO config (defaults filled) that no single field's range catches, or null:
 * more minibatches than prompts; the adaptive controller (β ← β(1 + e·n/H), e ∈ [−0.2, 0.2]: the n/horizon
 * form of the lm-human-preferences code's AdaptiveKLController, which TRL copied; Ziegler et al. 2019 §2.2
 * write β_{t+1} = β_t(1 + K_β e_t) with K_β = 0.1; math/ppo.ts adaptiveKlBeta) starting from β = 0, where it
 * stays, or with a horizon H ≤ 0.2·n (n = prompts a step), where one step under the target takes β to 0 or
 * below. Pure; the run's constructor and setConfig throw it, a link's
 * check (src/lab/spec_check.ts) drops the settings.
 */
export function ppoConfigProblem(c: {
  batchPrompts: number;
  numMiniBatches: number;
  adaptiveKl: boolean;
  beta: number;
  klHorizon: number;
}): ConfigProblem | null {
  if (c.numMiniBatches > c.batchPrompts)
    return {
      message: `ppo.numMiniBatches (${c.numMiniBatches}) exceeds batchPrompts (${c.batchPrompts})`,
      keys: ["numMiniBatches", "batchPrompts"],
    };
  if (c.adaptiveKl && c.beta <= 0)
    return {
      message: "ppo's adaptive β multiplies β each step, so it needs β > 0 to start from (β = 0 stays 0)",
      keys: ["adaptiveKl", "beta"],
    };
  if (c.adaptiveKl && c.klHorizon <= 0.2 * c.batchPrompts)
    return {
      message: `ppo's adaptive β moves β by up to 20 % × prompts/step ÷ horizon a step: a horizon of ${c.klHorizon} with ${c.batchPrompts} prompts a step can take β to 0 in one step (use a horizon above ${0.2 * c.batchPrompts})`,
      keys: ["adaptiveKl", "klHorizon"],
    };
  return null;
}

/**
 * The least β the adaptive controller leaves (1e-6): it multiplies β each step, by as little as 1 − 0.2·n/H while
 * the KL stays under target (early in training, for hundreds of steps), and β rounded to 0 would stay 0 (and the
 * next step fail). From the floor it grows back by up to 1 + 0.2·n/H a step once the KL is over target.
 */
export const ADAPTIVE_BETA_FLOOR = 1e-6;

/**
 * The adaptive controller's next β (math/ppo.ts adaptiveKlBeta: Ziegler et al. 2019 §2.2 in their code's
 * n/horizon form, as TRL's AdaptiveKLController) from β > 0, the KL the penalty
 * charged, n prompts a step, the target and horizon, kept in [ADAPTIVE_BETA_FLOOR, `max`] (the β field's top).
 */
export function controllerBeta(
  beta: number,
  kl: number,
  n: number,
  target: number,
  horizon: number,
  max: number,
): number {
  return Math.min(max, Math.max(ADAPTIVE_BETA_FLOOR, adaptiveKlBeta(beta, kl, n, target, horizon)));
}
