/**
 * The guided lessons' ids, in the order the lab lists them (plain data: the settings table and the URL check
 * need them without pulling in the lessons' content, src/lab/presets/index.ts).
 */
export const PRESET_IDS = [
  "ppo-dpo-grpo",
  "overoptimisation",
  "kl-estimators",
  "grpo-groups",
  "entropy-collapse",
  "dpo-implicit-reward",
  "length-bias",
  "bon-vs-rl",
] as const;

export type PresetId = (typeof PRESET_IDS)[number];
