/**
 * Every algorithm's explanation, keyed by its registry id (src/lab/registry.ts). Content lives in one module
 * per family; this table is what the panel and the tests read.
 */
import type { AlgoId } from "../../lab/registry";
import { GRPO, PPO, REINFORCE, RLOO } from "./policy_gradient";
import { DPO, KTO, ORPO } from "./preference";
import { BEST_OF_N, EXPERT_ITERATION, SAFE_RLHF } from "./sampling";
import type { Explanation } from "./types";

export const EXPLANATIONS: Record<AlgoId, Explanation> = {
  ppo: PPO,
  grpo: GRPO,
  dpo: DPO,
  rloo: RLOO,
  reinforce: REINFORCE,
  bon: BEST_OF_N,
  expert_iteration: EXPERT_ITERATION,
  kto: KTO,
  orpo: ORPO,
  safe_rlhf: SAFE_RLHF,
};
