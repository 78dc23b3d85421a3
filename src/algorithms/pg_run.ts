/**
 * The loop shared by the sequence-level policy-gradient algorithms (GRPO, RLOO, REINFORCE): sample G
 * completions per prompt, score them, turn scores into one advantage per completion (the algorithm's rule),
 * spread it over the completion's tokens with the algorithm's aggregation weights, and take μ clipped-surrogate
 * updates on the GPU (ρ = 1 on the first, so the clipped surrogate is plain REINFORCE there).
 */

import type { AdamW } from "../model/optimizer";
import { type ConfigValues, type Field, patchConfig, validateConfig } from "./fields";
import { distinctFraction } from "./math/diversity";
import type { TokenShape } from "./math/masked";
import { type Rollout, RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  checkFinite,
  completionBudget,
  type Metrics,
  type RunEnv,
  reportUpdate,
  resumeStep,
  rolloutMetrics,
  rolloutOptions,
  type StepResult,
  stepThroughput,
} from "./run";
import { toCompletionMasked, toFull } from "./sequences";
import { PolicyUpdater } from "./update";

/** Settings every sequence-level run has (besides COMMON_FIELDS). */
export interface PgConfig extends ConfigValues {
  /** AdamW learning rate, in [0, 1] (log scale); default 1e-4 (Loshchilov & Hutter 2019). */
  lr: number;
  /**
   * Prompts sampled per step, an integer in [1, 256]; each gets G completions (the group size), so a step's
   * batch has batchPrompts·G sequences: that product is the B of the rollout (seq.B) and of math/grpo.ts.
   * Algorithm default 8 (the field table's, used by the CLI and the TRL mapping); the lab's starting
   * experiment runs GRPO at 4 prompts × G = 8 (src/lab/defaults.ts). Fixed once a run starts (buffer shape).
   */
  batchPrompts: number;
  /** Completion limit in tokens, an integer in [1, 256] (capped at context − prompt); default 24; fixed. */
  maxNewTokens: number;
  /** τ: sampling temperature, in [0.05, 5]; default 1. Log-probs, KL and entropy use logits/τ. */
  temperature: number;
  /** Sample among the k most likely tokens, an integer in [0, 1024]; default 0 (all). */
  topK: number;
  /** Global gradient-norm clip ‖g‖, in [0, 100]; default 1; 0 = off (Pascanu et al. 2013). */
  maxGradNorm: number;
  /** AdamW decoupled weight decay, in [0, 1]; default 0 (Loshchilov & Hutter 2019). */
  weightDecay: number;
}

/** An algorithm's advantages [B] for a rollout, the metrics that go with them and the scores they came from. */
export interface AdvantageResult {
  advantages: ArrayLike<number>;
  metrics: Metrics;
  scores?: ArrayLike<number>;
  /**
   * Completions generated besides the rollout's, and their tokens (ReMax's greedy answers): added to the step's
   * `samples` and `tokens`, the Samples and Tokens axes, which count every completion a step generates.
   */
  generated?: { samples: number; tokens: number };
}

/**
 * Base of GRPO, RLOO, REINFORCE and expert iteration: owns a RolloutEngine of batchPrompts·groupSize rows and
 * a PolicyUpdater (with its AdamW) training env.policy in place; destroy() frees both, not env's models.
 * Throws RangeError on an invalid config and (setConfig) on β > 0 without a reference; step()
 * NonFiniteMetricError.
 */
export abstract class SequencePgRun<C extends PgConfig> implements AlgorithmRun {
  abstract readonly algo: string;
  config: C;
  protected readonly engine: RolloutEngine;
  protected readonly updater: PolicyUpdater;
  protected steps = 0;

  constructor(
    protected readonly env: RunEnv,
    readonly fields: readonly Field[],
    name: string,
    config: Partial<C>,
  ) {
    this.config = validateConfig<C>(name, fields, config);
    const B = this.config.batchPrompts * this.groupSize(this.config);
    this.engine = new RolloutEngine(
      env.ctx,
      env.policy,
      env.ref,
      B,
      env.prompts.maxLength,
      completionBudget(env, this.config.maxNewTokens),
    );
    this.updater = new PolicyUpdater(env.ctx, this.engine);
  }

