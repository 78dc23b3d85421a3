/**
 * The guided lessons in the order the lab lists them, and their links. A lesson is an ordinary experiment
 * (src/lab/url.ts) with `preset` set, so "load a lesson" = open its link.
 */

import { DEFAULT_SHARED_VIEW } from "../settings";
import { shareUrl } from "../url";
import type { PresetId } from "./ids";
import type { Lesson } from "./lesson";
import { BON_VS_RL, DPO_IMPLICIT_REWARD, ENTROPY_COLLAPSE, LENGTH_BIAS } from "./lessons_dynamics";
import { GRPO_GROUPS, KL_ESTIMATORS, OVEROPTIMISATION, PPO_DPO_GRPO } from "./lessons_rl";

export type { Lesson } from "./lesson";

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

/** The lesson's link on `base` (the page URL; its hash is replaced). */
export function lessonUrl(id: PresetId, base: string, seed = 0): string {
  const l = LESSONS[id];
  return shareUrl(l.experiment(seed), { ...DEFAULT_SHARED_VIEW, ...l.view }, base);
}
