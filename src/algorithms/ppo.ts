/**
 * PPO for language models (Ouyang et al. 2022; Ziegler et al. 2019; Huang et al. 2024, "The N+ implementation
 * details of RLHF with PPO"): per-token reward r_t = −β·k_t + [t = |y|]·R (k1 default, k3 option), GAE with
 * γ/λ, whitened advantages, clipped surrogate, clipped value loss, optional adaptive KL controller, entropy
 * bonus, PPO epochs × minibatches.
 * Value model, setting `valueModel`:
 * - "shared" (default): a scalar value head on the policy's own transformer, trained with the policy on
 *   L_pg + c_v·L_v (one model to train and hold, as many compact PPO implementations do; the value gradient
 *   also shapes the policy's trunk).
 * - "separate": a second transformer of the same config, initialised from the start model (./value_model.ts),
 *   with its own AdamW (same lr, clip and weight decay), trained only on c_v·L_v each minibatch alongside the
 *   policy's step, which then has no value term. As in InstructGPT (Ouyang et al. 2022, value model initialised
 *   from the reward model), Huang et al. 2024 and TRL's PPOTrainer (`value_model`); twice the weights and
 *   training compute. V_old comes from its forward pass on the rollout. A fork copies it with its AdamW state
 *   (copyExtraFrom), a CPU checkpoint (lost device) holds both, and a run's safetensors hold its weights as
 *   "value_model.*" tensors (exportExtra), so a reload or an import continues it (its AdamW comes back with a
 *   reload's checkpoint and restarts after an import, as the policy's does). A file without them leaves the
 *   run's value model as it is.
 * Spec: ../shared/docs/algorithms.md "PPO for language models".
 */

import type { AdamW } from "../model/optimizer";
import type { GptWeights } from "../model/weights";
import { Rng } from "../util/rng";
import { type ConfigValues, patchConfig, validateConfig } from "./fields";
import { explainedVariance, gae, klPenalizedRewards, maskedWhiten, whitenMoments } from "./math/gae";
import { controllerBeta, PPO_FIELDS, ppoConfigProblem } from "./ppo_fields";
import { RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  checkFinite,
  checkFiniteTokens,
  completionBudget,
  type ExtraWeights,
  type Metrics,
  type RunEnv,
  reportUpdate,
  resumeStep,
  rolloutMetrics,
  rolloutOptions,
  type StepResult,
  stepSeed,
  stepThroughput,
} from "./run";
import { toCompletionMasked, toFull } from "./sequences";
import { PolicyUpdater } from "./update";
import { ValueModel } from "./value_model";

export { PPO_FIELDS };

/** The separate value model's name among a run's extra models (its safetensors tensors: "value_model.*"). */
const VALUE_MODEL = "value_model";
/** β's allowed range (its field's min and max). */
const BETA_RANGE = PPO_FIELDS.find((f) => f.key === "beta") as { min: number; max: number };

/**
 * PPO settings (Schulman et al. 2017; for language models Ziegler et al. 2019, Ouyang et al. 2022, Huang et al.
 * 2024), validated against {@link PPO_FIELDS}; together, {@link ppoConfigProblem} also asks numMiniBatches ≤
 * batchPrompts and, with adaptiveKl, β > 0 and klHorizon > 0.2·batchPrompts.
 */
