/**
 * GRPO (Shao et al. 2024, DeepSeekMath) with the variants people argue about: `scale_rewards` group/batch/none
 * (Dr. GRPO: Liu et al. 2025), `loss_type` grpo/dapo/dr_grpo, clip-higher ε_high (DAPO: Yu et al. 2025), β on
 * k3 inside the loss (β = 0 drops the reference model), μ = num_iterations updates per batch, and PPO's entropy
 * bonus c_H (TRL 1.x's entropy_coef; not in TRL 0.x's GRPO).
 * This file has no step(): a GRPO step is SequencePgRun.step in pg_run.ts (sample G completions per prompt, score
 * them, then this file's advantages, weights and clip settings feed update.ts); docs/how-a-step-runs.md traces it.
 * Spec: ../shared/docs/algorithms.md "GRPO (Shao et al. 2024, DeepSeekMath) and its variants".
 */
import { COMMON_FIELDS, ENTROPY_BONUS_FIELD, type Field } from "./fields";
import { aggregationWeights, grpoAdvantages } from "./math/grpo";
import type { TokenShape } from "./math/masked";
import { type PgConfig, SequencePgRun } from "./pg_run";
import type { Rollout } from "./rollout";
import type { RunEnv } from "./run";

export const GRPO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "numGenerations",
    label: "G",
    fixed: "shape",
    kind: "int",
    default: 4,
    min: 2,
    max: 64,
    doc: "Completions sampled per prompt; advantages compare them within their group.",
    source: "Shao et al. 2024 §4.1",
    trl: "num_generations",
  },
  {
    key: "scaleRewards",
    label: "scale",
    kind: "enum",
    default: "group",
    options: ["group", "batch", "none"],
    doc: "Divide advantages by the group's std, the batch's std, or not at all (Dr. GRPO).",
    source: "Liu et al. 2025 (Dr. GRPO)",
    trl: "scale_rewards",
  },
  {
    key: "lossType",
    label: "loss type",
    kind: "enum",
    default: "grpo",
    options: ["grpo", "dapo", "dr_grpo"],
    doc: "How token losses are averaged: per sequence then batch (grpo: long completions weigh less per token, the source of a length bias), over all tokens (dapo), or by the constant N·L_max, N the batch's completions (prompts × G) and L_max the max new tokens (dr_grpo: no length bias). The default is the paper's; TRL's GRPOConfig defaults to dapo.",
    source: "Yu et al. 2025; Liu et al. 2025",
    trl: "loss_type",
  },
  {
    key: "epsilon",
    label: "ε",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 0.99,
    doc: "Lower clip range of the ratio ρ.",
    source: "Schulman et al. 2017 eq. 7",
    trl: "epsilon",
  },
  {
    key: "epsilonHigh",
    label: "ε_high",
    kind: "number",
    default: 0,
    min: 0,
    max: 1,
    doc: "Upper clip range of the ratio ρ; 0 (the default) uses ε, as TRL's epsilon_high = None. DAPO's clip-higher sets 0.28 (with ε = 0.2) so that unlikely tokens can grow and the policy keeps exploring.",
    source: "Yu et al. 2025 (DAPO)",
    trl: "epsilon_high",
  },
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.04,
    min: 0,
    max: 10,
    doc: "Weight of the k3 KL to the reference inside the loss (0 drops the reference model). The default is the paper's; TRL's GRPOConfig defaults to 0.",
    source: "Shao et al. 2024 eq. 3",
    trl: "beta",
  },
  {
    key: "numIterations",
    label: "μ",
    kind: "int",
    default: 1,
    min: 1,
    max: 16,
    doc: "Updates per sampled batch (μ > 1 reuses the batch, so ρ ≠ 1).",
    source: "Shao et al. 2024 alg. 1",
    trl: "num_iterations",
  },
  ENTROPY_BONUS_FIELD,
];

/** ε_high as the loss uses it: the setting, or ε when it is 0 (the default; ../shared/docs/algorithms.md "ε_high = ε"). */
export function upperClip(c: Pick<GrpoConfig, "epsilon" | "epsilonHigh">): number {
  return c.epsilonHigh > 0 ? c.epsilonHigh : c.epsilon;
}

/** The clip and KL settings a GRPO update uses: ε, ε_high ({@link upperClip}), β on k3, μ iterations. */
export function grpoClip(c: GrpoConfig) {
  return {
    beta: c.beta,
    epsilon: c.epsilon,
    epsilonHigh: upperClip(c),
    iterations: c.numIterations,
    klCoef: c.beta,
  };
}

/** GRPO settings (Shao et al. 2024, DeepSeekMath), validated against {@link GRPO_FIELDS}; others: {@link PgConfig}. */
export interface GrpoConfig extends PgConfig {
  /**
   * G: completions sampled per prompt, an integer in [2, 64]; algorithm default 4 (CLI/TRL mapping); the lab's
   * starting experiment uses 8, with 4 prompts (src/lab/defaults.ts); fixed (Shao et al. 2024 §4.1).
   */
  numGenerations: number;
  /** Divide advantages by the "group"'s std (default), the "batch"'s, or "none" (Liu et al. 2025). */
  scaleRewards: "group" | "batch" | "none";
  /**
   * Token-loss averaging: "grpo" per sequence (default), "dapo" over tokens, "dr_grpo" by N·L_max (N the
   * batch's completions, prompts × G; L_max the max new tokens).
   */
  lossType: "grpo" | "dapo" | "dr_grpo";
  /** ε: lower clip range of the ratio ρ, in [0, 0.99]; default 0.2 (Schulman et al. 2017 eq. 7). */
  epsilon: number;
  /** ε_high: upper clip range of ρ, in [0, 1]; default 0, meaning ε ({@link upperClip}; Yu et al. 2025, DAPO). */
  epsilonHigh: number;
  /** β: weight of the k3 KL in the loss, in [0, 10]; default 0.04; 0 = no reference (Shao et al. 2024 eq. 3). */
  beta: number;
  /** μ: updates per sampled batch, an integer in [1, 16]; default 1 (Shao et al. 2024 alg. 1). */
  numIterations: number;
  /** c_H: entropy bonus in [0, 1], default 0: the loss subtracts c_H·Σ_t w_t H_t (w_t: the loss type's weights). */
  entCoef: number;
}

/**
 * GRPO: G samples per prompt, group-normalised advantages; a {@link SequencePgRun} (owns and frees its engine
 * and updater). RangeError on an invalid config or β > 0 without a reference model.
 */
export class GrpoRun extends SequencePgRun<GrpoConfig> {
  readonly algo: string = "grpo";

  constructor(
    env: RunEnv,
    config: Partial<GrpoConfig> = {},
    fields: readonly Field[] = GRPO_FIELDS,
    name = "grpo",
  ) {
    super(env, fields, name, config);
    if (this.config.beta > 0 && !env.ref) throw new RangeError("grpo.beta > 0 needs a reference model");
  }

  protected groupSize(c: GrpoConfig): number {
    return c.numGenerations;
  }

  protected advantages(r: Rollout, _shape: TokenShape, c: GrpoConfig) {
    return grpoAdvantages(r.reward, c.numGenerations, c.scaleRewards);
  }

  protected weights(shape: TokenShape, c: GrpoConfig): Float64Array {
    return aggregationWeights(shape, c.lossType, this.engine.S);
  }

  protected clip(c: GrpoConfig) {
    return grpoClip(c);
  }
}
