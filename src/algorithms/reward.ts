/**
 * Reward sources: anything that scores (prompt, completion) pairs. A run has one source it optimises (`reward`:
 * the gold scorer, a learned proxy RM, a user ONNX RM) and always the task's gold scorer too (`reward_gold`),
 * so over-optimisation shows up on the charts.
 */

export interface RewardSample {
  /** Prompt token ids. */
  prompt: readonly number[];
  /** Completion token ids up to and including EOS (its true length). */
  completion: readonly number[];
}

export interface RewardSource {
  /** Shown in the UI and logged, e.g. "gold", "proxy-rm", "share-of-token-5". */
  readonly name: string;
  /** One finite score per sample. */
  score(samples: readonly RewardSample[]): Promise<Float64Array> | Float64Array;
}

/** A known per-completion cost (≥ 0) a constrained run limits (Safe RLHF); synchronous, deterministic. */
export interface CostSource {
  /** Shown in the UI and logged, e.g. "positive words". */
  readonly name: string;
  /** The unit of the cost and of its limit, e.g. "words". */
  readonly unit: string;
  cost(samples: readonly RewardSample[]): Float64Array;
}

/**
 * A trivially learnable synthetic reward for tests and the `nano` model: the share of completion tokens equal
 * to `token` (0 for an empty completion), in [0, 1].
 */
export function tokenShareReward(token: number): RewardSource {
  return {
    name: `share-of-token-${token}`,
    score: (samples) =>
      Float64Array.from(samples, (s) =>
        s.completion.length ? s.completion.filter((t) => t === token).length / s.completion.length : 0,
      ),
  };
}