  get stepsDone(): number {
    return this.steps;
  }

  resumeAt(steps: number): void {
    this.steps = resumeStep(steps);
  }

  get optimizer(): AdamW {
    return this.updater.opt;
  }

  /** Completions per prompt. */
  protected abstract groupSize(c: C): number;
  /**
   * One advantage per completion [B] and the metrics that go with it; `scores` [B]: the scores the advantages
   * came from, when they are not the rollout's rewards as they are (StepResult.scores).
   */
  protected abstract advantages(
    r: Rollout,
    shape: TokenShape,
    c: C,
  ): AdvantageResult | Promise<AdvantageResult>;
  /** Aggregation weights [B·S] (loss = Σ w·ℓ). */
  protected abstract weights(shape: TokenShape, c: C): Float64Array;
  /** β on k3 inside the loss (GRPO), else 0; ε, ε_high and μ. */
  protected abstract clip(c: C): {
    beta: number;
    epsilon: number;
    epsilonHigh: number;
    iterations: number;
    klCoef: number;
    /** ρ ≡ 1 on every update (SFT-style updates: expert iteration). Default false. */
    onPolicy?: boolean;
  };

  setConfig(patch: Record<string, number | string | boolean>): void {
    const next = patchConfig<C>(this.algo, this.fields, this.config, patch);
    if (this.clip(next).beta > 0 && !this.env.ref)
      throw new RangeError(`${this.algo}: β > 0 needs a reference model`);
    this.config = next;
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = this.steps + 1;
    const G = this.groupSize(c);
    const prompts = env.prompts
      .batch(step - 1, c.batchPrompts)
      .flatMap((p) => Array.from({ length: G }, () => p));
    const r = await this.engine.collect(prompts, rolloutOptions(env, c, step));
    const { seq } = r;
    // B = batchPrompts·G sequences, T = the completion width S (completion layout; docs/notation.md).
    const shape = { B: seq.B, T: seq.S, mask: seq.completionMask };
    const adv = await this.advantages(r, shape, c);
    // Counted once every score it needs is in (ReMax scores its greedy answers in advantages): a step whose
    // reward failed can be tried again as it was.
    this.steps = step;
    const perToken = new Float64Array(seq.B * seq.S);
    for (let i = 0; i < perToken.length; i++)
      if (seq.completionMask[i]) perToken[i] = adv.advantages[Math.floor(i / seq.S)];
    const weights = r.tokens ? this.weights(shape, c) : new Float64Array(perToken.length);
    this.updater.setBatch(seq, { advantages: toFull(perToken, seq), weights: toFull(weights, seq) });
    const metrics: Metrics = { ...rolloutMetrics(r), ...adv.metrics };
    if (G > 1) metrics["completions/distinct_frac"] = distinctFraction(r.completions, G);
    const k = this.clip(c);
    let logpTheta: Float64Array | undefined;
    if (r.tokens > 0)
      for (let it = 0; it < k.iterations; it++) {
        const last = it === k.iterations - 1;
        reportUpdate(env, it, k.iterations);
        const u = await this.updater.step({ ...c, ...k, tau: c.temperature, readLogp: last });
        if (last) {
          if (u.logp) logpTheta = toCompletionMasked(u.logp, seq);
          metrics["loss/policy_avg"] = u.policy.loss;
          for (const [name, v] of Object.entries(u.policy.metrics)) if (v !== null) metrics[name] = v;
          metrics.grad_norm = u.gradNorm;
        }
      }
    Object.assign(metrics, {
      learning_rate: c.lr,
      kl_coef: k.klCoef,
      ...stepThroughput(t0, r.tokens + (adv.generated?.tokens ?? 0), seq.B + (adv.generated?.samples ?? 0)),
    });
    checkFinite(metrics, step);
    return {
      step,
      metrics,
      rollout: r,
      advantages: perToken,
      logpTheta,
      clip: { epsLow: k.epsilon, epsHigh: k.epsilonHigh },
      scores: Float64Array.from(adv.scores ?? r.reward),
    };
  }

  destroy(): void {
    this.updater.destroy();
    this.engine.destroy();
  }
}
