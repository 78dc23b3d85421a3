/**
 * REINFORCE with a baseline (Williams 1992; spec "RLOO and REINFORCE"): A_i = R_i − b, loss −A_i Σ_t log π_θ(y_t).
 * b is an exponential moving average of earlier batches' mean score (bias-corrected), or with baseline "greedy"
 * the score of the policy's greedy completion of the same prompt (ReMax, Li et al. 2023: one more rollout, at
 * argmax, per step). One completion per prompt; an optional KL penalty in the score as RLOO's.
 */
import { COMMON_FIELDS, type Field, MISSING_EOS_PENALTY_FIELD } from "./fields";
import type { TokenShape } from "./math/masked";
import {
  type MovingAverageBaseline,
  movingAverageBaseline,
  reinforceAdvantages,
  remaxAdvantages,
} from "./math/reinforce";
import { rlooScores } from "./math/rloo";
import { type PgConfig, SequencePgRun } from "./pg_run";
import { missingEosPenalised, type Rollout } from "./rollout";
import type { AlgorithmRun, RunEnv } from "./run";
import { perSequenceSumWeights } from "./seq_weights";

export const REINFORCE_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "baselineDecay",
    label: "α",
    kind: "number",
    default: 0.9,
    min: 0,
    max: 0.999,
    doc: "Weight of the past in the moving-average baseline (0.9 ≈ the last 10 batches).",
    source: "Williams 1992 (baseline); implementation",
    usedWhen: { key: "baseline", values: ["moving_average"] },
  },
  {
    key: "baseline",
    label: "baseline",
    kind: "enum",
    default: "moving_average",
    options: ["moving_average", "greedy"],
    doc: "What each score is compared with: a moving average of earlier batches' mean score, or the score of the policy's own greedy (argmax) answer to the same prompt (ReMax: one more rollout per step, a baseline for each prompt).",
    source: "Williams 1992 (baseline); Li et al. 2023 (ReMax)",
  },
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0,
    min: 0,
    max: 10,
    doc: "KL penalty subtracted from each completion's score (k1 summed over its tokens).",
    source: "Ziegler et al. 2019",
  },
  MISSING_EOS_PENALTY_FIELD,
];

/** REINFORCE / ReMax settings, validated against {@link REINFORCE_FIELDS}; others: {@link PgConfig}. */
export interface ReinforceConfig extends PgConfig {
  /**
   * Reward subtracted from a completion cut without EOS, in [0, 5]; default 0 (off); ReMax's greedy answers
   * pay it too. TRL: PPOConfig's missing_eos_penalty.
   */
  missingEosPenalty: number;
  /** α: weight of the past in the moving-average baseline, in [0, 0.999]; default 0.9 (Williams 1992). */
  baselineDecay: number;
  /**
   * b: "moving_average" of earlier batches' mean score (default; Williams 1992) or "greedy", the score of the
   * policy's argmax answer to the same prompt (ReMax, Li et al. 2023: one more rollout per step).
   */
  baseline: "moving_average" | "greedy";
  /** β: KL penalty (k1 summed over tokens) on each score, in [0, 10]; default 0 (Ziegler et al. 2019). */
  beta: number;
}

/**
 * REINFORCE with a moving-average or ReMax greedy baseline; a {@link SequencePgRun} (owns and frees its
 * engine and updater) whose baseline is run state. RangeError on an invalid config or a bad state
 * (setRunState).
 */
export class ReinforceRun extends SequencePgRun<ReinforceConfig> {
  readonly algo = "reinforce";
  private baseline: MovingAverageBaseline;

  constructor(env: RunEnv, config: Partial<ReinforceConfig> = {}) {
    super(env, REINFORCE_FIELDS, "reinforce", config);
    this.baseline = movingAverageBaseline(this.config.baselineDecay);
  }

  protected groupSize(): number {
    return 1;
  }

  /** A fork: continue from the source's moving-average baseline, so that with the same settings it trains as the source does. */
  copyExtraFrom(source: AlgorithmRun): void {
    if (source instanceof ReinforceRun && source.config.baselineDecay === this.config.baselineDecay)
      this.baseline = source.baseline;
  }

