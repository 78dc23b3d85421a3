/**
 * The guided lessons by id, in the lab's order (PRESET_IDS). Apart from index.ts (which adds their links) so that
 * code that cannot load the URL codec and the algorithm registry behind it (Playwright's Node loader: the e2e
 * tests) can list every lesson.
 */
import type { PresetId } from "./ids";
import type { Lesson } from "./lesson";
import { BON_VS_RL, DPO_IMPLICIT_REWARD, ENTROPY_COLLAPSE, LENGTH_BIAS } from "./lessons_dynamics";
import { GRPO_GROUPS, KL_ESTIMATORS, OVEROPTIMISATION, PPO_DPO_GRPO } from "./lessons_rl";

export const LESSONS: Readonly<Record<PresetId, Lesson>> = {
  "ppo-dpo-grpo": PPO_DPO_GRPO,
  overoptimisation: OVEROPTIMISATION,
  "kl-estimators": KL_ESTIMATORS,
  "grpo-groups": GRPO_GROUPS,
  "entropy-collapse": ENTROPY_COLLAPSE,
  "dpo-implicit-reward": DPO_IMPLICIT_REWARD,
  "length-bias": LENGTH_BIAS,
  "bon-vs-rl": BON_VS_RL,
};
