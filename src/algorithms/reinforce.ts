/**
 * REINFORCE with a moving-average baseline (Williams 1992; spec "RLOO and REINFORCE"): A_i = R_i − b, b an
 * exponential moving average of earlier batches' mean score (bias-corrected), loss −A_i Σ_t log π_θ(y_t).
 * One completion per prompt; an optional KL penalty in the score as RLOO's.
 */
import { COMMON_FIELDS, type Field } from "./fields";
import type { TokenShape } from "./math/masked";
import { type MovingAverageBaseline, movingAverageBaseline, reinforceAdvantages } from "./math/reinforce";
import { rlooScores } from "./math/rloo";
import { type PgConfig, SequencePgRun } from "./pg_run";
import type { Rollout } from "./rollout";
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
];

export interface ReinforceConfig extends PgConfig {
  baselineDecay: number;
  beta: number;
}

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

  protected advantages(r: Rollout, shape: TokenShape, c: ReinforceConfig) {
    const scores =
      r.tokens && c.beta > 0 && this.env.ref
        ? rlooScores(r.reward, r.logpOld, r.logpRef, shape, c.beta)
        : r.reward;
    const out = reinforceAdvantages(scores, { ...this.baseline, decay: c.baselineDecay });
    this.baseline = out.state;
    return { advantages: out.advantages, metrics: { baseline: out.baseline } };
  }

  protected weights(shape: TokenShape): Float64Array {
    return perSequenceSumWeights(shape);
  }

  protected clip(c: ReinforceConfig) {
    return { beta: 0, epsilon: 0.2, epsilonHigh: 0.2, iterations: 1, klCoef: c.beta };
  }
}
