/**
 * The algorithms' ids and what each learns from: plain data with no imports, so settings, the charts' notes and
 * the e2e tests can read it without loading the algorithms (src/lab/registry.ts builds the runs).
 */

export type AlgoId =
  | "ppo"
  | "grpo"
  | "dpo"
  | "rloo"
  | "reinforce"
  | "bon"
  | "expert_iteration"
  | "kto"
  | "orpo"
  | "safe_rlhf";

/**
 * What an algorithm's updates learn from: "reward", the run's reward source (its scores, or their differences in
 * a group or batch); "preferences", the simulated annotator's chosen/rejected labels made from the gold scores
 * (src/algorithms/pairs.ts), so the run's reward only scores its charted samples; "nothing", no training
 * (best-of-n).
 */
export type LearnsFrom = "reward" | "preferences" | "nothing";

export const LEARNS_FROM: Record<AlgoId, LearnsFrom> = {
  ppo: "reward",
  grpo: "reward",
  dpo: "preferences",
  rloo: "reward",
  reinforce: "reward",
  bon: "nothing",
  expert_iteration: "reward",
  kto: "preferences",
  orpo: "preferences",
  safe_rlhf: "reward",
};

const learning = (what: LearnsFrom): ReadonlySet<string> =>
  new Set(Object.keys(LEARNS_FROM).filter((id) => LEARNS_FROM[id as AlgoId] === what));

/** The algorithms whose updates learn from the run's reward source (a run that sees no reward signal says so). */
export const REWARD_LEARNERS = learning("reward");

/**
 * The algorithms that learn from preference labels made from the gold scores, never from the run's reward source
 * (except KTO with labels = threshold: settings.ts labelsFromGold).
 */
export const PREFERENCE_LEARNERS = learning("preferences");
