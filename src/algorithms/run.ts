/**
 * What every algorithm run shares: its environment (models, prompts, reward sources, special tokens, seed),
 * the step result shape, fair prompt order, rollout metrics with TRL's names, and the non-finite check.
 */
import type { GpuContext } from "../gpu/context";
import type { AdamW, AdamWState } from "../model/optimizer";
import type { GptWeights } from "../model/weights";
import { Rng } from "../util/rng";
import type { DpoOptions, PreferenceLogps } from "./math/dpo";
import { klPerToken, sequenceKl } from "./math/kl";
import type { TokenShape } from "./math/masked";
import { std } from "./math/numerics";
import type { PreferencePair } from "./pairs";
import type { CostSource, RewardSource } from "./reward";
import type { Rollout, RolloutOptions } from "./rollout";

/** Prompts in a fixed order per seed: runs with the same seed see the same prompts in the same order. */
export interface PromptSource {
  /** P: the longest prompt (tokens). */
  readonly maxLength: number;
  /** The n prompts of step `step` (0-based), deterministic in (seed, step). */
  batch(step: number, n: number): number[][];
}

/**
 * A PromptSource over a fixed list, reshuffled each epoch with a seeded RNG (Fisher–Yates); batches are taken in
 * order from the concatenated epochs, so `batch(step, n)` assumes the same n at every step.
 * @throws RangeError if `prompts` is empty.
 */
export function shuffledPrompts(prompts: readonly (readonly number[])[], seed: number): PromptSource {
  if (!prompts.length) throw new RangeError("no prompts");
  const maxLength = Math.max(...prompts.map((p) => p.length));
  const order: number[] = [];
  const rng = new Rng(seed ^ 0x5f3759df);
  const extend = () => {
    const idx = prompts.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    order.push(...idx);
  };
  return {
    maxLength,
    batch(step, n) {
      while (order.length < (step + 1) * n) extend();
      return order.slice(step * n, (step + 1) * n).map((i) => [...prompts[i]]);
    },
  };
}

/**
 * Where a step is, for a progress display: "sampling" token `done` of `total` (the device finished them),
 * "scoring" (reward and gold scores, the policy's and reference's forward passes: `total` 0, no count),
 * "baseline" (ReMax's greedy answers: token `done` of `total`, then their scores), or "update" `done` of `total` optimiser steps (μ iterations, PPO's epochs × minibatches; 1 for one update).
 */
export interface StepProgress {
  /** "baseline": ReMax's greedy rollout (REINFORCE with baseline greedy), after the sampled one is scored. */
  stage: "sampling" | "scoring" | "baseline" | "update";
  done: number;
  total: number;
}

/**
 * What a run borrows: the device, the policy it trains in place, the reference, prompts, reward sources,
 * special tokens and seed; built by buildEnv (src/lab/environment.ts). A run destroys none of it: LabRun
 * destroys the policy, LabRuns the shared reference.
 */
export interface RunEnv {
  ctx: GpuContext;
  /** The policy being trained (a copy of the start model). */
  policy: GptWeights;
  /** The frozen reference (the start model); null when no loss or metric needs it. */
  ref: GptWeights | null;
  prompts: PromptSource;
  reward: RewardSource;
  gold: RewardSource;
  /** The task's known costs by key (Safe RLHF's `cost` setting other than "length"); none when absent. */
  costs?: Readonly<Record<string, CostSource>>;
  eosId: number;
  padId: number;
  seed: number;
  /** Told where each step is (sampling, scoring, update); a progress display, nothing depends on it. */
  progress?: (p: StepProgress) => void;
}

/** Tell env.progress that update `done` of `total` (optimiser steps in this training step) starts. */
export function reportUpdate(env: RunEnv, done: number, total: number): void {
  env.progress?.({ stage: "update", done, total });
}

export type Metrics = Record<string, number>;

/**
 * What one AlgorithmRun.step() returns: its number, its metrics by TRL's names, the rollout it trained on
 * and, per algorithm, what the inspectors show. Host memory only; nothing to destroy.
 */
