/**
 * Best-of-n (Stiennon et al. 2020; Beirami et al. 2024): a non-training baseline. Each step samples n
 * completions per prompt from the (unchanged) start policy, keeps the one the reward source scores highest,
 * and reports its reward, its gold reward, and its KL to the reference: the usual bound log n − (n−1)/n and
 * the estimate from each prompt's sampled scores, averaged over prompts (under k1, k2 and k3; no exact KL). Spec: ../shared/docs/algorithms.md "Best-of-n".
 */
import { COMMON_FIELDS, type ConfigValues, type Field, patchConfig, validateConfig } from "./fields";
import { bestOfNKlBound, bestOfNKlPerPrompt, bestOfNSelect } from "./math/best_of_n";
import { std } from "./math/numerics";
import { RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  checkFinite,
  completionBudget,
  type Metrics,
  type RunEnv,
  resumeStep,
  rolloutOptions,
  type StepResult,
  stepThroughput,
} from "./run";

export const BON_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS.filter((f) => ["batchPrompts", "maxNewTokens", "temperature", "topK"].includes(f.key)),
  {
    key: "n",
    label: "n",
    fixed: "shape",
    kind: "int",
    default: 4,
    min: 1,
    max: 64,
    doc: "Samples per prompt; the best one by the reward source is kept.",
    source: "Stiennon et al. 2020 §4.1",
  },
];

/** Best-of-n settings, validated against {@link BON_FIELDS} (four of COMMON_FIELDS and n). */
export interface BonConfig extends ConfigValues {
  /** P: prompts sampled per step, an integer in [1, 256]; default 8; fixed (buffer shape). */
  batchPrompts: number;
  /** Completion limit in tokens, an integer in [1, 256] (capped at context − prompt); default 24; fixed. */
  maxNewTokens: number;
  /** τ: sampling temperature, in [0.05, 5]; default 1 (spec "Notation"). */
  temperature: number;
  /** Sample among the k most likely tokens, an integer in [0, 1024]; default 0 (all). */
  topK: number;
  /** n: samples per prompt, an integer in [1, 64]; default 4; fixed (Stiennon et al. 2020 §4.1). */
  n: number;
}

/**
 * Best-of-n: n samples per prompt from the unchanged policy, no training (optimizer null). Owns a
 * RolloutEngine of batchPrompts·n rows, freed by destroy(). RangeError on an invalid config; step()
 * NonFiniteMetricError.
 */
export class BestOfNRun implements AlgorithmRun {
  readonly algo = "bon";
  config: BonConfig;
  private readonly engine: RolloutEngine;
  private steps = 0;

  constructor(
    private readonly env: RunEnv,
    config: Partial<BonConfig> = {},
  ) {
    this.config = validateConfig<BonConfig>("bon", BON_FIELDS, config);
    const B = this.config.batchPrompts * this.config.n;
    this.engine = new RolloutEngine(
      env.ctx,
      env.policy,
      null,
      B,
      env.prompts.maxLength,
      completionBudget(env, this.config.maxNewTokens),
    );
  }

  get stepsDone(): number {
    return this.steps;
  }

  resumeAt(steps: number): void {
    this.steps = resumeStep(steps);
  }

  /** Best-of-n does not train. */
  readonly optimizer = null;

  setConfig(patch: Record<string, number | string | boolean>): void {
    const next = patchConfig<BonConfig>("bon", BON_FIELDS, this.config, patch);
    this.config = next;
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = this.steps + 1;
    const prompts = env.prompts
      .batch(step - 1, c.batchPrompts)
      .flatMap((p) => Array.from({ length: c.n }, () => p));
    const r = await this.engine.collect(prompts, rolloutOptions(env, c, step));
    // Counted once its samples are scored: a step whose reward failed can be tried again as it was.
    this.steps = step;
    const best = bestOfNSelect(r.reward, c.n);
    const pick = (x: Float64Array) => Array.from(best, (i) => x[i]);
    const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
    const lengths = Array.from(best, (i) => r.seq.lengths[i]);
    let entropy = 0;
    let count = 0;
    for (const i of best)
      for (let j = 0; j < r.seq.S; j++)
        if (r.seq.completionMask[i * r.seq.S + j]) {
          entropy += r.entropy[i * r.seq.S + j];
          count++;
        }
    const klEstimate = bestOfNKlPerPrompt(r.reward, c.n);
    const metrics: Metrics = {
      reward: mean(pick(r.reward)),
      reward_gold: mean(pick(r.gold)),
      reward_std: std(pick(r.reward), true),
      "reward/all_samples": mean(Array.from(r.reward)),
      // It samples from π_ref: no per-token estimator applies; the k-estimator series carry its estimate (so
      // those charts have it). Not objective/kl_exact: an estimate is not the exact KL (the KL chart says so).
      "objective/kl": klEstimate,
      "objective/kl_k2": klEstimate,
      "objective/kl_k3": klEstimate,
      "objective/kl_bound": bestOfNKlBound(c.n),
      entropy: count ? entropy / count : 0,
      "completions/mean_length": mean(lengths),
      "completions/min_length": Math.min(...lengths),
      "completions/max_length": Math.max(...lengths),
      "completions/clipped_ratio": mean(Array.from(best, (i) => (r.ended[i] ? 0 : 1))),
    };
    Object.assign(metrics, stepThroughput(t0, r.tokens, r.seq.B));
    checkFinite(metrics, step);
    return { step, metrics, rollout: r, shownRows: Array.from(best) };
  }

  destroy(): void {
    this.engine.destroy();
  }
}