export interface PpoConfig extends ConfigValues {
  /** Reward subtracted from a completion cut without EOS, in [0, 5]; default 0 (off). TRL: missing_eos_penalty. */
  missingEosPenalty: number;
  /** AdamW learning rate, in [0, 1] (log scale); default 1e-4 (Loshchilov & Hutter 2019). */
  lr: number;
  /**
   * B: prompts sampled per step, an integer in [1, 256] (PPO samples one completion per prompt, so also the
   * batch's sequences, seq.B); algorithm default 8 (the field table's, used by the CLI and the TRL mapping); the
   * lab's starting experiment uses 16 (src/lab/defaults.ts). Fixed once a run starts (buffer shape).
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
  /** β: per-token KL penalty in the reward, r_t = −β·k_t, in [0, 10]; default 0.05 (Ziegler et al. 2019 eq. 2). */
  beta: number;
  /** Per-token KL estimator k_t: "k1" = log π/π_ref (default) or "k3" (≥ 0) (Schulman 2020). */
  klEstimator: "k1" | "k3";
  /** γ: discount over tokens, in [0, 1]; default 1 (Schulman et al. 2016). */
  gamma: number;
  /** λ: GAE bias/variance trade-off, in [0, 1]; default 0.95 (Schulman et al. 2016 eq. 16). */
  lam: number;
  /** Whiten advantages to mean 0, std 1 over the batch's tokens; default true (Huang et al. 2024). */
  whitenAdvantages: boolean;
  /** ε: clip range of the ratio ρ = π_θ/π_old, in [0, 0.99]; default 0.2 (Schulman et al. 2017 eq. 7). */
  epsilon: number;
  /** ε_v: clip range of the value update, in [0, 100]; default 0.2 (Huang et al. 2024). */
  epsilonV: number;
  /** c_v: weight of the value loss, in [0, 10]; default 0.1 (Schulman et al. 2017 eq. 9). */
  vfCoef: number;
  /** "shared" value head on the policy (default) or a "separate" transformer; fixed once a run starts. */
  valueModel: "shared" | "separate";
  /** c_H: entropy bonus weight, in [0, 1]; default 0 (Schulman et al. 2017 eq. 9). */
  entCoef: number;
  /** Passes over each sampled batch, an integer in [1, 16]; default 4 (Schulman et al. 2017 alg. 1). */
  ppoEpochs: number;
  /** Minibatches per epoch, an integer in [1, 64] and ≤ batchPrompts; default 1. */
  numMiniBatches: number;
  /** Move β after each batch towards klTarget; default false (Ziegler et al. 2019 §2.2). Needs β > 0. */
  adaptiveKl: boolean;
  /** Target sequence KL of the adaptive controller, nats, in [0.001, 1000]; default 6 (Ziegler et al. 2019). */
  klTarget: number;
  /**
   * Samples over which the controller moves β by up to 20 %, in [1, 10⁷]; default 10 000 (Ziegler et al. 2019's
   * code, lm-human-preferences, and TRL's AdaptiveKLController; §2.2 writes the update with a gain K_β = 0.1).
   */
  klHorizon: number;
}

/**
 * PPO with GAE: owns a RolloutEngine, a PolicyUpdater (with its AdamW) and, with valueModel "separate", a
 * ValueModel; destroy() frees them, not env's models. RangeError without a reference model, on an invalid
 * config (minibatches above prompts included) or a bad state; step() NonFiniteMetricError.
 */
export class PpoRun implements AlgorithmRun {
  readonly algo = "ppo";
  config: PpoConfig;
  private readonly engine: RolloutEngine;
  private readonly updater: PolicyUpdater;
  /** The separate value model (valueModel "separate"); null: the policy's value head. */
  private readonly value: ValueModel | null;
  private steps = 0;
  /** The configured β (set at creation or by the user); the adaptive controller moves config.beta from it. */
  private betaSet: number;