export interface StepResult {
  /** 1-based step number. */
  step: number;
  metrics: Metrics;
  /** The batch this step trained on (samples panel), when the algorithm samples. */
  rollout: Rollout | null;
  /**
   * The rollout rows the samples panel shows, in order: best-of-n's picked completion of each prompt (its other
   * n − 1 samples are not its output). Absent: the rollout's first rows.
   */
  shownRows?: readonly number[];
  /** Per completion token [B·S] (completion layout, 0 on masked slots): the advantage the update used, when
   * the algorithm has one per token (PPO, GRPO, RLOO, REINFORCE); absent otherwise (DPO, best-of-n). */
  advantages?: Float64Array;
  /**
   * Per completion token [B·S] (completion layout, 0 on masked slots): log π_θ(y_t) at τ from the forward pass
   * of the last update that trained on the token (PPO: the last epoch; GRPO/RLOO/REINFORCE: the μ-th update),
   * so ρ_t = exp(logpTheta − rollout.logpOld) is the ratio that update's clipped surrogate saw. Absent when the
   * algorithm has no ratio (DPO, best-of-n, …). Inspectors only.
   */
  logpTheta?: Float64Array;
  /** The clip range (ε_low, ε_high) of the updates that produced {@link logpTheta}. */
  clip?: { epsLow: number; epsHigh: number };
  /**
   * PPO: how {@link advantages} were made (../shared/docs/algorithms.md "PPO for language models", steps 2–3), per
   * completion token [B·S] (completion layout, 0 on masked slots): the per-token rewards r_t = −β·k_t
   * (+ R on the last token), the values V_t at rollout, the TD errors δ_t, the GAE advantages A_t before
   * whitening and the returns G_t = A_t + V_t (the value loss's target); the step's β, γ, λ, and the whitening's mean μ and divisor sqrt(σ² + 1e-8) (null: advantages
   * not whitened, Â = A). Inspectors only.
   */
  gae?: {
    rewards: Float64Array;
    values: Float64Array;
    deltas: Float64Array;
    advantages: Float64Array;
    returns: Float64Array;
    beta: number;
    gamma: number;
    lam: number;
    whiten: { mean: number; scale: number } | null;
  };
  /**
   * [B] the per-completion scores the advantages were computed from (GRPO: R; RLOO: R − β·Σ_t k1_t; Safe RLHF:
   * R − λ·c), when the algorithm scores whole completions. Inspectors only.
   */
  scores?: Float64Array;
  /**
   * DPO: the step's preference pairs (as laid out, completions truncated to S), the sequence log-probs its
   * loss used (policy from the GPU forward before the update; reference as uploaded), the loss options, and
   * which labels the simulated annotator flipped (the gold scorer prefers the rejected one). Inspectors only.
   */
  preferences?: {
    pairs: PreferencePair[];
    logps: PreferenceLogps;
    options: Required<DpoOptions>;
    flipped: boolean[];
  };
}

/** One run of one algorithm. Changing settings between steps takes effect at the next step. */
export interface AlgorithmRun {
  readonly algo: string;
  readonly config: Record<string, number | string | boolean>;
  step(): Promise<StepResult>;
  /** Validate and apply new settings (from the next step on). @throws RangeError naming the bad field. */
  setConfig(patch: Record<string, number | string | boolean>): void;
  /** Steps done so far (the next step is stepsDone + 1). */
  readonly stepsDone: number;
  /** The run's AdamW (its moments travel with forks and checkpoints); null when the run does not train. */
  readonly optimizer: AdamW | null;
  /**
   * Continue numbering after `steps` steps: prompt order and sampler seeds follow the step number, so a fork
   * or a run resumed from a checkpoint picks up where its source was. Weights and optimizer state are set
   * separately (env.policy, {@link optimizer}), other run-local state by {@link setRunState}.
   */
  resumeAt(steps: number): void;
  /**
   * Optional, for forks: copy trained state other than the policy and its optimizer from `source` (a run of the
   * same algorithm on the same device), e.g. PPO's separate value model. Without it such state restarts.
   */
  copyExtraFrom?(source: AlgorithmRun): void;
  /**
   * Optional: scalar state the run carries from step to step besides weights and optimizer (Safe RLHF's λ, PPO's adaptive β,
   * REINFORCE's moving baseline), so
   * that forks, checkpoints and a reload continue it instead of restarting it. Plain finite numbers by name.
   */
  runState?(): Record<string, number>;
  /** Put back what {@link runState} returned (between steps). @throws RangeError on a missing or bad value. */
  setRunState?(state: Record<string, number>): void;
  /**
   * Optional: trained models besides the policy (PPO's separate value model, "value_model"), by name, with their
   * AdamW state, so that checkpoints, a reload and an export keep them instead of restarting them from the start
   * model. Between steps. `optimizer` false: weights only (optimizer null), for a safetensors file.
   */
  exportExtra?(optimizer?: boolean): Promise<Record<string, ExtraWeights>>;
  /**
   * Put back what {@link exportExtra} returned (between steps); an optimizer of null restarts that model's
   * AdamW (a safetensors file holds weights only). Names the run does not have are ignored.
   * @throws RangeError when the weights or the optimizer state do not fit the model.
   */
  importExtra?(extra: Record<string, ExtraWeights>): void;
  destroy(): void;
}

/** A model trained besides the policy (AlgorithmRun.exportExtra): flat weights and its AdamW state. */
export interface ExtraWeights {
  params: Float32Array;
  /** null: restart its AdamW (e.g. loaded from a safetensors file, which holds no moments). */
  optimizer: AdamWState | null;
}

/** A metric was NaN or ±∞: the run stops with the metric and the step named. */
export class NonFiniteMetricError extends Error {
  override readonly name = "NonFiniteMetricError";
  constructor(
    readonly metric: string,
    readonly step: number,
    readonly value: number,
  ) {
    super(`${metric} became ${value} at step ${step}; the run was stopped`);
  }
}

/**
 * The throughput metrics every step reports: step_time (s), tokens/s (completion tokens sampled per second of
 * the whole step), samples and tokens (this step's completions and completion tokens). `t0`: performance.now()
 * at the step's start.
 */
