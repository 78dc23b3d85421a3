/**
 * RLOO (Ahmadian et al. 2024; Kool et al. 2019): G completions per prompt, each one's baseline is the mean
 * score of the other G − 1; the KL to the reference (k1, summed over the completion) enters the score,
 * R_i ← R_i − β·Σ_t k1_t. Loss −A_i Σ_t log π_θ(y_t) (the clipped surrogate when μ > 1).
 * Spec: ../shared/docs/algorithms.md "RLOO and REINFORCE".
 */
import { COMMON_FIELDS, type Field, MISSING_EOS_PENALTY_FIELD } from "./fields";
import { grpoAdvantages } from "./math/grpo";
import type { TokenShape } from "./math/masked";
import { rlooAdvantages, rlooScores } from "./math/rloo";
import { type PgConfig, SequencePgRun } from "./pg_run";
import type { Rollout } from "./rollout";
import type { RunEnv } from "./run";
import { perSequenceSumWeights } from "./seq_weights";

export const RLOO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "numGenerations",
    label: "G",
    fixed: "shape",
    kind: "int",
    default: 4,
    min: 2,
    max: 64,
    doc: "Completions per prompt; each is compared with the mean of the others.",
    source: "Ahmadian et al. 2024 §3",
    trl: "num_generations",
  },
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.05,
    min: 0,
    max: 10,
    doc: "KL penalty subtracted from each completion's score (k1 summed over its tokens).",
    source: "Ahmadian et al. 2024 eq. 2",
    trl: "beta",
  },
  {
    key: "epsilon",
    label: "ε",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 0.99,
    doc: "Clip range, used only when μ > 1 reuses a batch, on each token's ratio (TRL's RLOO clips each completion's ratio).",
    source: "Schulman et al. 2017",
    trl: "epsilon",
  },
  {
    key: "numIterations",
    label: "μ",
    kind: "int",
    default: 1,
    min: 1,
    max: 16,
    doc: "Updates per sampled batch; after the first, the clipped surrogate applies per token at ε (TRL's RLOO: per completion).",
    source: "implementation",
    trl: "num_iterations",
  },
  MISSING_EOS_PENALTY_FIELD,
];

/** RLOO settings (Ahmadian et al. 2024), validated against {@link RLOO_FIELDS}; others: {@link PgConfig}. */
export interface RlooConfig extends PgConfig {
  /**
   * Reward subtracted from a completion cut without EOS, in [0, 5]; default 0 (off). TRL: PPOConfig's
   * missing_eos_penalty (RLOOConfig has none).
   */
  missingEosPenalty: number;
  /** G: completions per prompt, an integer in [2, 64]; default 4; fixed (Ahmadian et al. 2024 §3). */
  numGenerations: number;
  /** β: KL penalty (k1 summed over tokens) on each score, in [0, 10]; default 0.05 (Ahmadian et al. 2024 eq. 2). */
  beta: number;
  /** ε: clip range, used only when μ > 1, in [0, 0.99]; default 0.2 (Schulman et al. 2017). */
  epsilon: number;
  /** μ: updates per sampled batch, an integer in [1, 16]; default 1. */
  numIterations: number;
}

/**
 * RLOO: leave-one-out baseline over G samples per prompt; a {@link SequencePgRun} (owns and frees its engine
 * and updater). Without a reference model β is taken as 0. RangeError on an invalid config.
 */
export class RlooRun extends SequencePgRun<RlooConfig> {
  readonly algo = "rloo";

  constructor(env: RunEnv, config: Partial<RlooConfig> = {}) {
    super(env, RLOO_FIELDS, "rloo", config);
  }

  protected groupSize(c: RlooConfig): number {
    return c.numGenerations;
  }

  protected advantages(r: Rollout, shape: TokenShape, c: RlooConfig) {
    const scores = r.tokens
      ? rlooScores(r.reward, r.logpOld, r.logpRef, shape, this.env.ref ? c.beta : 0)
      : r.reward;
    // The share of prompts whose G raw scores all tie: no reward signal there (with β = 0 their leave-one-out
    // advantages are 0). TRL's RLOO counts ties after subtracting β·KL, so with β > 0 it logs about 0.
    const zeroStd = grpoAdvantages(r.reward, c.numGenerations, "none").metrics.frac_reward_zero_std;
    return {
      advantages: rlooAdvantages(scores, c.numGenerations),
      metrics: { frac_reward_zero_std: zeroStd },
      scores,
    };
  }

  protected weights(shape: TokenShape): Float64Array {
    return perSequenceSumWeights(shape);
  }

  protected clip(c: RlooConfig) {
    return {
      beta: 0,
      epsilon: c.epsilon,
      epsilonHigh: c.epsilon,
      iterations: c.numIterations,
      klCoef: c.beta,
    };
  }
}