  constructor(
    private readonly env: RunEnv,
    config: Partial<PpoConfig> = {},
  ) {
    if (!env.ref) throw new RangeError("ppo needs a reference model (its KL penalty)");
    this.config = validateConfig<PpoConfig>("ppo", PPO_FIELDS, config);
    this.betaSet = this.config.beta;
    const problem = ppoConfigProblem(this.config);
    if (problem) throw new RangeError(problem.message);
    this.engine = new RolloutEngine(
      env.ctx,
      env.policy,
      env.ref,
      this.config.batchPrompts,
      env.prompts.maxLength,
      completionBudget(env, this.config.maxNewTokens),
    );
    this.updater = new PolicyUpdater(env.ctx, this.engine);
    this.value = this.config.valueModel === "separate" ? new ValueModel(this.updater, env.policy) : null;
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

  /** The separate value model's weights (null with the shared value head). */
  get valueWeights(): GptWeights | null {
    return this.value?.weights ?? null;
  }

  /**
   * The separate value model with its AdamW state (checkpoints, a reload, an export; `optimizer` false: weights
   * only); {} with the shared head.
   */
  async exportExtra(optimizer = true): Promise<Record<string, ExtraWeights>> {
    if (!this.value) return {};
    const [params, moments] = await Promise.all([
      this.value.weights.download(),
      optimizer ? this.value.opt.exportState() : null,
    ]);
    return { [VALUE_MODEL]: { params, optimizer: moments } };
  }

  /**
   * Put the separate value model back (its AdamW restarts when `optimizer` is null); ignored with the shared
   * head. @throws RangeError when the weights or moments do not fit the model.
   */
  importExtra(extra: Record<string, ExtraWeights>): void {
    const saved = extra[VALUE_MODEL];
    if (!saved || !this.value) return;
    this.value.weights.upload(saved.params);
    if (saved.optimizer) this.value.opt.importState(saved.optimizer);
    else this.value.opt.reset();
  }

  /** A fork: copy the source's separate value model and its AdamW state when both runs have one. */
  copyExtraFrom(source: AlgorithmRun): void {
    if (!(source instanceof PpoRun)) return;
    if (source.value && this.value) this.value.copyFrom(source.value);
    // A fork that took the source's adapted β (its spec did not change β) also takes the β it grew from.
    if (this.config.beta === source.config.beta) this.betaSet = source.betaSet;
  }

  /**
   * With the adaptive KL controller on, β moves every step and is run state: forks, checkpoints and a reload
   * continue it instead of restarting at the configured β. `beta0` is the configured β it grew from, so a β the
   * user set after the state was saved wins over the saved one. With the controller off there is none.
   */
  runState(): Record<string, number> {
    return this.config.adaptiveKl ? { beta: this.config.beta, beta0: this.betaSet } : {};
  }

  /**
   * Put back the adaptive β; ignored with the controller off, and when the run's configured β is no longer the
   * `beta0` the state grew from (the user has set β since). @throws RangeError on a β outside the field's range.
   */
  setRunState(state: Record<string, number>): void {
    if (!this.config.adaptiveKl || state.beta === undefined) return;
    if (state.beta0 !== undefined && state.beta0 !== this.betaSet) return;
    const beta = state.beta;
    if (!Number.isFinite(beta) || beta < BETA_RANGE.min || beta > BETA_RANGE.max)
      throw new RangeError(`PPO state needs β in [${BETA_RANGE.min}, ${BETA_RANGE.max}], got ${beta}`);
    // A β of 0 saved before the controller kept a floor would stay 0: the run starts again from its setting.
    if (beta <= 0) return;
    this.config = { ...this.config, beta };
  }

  /**
   * Apply changed settings at the next step. A β set here is the controller's new starting point; turning the
   * controller off returns β to the configured β (what the control shows), so every path agrees on it.
   * @throws RangeError on an invalid value or a setting fixed for the run's life.
   */
  setConfig(patch: Record<string, number | string | boolean>): void {
    const next = patchConfig<PpoConfig>("ppo", PPO_FIELDS, this.config, patch);
    const problem = ppoConfigProblem(next); // its β: the one the next step starts from
    if (problem) throw new RangeError(problem.message);
    if (patch.beta !== undefined) this.betaSet = next.beta;
    else if (this.config.adaptiveKl && !next.adaptiveKl) next.beta = this.betaSet;
    this.config = next;
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = this.steps + 1;
    const prompts = env.prompts.batch(step - 1, c.batchPrompts);
    const r = await this.engine.collect(prompts, rolloutOptions(env, c, step));
    // Counted once its samples are scored: a step whose reward failed can be tried again as it was.
    this.steps = step;
    const { seq } = r;
    if (this.value) r.values = await this.value.values(seq);
    const B = seq.B;
    // Completion layout [B, S] (sequences.ts): the math's TokenShape.T is the completion width S here, not
    // seq.T = P + S, the full row the GPU buffers use (toFull maps one to the other). docs/notation.md.
    const shape = { B, T: seq.S, mask: seq.completionMask };
    const metrics: Metrics = { ...rolloutMetrics(r) };
    // NaN or ±∞ where the step reads them (weights gone non-finite, a learning rate too high): the run stops
    // naming the quantity and the step, as every algorithm does on a non-finite metric.
    const finite = (what: string, x: ArrayLike<number>) => checkFiniteTokens(what, x, shape.mask, step);
    finite("the policy's log-probs of its samples", r.logpOld);
    finite("the reference model's log-probs", r.logpRef);
    finite(this.value ? "the value model's estimates" : "the value head's estimates", r.values);
    const kr = klPenalizedRewards(r.reward, r.logpOld, r.logpRef, shape, c.beta, c.klEstimator);
    finite("the per-token rewards (score less the KL penalty)", kr.rewards);
    const g = gae(kr.rewards, r.values, shape, c.gamma, c.lam);
    const whiten = c.whitenAdvantages ? whitenMoments(g.advantages, shape) : null;
    const advantages = whiten ? maskedWhiten(g.advantages, shape, true, whiten) : g.advantages;
    // objective/kl stays the rollout's k1 (every run's KL chart plots k1 under that name; with k3 the penalty's
    // own sum is objective/kl_k3, the name TRL's PPOTrainer logs it under is objective/kl); the rest of TRL's
    // objective/* follow the penalty's estimator, as in TRL.
    const { "objective/kl": penaltyKl, ...objective } = kr.metrics;
    Object.assign(metrics, objective);
    // Undefined when every return is equal (one counted token in the batch, say): left out, a gap on its chart,
    // rather than a NaN that would stop the run.
    const ev = explainedVariance(r.values, g.returns, shape);
    if (Number.isFinite(ev)) metrics["val/explained_variance"] = ev;
    this.updater.setBatch(seq, {
      advantages: toFull(advantages, seq),
      weights: new Float32Array(seq.B * seq.T),
      returns: toFull(g.returns, seq),
      valuesOld: toFull(r.values, seq),
    });
    const rng = new Rng(stepSeed(env.seed ^ 0x2545f491, step));
    const sums = { policy: 0, value: 0, approxkl: 0, clipfrac: 0, ratio: 0, vclip: 0, grad: 0, n: 0 };
    // log π_θ of each row's update in the last epoch (full layout), for the inspector's ratios.
    const logpLast = new Float32Array(seq.B * seq.T);
    for (let epoch = 0; epoch < c.ppoEpochs; epoch++) {
      const order = Array.from({ length: B }, (_, i) => i);
      for (let i = B - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [order[i], order[j]] = [order[j], order[i]];
      }
      for (let mb = 0; mb < c.numMiniBatches; mb++) {
        const rows = order.filter((_, i) => i % c.numMiniBatches === mb);
        const mask = new Float32Array(seq.B * seq.T);
        for (const b of rows) mask.set(seq.lossMask.subarray(b * seq.T, (b + 1) * seq.T), b * seq.T);
        const n = mask.reduce((a, v) => a + v, 0);
        if (!n) continue;
        this.updater.setMinibatch({ mask, weights: mask.map((v) => v / n) });
        reportUpdate(env, epoch * c.numMiniBatches + mb, c.ppoEpochs * c.numMiniBatches);
        const last = epoch === c.ppoEpochs - 1;
        // A separate value model's step is recorded first; both come back together. beta: 0 because PPO's β is
        // in the reward (the KL penalty of klPenalizedRewards above); the updater's β is GRPO's k3 term inside
        // the loss, which PPO does not have.
        const [v, u] = await Promise.all([
          this.value?.step(c) ?? null,
          this.updater.step(
            { ...c, tau: c.temperature, epsilonHigh: c.epsilon, beta: 0, readLogp: last },
            !this.value,
          ),
        ]);
        const value = v ? v.value : u.value;
        if (u.logp)
          for (const b of rows) logpLast.set(u.logp.subarray(b * seq.T, (b + 1) * seq.T), b * seq.T);
        sums.policy += u.policy.loss;
        sums.value += value?.loss ?? 0;
        sums.approxkl += u.policy.metrics["policy/approxkl_avg"];
        sums.clipfrac += u.policy.metrics["policy/clipfrac_avg"];
        sums.ratio += u.policy.metrics["val/ratio"];
        sums.vclip += value?.metrics["val/clipfrac_avg"] ?? 0;
        sums.grad += u.gradNorm;
        sums.n++;
        if (epoch === 0 && mb === 0) metrics["val/ratio_first"] = u.policy.metrics["val/ratio"];
      }
    }
    const k = Math.max(1, sums.n);
    Object.assign(metrics, {
      "loss/policy_avg": sums.policy / k,
      "loss/value_avg": sums.value / k,
      "policy/approxkl_avg": sums.approxkl / k,
      "policy/clipfrac_avg": sums.clipfrac / k,
      // TRL's val/ratio: the mean ratio π_θ/π_old over every minibatch of the update.
      "val/ratio": sums.ratio / k,
      "val/clipfrac_avg": sums.vclip / k,
      grad_norm: sums.grad / k,
      kl_coef: c.beta,
    });
    if (c.adaptiveKl) {
      // Kept inside the β field's range and above 0, so forks, later setting changes (which validate it) and
      // the next step still work. The controller follows the KL the penalty charges (its estimator), as TRL's.
      const beta = controllerBeta(c.beta, penaltyKl, B, c.klTarget, c.klHorizon, BETA_RANGE.max);
      this.config = { ...c, beta };
    }
    Object.assign(metrics, { lr: c.lr, ...stepThroughput(t0, r.tokens, B) });
    checkFinite(metrics, step);
    return {
      step,
      metrics,
      rollout: r,
      advantages,
      logpTheta: toCompletionMasked(logpLast, seq),
      clip: { epsLow: c.epsilon, epsHigh: c.epsilon },
      gae: {
        rewards: kr.rewards,
        values: r.values,
        deltas: g.deltas,
        advantages: g.advantages,
        returns: g.returns,
        beta: c.beta,
        gamma: c.gamma,
        lam: c.lam,
        whiten,
      },
    };
  }

  destroy(): void {
    this.value?.destroy();
    this.updater.destroy();
    this.engine.destroy();
  }
}
