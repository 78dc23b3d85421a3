/**
 * The TRL config classes a run can map to (./trl_targets.ts), and the keyword names each accepts of those the
 * field tables use, for TRL ≥ 0.23 (names only some versions have: ./trl_versions.ts). A name a class lacks
 * would be a TypeError in Python: such settings become comments in the exported script instead.
 */

/** A TRL config class (best-of-n has none). */
export type TrlClass =
  | "PPOConfig"
  | "GRPOConfig"
  | "DPOConfig"
  | "CPOConfig"
  | "RLOOConfig"
  | "KTOConfig"
  | "ORPOConfig"
  | "SFTConfig";

const COMMON = ["learning_rate", "per_device_train_batch_size", "max_grad_norm", "weight_decay"];
const SAMPLING = ["max_completion_length", "temperature", "top_k"];

/** The TRL names each config class accepts, of those the field tables use. */
export const TRL_ACCEPTS: Record<TrlClass, ReadonlySet<string>> = {
  PPOConfig: new Set([
    ...COMMON,
    "num_sample_generations",
    "response_length",
    "temperature",
    "kl_coef",
    "kl_estimator",
    "gamma",
    "lam",
    "whiten_rewards",
    "cliprange",
    "cliprange_value",
    "vf_coef",
    "num_ppo_epochs",
    "num_mini_batches",
    "missing_eos_penalty",
  ]),
  GRPOConfig: new Set([
    ...COMMON,
    ...SAMPLING,
    "num_generations",
    "scale_rewards",
    "loss_type",
    "epsilon",
    "epsilon_high",
    "beta",
    "num_iterations",
    "entropy_coef",
  ]),
  RLOOConfig: new Set([...COMMON, ...SAMPLING, "num_generations", "beta", "epsilon", "num_iterations"]),
  DPOConfig: new Set([...COMMON, "max_completion_length", "beta", "loss_type", "label_smoothing"]),
  CPOConfig: new Set([
    ...COMMON,
    "max_completion_length",
    "beta",
    "loss_type",
    "label_smoothing",
    "simpo_gamma",
  ]),
  KTOConfig: new Set([...COMMON, "max_completion_length", "beta", "desirable_weight", "undesirable_weight"]),
  ORPOConfig: new Set([...COMMON, "max_completion_length", "beta"]),
  SFTConfig: new Set([...COMMON, "max_steps"]),
};
