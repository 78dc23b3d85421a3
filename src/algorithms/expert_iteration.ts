/**
 * Expert iteration / rejection-sampling fine-tuning (AlpacaFarm's reference method, Dubois et al. 2023; RFT,
 * Yuan et al. 2023): each round samples k completions per prompt, keeps the best one (or all with a score
 * ≥ threshold), and fine-tunes on the kept completions with the token cross-entropy on completion tokens only
 * (the SFT loss at τ: dL/dlog π = −1/n on each of the n kept tokens, ρ ≡ 1).
 * Logs that loss as `loss` (TRL's SFTTrainer's name): −(1/n) Σ log π_θ(y_t) over the kept tokens, at the last
 * fine-tuning step of the round, before its update (nats/token). Not `loss/policy_avg`: with ρ ≡ 1 and A = 1
 * the policy-gradient surrogate is −1 at every step.
 * Spec: ../shared/docs/algorithms.md "Expert iteration / rejection-sampling fine-tuning".
 */
import { COMMON_FIELDS, type Field } from "./fields";
import { bestOfNSelect } from "./math/best_of_n";
import type { TokenShape } from "./math/masked";
import { type PgConfig, SequencePgRun } from "./pg_run";
import type { Rollout } from "./rollout";
import { checkFinite, type RunEnv, type StepResult } from "./run";

export const EXPERT_ITERATION_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "k",
    label: "k",
    fixed: "shape",
    kind: "int",
    default: 4,
    min: 1,
    max: 64,
    doc: "Completions sampled per prompt each round.",
    source: "Dubois et al. 2023 (expert iteration)",
  },
  {
    key: "keep",
    label: "keep",
    kind: "enum",
    default: "best",
    options: ["best", "threshold"],
    doc: "Keep each prompt's best completion, or every completion scoring at least the threshold.",
    source: "Yuan et al. 2023 (RFT)",
  },
  {
    key: "threshold",
    label: "threshold",
    kind: "number",
    default: 0.5,
    min: -1e6,
    max: 1e6,
    doc: "Minimum score kept when keep = threshold.",
    source: "implementation",
    usedWhen: { key: "keep", values: ["threshold"] },
  },
  {
    key: "sftSteps",
    label: "SFT steps",
    kind: "int",
    default: 1,
    min: 1,
    max: 32,
    doc: "Fine-tuning steps on the kept completions per round.",
    source: "implementation",
  },
];

/** Expert-iteration settings, validated against {@link EXPERT_ITERATION_FIELDS}; others: {@link PgConfig}. */
export interface ExpertIterationConfig extends PgConfig {
  /** k: completions per prompt a round, an integer in [1, 64]; default 4; fixed (Dubois et al. 2023). */
  k: number;
  /** Keep each prompt's "best" completion (default) or all scoring ≥ threshold (Yuan et al. 2023, RFT). */
  keep: "best" | "threshold";
  /** Minimum score kept when keep = "threshold", in the reward's unit, in [−1e6, 1e6]; default 0.5. */
  threshold: number;
  /** Fine-tuning steps on the kept completions per round, an integer in [1, 32]; default 1. */
  sftSteps: number;
}

/** Which completions a round keeps: [B] of 0/1 (B = prompts·k, laid out prompt by prompt). */
export function keptCompletions(
  scores: ArrayLike<number>,
  k: number,
  keep: "best" | "threshold",
  threshold: number,
): Uint8Array {
  const kept = new Uint8Array(scores.length);
  if (keep === "threshold") for (let i = 0; i < scores.length; i++) kept[i] = scores[i] >= threshold ? 1 : 0;
  else for (const i of bestOfNSelect(scores, k)) kept[i] = 1;
  return kept;
}

/**
 * What the shared policy-gradient step logs that is constant here (ρ ≡ 1, A = 1 on the kept tokens, no KL
 * penalty): the surrogate −1, no ratio moved or clipped, β = 0. Left out so no chart shows a flat line as data.
 */
const CONSTANT_METRICS = [
  "loss/policy_avg",
  "policy/approxkl_avg",
  "policy/clipfrac_avg",
  "val/ratio",
  "clip_ratio/low_mean",
  "clip_ratio/high_mean",
  "clip_ratio/region_mean",
  "kl_coef",
] as const;

/**
 * Expert iteration: SFT-style updates (ρ ≡ 1) on each round's kept completions; a {@link SequencePgRun} (owns
 * and frees its engine and updater). RangeError on an invalid config; step() NonFiniteMetricError.
 */
export class ExpertIterationRun extends SequencePgRun<ExpertIterationConfig> {
  readonly algo = "expert_iteration";
  private kept: Uint8Array = new Uint8Array(0);

  constructor(env: RunEnv, config: Partial<ExpertIterationConfig> = {}) {
    super(env, EXPERT_ITERATION_FIELDS, "expert_iteration", config);
  }

  override async step(): Promise<StepResult> {
    const res = await super.step();
    for (const k of CONSTANT_METRICS) delete res.metrics[k];
    const { logpTheta, rollout } = res;
    if (logpTheta && rollout) {
      const { completionMask: mask, S } = rollout.seq;
      let sum = 0;
      let n = 0;
      for (let i = 0; i < logpTheta.length; i++)
        if (mask[i] && this.kept[Math.floor(i / S)]) {
          sum -= logpTheta[i];
          n++;
        }
      if (n) res.metrics.loss = sum / n;
      checkFinite(res.metrics, res.step);
    }
    return res;
  }

  protected groupSize(c: ExpertIterationConfig): number {
    return c.k;
  }

  protected advantages(r: Rollout, _shape: TokenShape, c: ExpertIterationConfig) {
    this.kept = keptCompletions(r.reward, c.k, c.keep, c.threshold);
    const n = this.kept.reduce((a, v) => a + v, 0);
    let keptReward = 0;
    for (let i = 0; i < this.kept.length; i++) if (this.kept[i]) keptReward += r.reward[i];
    return {
      advantages: Float64Array.from(this.kept),
      // No completion kept: no kept reward to report (0 would be a real reward on the chart).
      metrics: {
        "ei/kept_fraction": n / this.kept.length,
        ...(n > 0 && { "ei/kept_reward": keptReward / n }),
      },
    };
  }

  protected weights(shape: TokenShape): Float64Array {
    const w = new Float64Array(shape.B * shape.T);
    let n = 0;
    for (let i = 0; i < w.length; i++) if (shape.mask[i] && this.kept[Math.floor(i / shape.T)]) n++;
    for (let i = 0; i < w.length; i++) if (shape.mask[i] && this.kept[Math.floor(i / shape.T)]) w[i] = 1 / n;
    return w;
  }

  protected clip(c: ExpertIterationConfig) {
    return { beta: 0, epsilon: 0.2, epsilonHigh: 0.2, iterations: c.sftSteps, klCoef: 0, onPolicy: true };
  }
}