  /**
   * The moving-average baseline is run state: a checkpoint and a reload continue it (raw EMA m, its weight w and
   * batches seen k) instead of restarting at b = 0, where the next batch's advantages would be its raw scores. Its decay is a
   * setting.
   */
  runState(): Record<string, number> {
    const { ema, steps, weight } = this.baseline;
    return {
      baselineEma: ema,
      baselineSteps: steps,
      ...(weight !== undefined && { baselineWeight: weight }),
    };
  }

  /** Put back the baseline runState returned. @throws RangeError on a non-finite m or a k that is no count. */
  setRunState(state: Record<string, number>): void {
    const { baselineEma: ema, baselineSteps: steps } = state;
    if (typeof ema !== "number" || !Number.isFinite(ema))
      throw new RangeError(`REINFORCE state needs a finite baseline EMA, got ${JSON.stringify(ema)}`);
    if (typeof steps !== "number" || !Number.isInteger(steps) || steps < 0)
      throw new RangeError(`REINFORCE state needs a batch count k ≥ 0, got ${JSON.stringify(steps)}`);
    const weight = state.baselineWeight;
    if (weight !== undefined && !(Number.isFinite(weight) && weight >= 0 && weight <= 1))
      throw new RangeError(
        `REINFORCE state needs a baseline weight in [0, 1], got ${JSON.stringify(weight)}`,
      );
    this.baseline = { decay: this.config.baselineDecay, ema, steps, ...(weight !== undefined && { weight }) };
  }

  protected async advantages(r: Rollout, shape: TokenShape, c: ReinforceConfig) {
    const scores =
      r.tokens && c.beta > 0 && this.env.ref
        ? rlooScores(r.reward, r.logpOld, r.logpRef, shape, c.beta)
        : r.reward;
    const greedy = c.baseline === "greedy" ? await this.greedyScores(r) : null;
    // The moving average follows every batch, under ReMax too: switched back, its b is current.
    const out = reinforceAdvantages(scores, { ...this.baseline, decay: c.baselineDecay });
    this.baseline = out.state;
    if (!greedy) return { advantages: out.advantages, metrics: { baseline: out.baseline }, scores };
    // ReMax's b is the greedy answer's score R (no KL term: it is not the sampled answer's), one per prompt.
    const b = greedy.scores.reduce((a, v) => a + v, 0) / greedy.scores.length;
    return {
      advantages: remaxAdvantages(scores, greedy.scores),
      metrics: { baseline: b },
      scores,
      generated: { samples: greedy.scores.length, tokens: greedy.tokens },
    };
  }

  /**
   * The run's reward for the policy's greedy completion of each of the rollout's prompts [B] (ReMax's baseline),
   * sampled at argmax with the rollout's length budget (the same weights: before this step's update), and the
   * completion tokens generated.
   */
  private async greedyScores(r: Rollout): Promise<{ scores: Float64Array; tokens: number }> {
    const { env, engine } = this;
    const S = engine.S;
    env.progress?.({ stage: "baseline", done: 0, total: S });
    const gen = await engine.generator.generate({
      prompts: r.prompts,
      maxNewTokens: S,
      eosId: env.eosId,
      padId: env.padId,
      greedy: true,
      onTokens: env.progress && ((done, total) => env.progress?.({ stage: "baseline", done, total })),
    });
    // generate tells every 8 tokens, never the last: the count ends full, then the greedy answers are scored.
    env.progress?.({ stage: "baseline", done: S, total: S });
    env.progress?.({ stage: "scoring", done: 0, total: 0 });
    const samples = r.prompts.map((prompt, b) => ({
      prompt,
      completion: Array.from(gen.tokens.subarray(b * S, b * S + gen.lengths[b])),
    }));
    // Scored as the samples are: a greedy answer cut without EOS pays the missing-EOS penalty too.
    const scores = missingEosPenalised(
      await env.reward.score(samples),
      samples.map((x) => x.completion),
      env.eosId,
      this.config.missingEosPenalty ?? 0,
    );
    return { scores, tokens: samples.reduce((a, x) => a + x.completion.length, 0) };
  }

  protected weights(shape: TokenShape): Float64Array {
    return perSequenceSumWeights(shape);
  }

  protected clip(c: ReinforceConfig) {
    return { beta: 0, epsilon: 0.2, epsilonHigh: 0.2, iterations: 1, klCoef: c.beta };
  }
}
