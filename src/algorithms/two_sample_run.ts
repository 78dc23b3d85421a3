/**
 * The loop KTO and ORPO share: each step samples two completions of each of P prompts from the current policy
 * (rows i and i + P of a [2P] rollout: the same prompt twice), lets the algorithm label and score them, and
 * takes one AdamW step on a sequence-level objective (./seq_objective.ts). The subclass supplies the objective
 * in `step`; this class holds the rollout engine, the optimizer, the step counter and the config.
 */

import type { AdamW } from "../model/optimizer";
import { type ConfigValues, type Field, patchConfig, validateConfig } from "./fields";
import { type Rollout, RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  completionBudget,
  type Metrics,
  type RunEnv,
  resumeStep,
  rolloutMetrics,
  rolloutOptions,
  type StepResult,
} from "./run";
import { SequenceObjective } from "./seq_objective";

/**
 * Settings of a two-sample run; `countKey` names the prompts-per-step field (batchPrompts or batchPairs).
 * Ranges and defaults: COMMON_FIELDS (fields.ts), which KTO_FIELDS and ORPO_FIELDS take unchanged for these.
 */
export interface TwoSampleConfig extends ConfigValues {
  /** AdamW learning rate, in [0, 1] (log scale); default 1e-4 (Loshchilov & Hutter 2019). */
  lr: number;
  /** Completion limit in tokens, an integer in [1, 256] (capped at context − prompt); default 24; fixed. */
  maxNewTokens: number;
  /** τ: sampling temperature, in [0.05, 5]; default 1. Log-probs use logits/τ (spec "Notation"). */
  temperature: number;
  /** Sample among the k most likely tokens, an integer in [0, 1024]; default 0 (all). */
  topK: number;
  /** Global gradient-norm clip ‖g‖, in [0, 100]; default 1; 0 = off (Pascanu et al. 2013). */
  maxGradNorm: number;
  /** AdamW decoupled weight decay, in [0, 1]; default 0 (Loshchilov & Hutter 2019). */
  weightDecay: number;
}

/**
 * Base of KTO and ORPO: owns a RolloutEngine of 2P rows and a SequenceObjective (with its AdamW) training
 * env.policy in place; destroy() frees both, not env's models. RangeError on an invalid config.
 */
export abstract class TwoSampleRun<C extends TwoSampleConfig> implements AlgorithmRun {
  abstract readonly algo: string;
  config: C;
  protected readonly engine: RolloutEngine;
  protected readonly objective: SequenceObjective;
  protected steps = 0;

  /**
   * @param countKey the config field that counts prompts per step (P); it and maxNewTokens fix the GPU
   *   buffers, so they cannot change during a run.
   * @throws RangeError on an invalid config (validateConfig).
   */
  constructor(
    protected readonly env: RunEnv,
    private readonly fields: readonly Field[],
    private readonly name: string,
    private readonly countKey: string,
    config: Partial<C>,
  ) {
    this.config = validateConfig<C>(name, fields, config);
    this.engine = new RolloutEngine(
      env.ctx,
      env.policy,
      env.ref,
      2 * this.prompts,
      env.prompts.maxLength,
      completionBudget(env, this.config.maxNewTokens),
    );
    this.objective = new SequenceObjective(env.ctx, this.engine);
  }

  /** Prompts per step (P); the rollout holds 2P rows. */
  protected get prompts(): number {
    return Number(this.config[this.countKey]);
  }

  get stepsDone(): number {
    return this.steps;
  }

  resumeAt(steps: number): void {
    this.steps = resumeStep(steps);
  }

  get optimizer(): AdamW {
    return this.objective.opt;
  }

  setConfig(patch: Record<string, number | string | boolean>): void {
    this.config = patchConfig<C>(this.name, this.fields, this.config, patch);
  }

  /**
   * Start a step: count it and sample two completions of each of its P prompts, scored by the run's reward
   * and the gold scorer. Returns the step number, the rollout, its metrics (rolloutMetrics) and the start time.
   */
  protected async sampleTwo(): Promise<{ step: number; r: Rollout; metrics: Metrics; t0: number }> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = this.steps + 1;
    const prompts = env.prompts.batch(step - 1, this.prompts);
    const r = await this.engine.collect([...prompts, ...prompts], rolloutOptions(env, c, step));
    // Counted once its samples are scored: a step whose reward failed can be tried again as it was.
    this.steps = step;
    return { step, r, metrics: rolloutMetrics(r), t0 };
  }

  abstract step(): Promise<StepResult>;

  destroy(): void {
    this.objective.destroy();
    this.engine.destroy();
  }
}