export function stepThroughput(t0: number, tokens: number, samples: number): Metrics {
  const ms = performance.now() - t0;
  const seconds = ms / 1000;
  // step_time to 0.1 ms (what a clock difference like 29475.90000000596 ms means), so exports read 29.4759.
  return { step_time: Math.round(ms * 10) / 1e4, "tokens/s": tokens / seconds, samples, tokens };
}

/** @throws NonFiniteMetricError for the first non-finite metric. */
export function checkFinite(metrics: Metrics, step: number): void {
  for (const [k, v] of Object.entries(metrics))
    if (!Number.isFinite(v)) throw new NonFiniteMetricError(k, step, v);
}

/**
 * @throws NonFiniteMetricError naming `what` (a quantity in the lab's words: "the value head's estimates") when
 * an entry of the per-token `x` is NaN or ±∞ on a counted token (`mask` 1): the run stops as on a non-finite
 * metric, before a loss turns it into an error about array slots.
 */
export function checkFiniteTokens(
  what: string,
  x: ArrayLike<number>,
  mask: ArrayLike<number>,
  step: number,
): void {
  for (let i = 0; i < mask.length; i++)
    if (mask[i] === 1 && !Number.isFinite(x[i])) throw new NonFiniteMetricError(what, step, x[i]);
}

/** The sampler seed of a step: distinct per (run seed, step), the same for runs with the same seed. */
export function stepSeed(seed: number, step: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(step + 1, 0xc2b2ae35)) >>> 0;
}

/**
 * The sampler settings of step `step` of a run: the run's temperature τ and top-k, the step's seed
 * ({@link stepSeed}), the task's EOS/pad ids, the run's reward source and the gold scorer, and the run's
 * missing-EOS penalty (0 when it has none).
 */
export function rolloutOptions(
  env: RunEnv,
  c: { temperature: number; topK: number; missingEosPenalty?: number },
  step: number,
): RolloutOptions {
  return {
    temperature: c.temperature,
    topK: c.topK,
    missingEosPenalty: c.missingEosPenalty ?? 0,
    seed: stepSeed(env.seed, step),
    eosId: env.eosId,
    padId: env.padId,
    reward: env.reward,
    gold: env.gold,
    progress: env.progress,
  };
}

/**
 * Metrics of a rollout, TRL names: reward (the run's source), reward_gold, reward_std (sample std, divisor n − 1;
 * 0 for one completion), sequence KL estimators
 * (batch means of per-sequence sums), entropy (mean over completion tokens, nats), completion lengths and
 * completions/clipped_ratio (share of completions cut by the length limit without EOS, in [0, 1]; TRL's name).
 */
export function rolloutMetrics(r: Rollout): Metrics {
  const { B, S, completionMask } = r.seq;
  const shape: TokenShape = { B, T: S, mask: completionMask };
  const mean = (x: ArrayLike<number>) => Array.from(x).reduce((a, v) => a + v, 0) / x.length;
  const seqMean = (perToken: ArrayLike<number>) => mean(sequenceKl(perToken, shape));
  const lengths = Array.from(r.seq.lengths);
  const n = r.tokens;
  let entropy = 0;
  for (let i = 0; i < completionMask.length; i++) if (completionMask[i]) entropy += r.entropy[i];
  return {
    reward: mean(r.reward),
    reward_gold: mean(r.gold),
    // The sample std (n − 1), as TRL's trainers log it (torch.std / nanstd).
    reward_std: std(r.reward, true),
    "objective/kl": seqMean(klPerToken(r.logpOld, r.logpRef, shape, "k1")),
    "objective/kl_k2": seqMean(klPerToken(r.logpOld, r.logpRef, shape, "k2")),
    "objective/kl_k3": seqMean(klPerToken(r.logpOld, r.logpRef, shape, "k3")),
    "objective/kl_exact": seqMean(r.klExact),
    entropy: n ? entropy / n : 0,
    "completions/mean_length": mean(lengths),
    "completions/min_length": Math.min(...lengths),
    "completions/max_length": Math.max(...lengths),
    "completions/clipped_ratio": r.ended.filter((e) => !e).length / r.ended.length,
  };
}

/**
 * Completion length S a run samples: the requested `maxNewTokens`, capped so that prompt + completion fits the
 * model's context (`contextLength − P`, P = the longest prompt). The arithmetic model's context is 16 tokens,
 * so a lab-wide 48 becomes 9 there instead of an error.
 * @throws RangeError when the prompts alone fill the context (no room for one token).
 */
export function completionBudget(env: RunEnv, requested: number, P = env.prompts.maxLength): number {
  const room = env.policy.config.contextLength - P;
  if (room < 1)
    throw new RangeError(
      `prompts of ${P} tokens leave no room for a completion in the model's context length ${env.policy.config.contextLength}`,
    );
  return Math.min(requested, room);
}

/**
 * A step count to resume at (AlgorithmRun.resumeAt), checked.
 * @throws RangeError when it is not a non-negative integer.
 */
export function resumeStep(steps: number): number {
  if (!Number.isInteger(steps) || steps < 0) throw new RangeError(`resumeAt(${steps}): not a step count`);
  return steps;
}
