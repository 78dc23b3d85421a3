/**
 * PPO for language models (Ouyang et al. 2022; Ziegler et al. 2019; Huang et al. 2024, "The N+ implementation
 * details of RLHF with PPO"): per-token reward r_t = −β·k_t + [t = T]·R (k1 default, k3 option), GAE with
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
 *   (copyExtraFrom); checkpoints hold the policy only, so a run rebuilt from one (lost device) restarts its value
 *   model from the start weights, and loading a saved policy into a run keeps the value model it has.
 * Spec: docs/algorithms.md "PPO for language models".
 */

import type { AdamW } from "../model/optimizer";
import type { GptWeights } from "../model/weights";
import { Rng } from "../util/rng";
import { COMMON_FIELDS, type ConfigValues, type Field, patchConfig, validateConfig } from "./fields";
import { explainedVariance, gae, klPenalizedRewards, maskedWhiten } from "./math/gae";
import { adaptiveKlBeta } from "./math/ppo";
import { RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  checkFinite,
  completionBudget,
  type Metrics,
  type RunEnv,
  resumeStep,
  rolloutMetrics,
  type StepResult,
  stepSeed,
  stepThroughput,
} from "./run";
import { toCompletionMasked, toFull } from "./sequences";
import { PolicyUpdater } from "./update";
import { ValueModel } from "./value_model";

export const PPO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.05,
    min: 0,
    max: 10,
    doc: "KL penalty per token in the reward, r_t = −β·k_t (+ the score at the last token).",
    source: "Ziegler et al. 2019 eq. 2",
    trl: "kl_coef",
  },
  {
    key: "klEstimator",
    label: "KL est.",
    kind: "enum",
    default: "k1",
    options: ["k1", "k3"],
    doc: "Per-token KL estimator in the reward: k1 = log π/π_ref (unbiased, can be negative) or k3 (≥ 0).",
    source: "Schulman 2020",
    trl: "kl_estimator",
  },
  {
    key: "gamma",
    label: "γ",
    kind: "number",
    default: 1,
    min: 0,
    max: 1,
    doc: "Discount over tokens.",
    source: "Schulman et al. 2016",
    trl: "gamma",
  },
  {
    key: "lam",
    label: "λ",
    kind: "number",
    default: 0.95,
    min: 0,
    max: 1,
    doc: "GAE bias/variance trade-off.",
    source: "Schulman et al. 2016 eq. 16",
    trl: "lam",
  },
  {
    key: "whitenAdvantages",
    label: "whiten",
    kind: "bool",
    default: true,
    doc: "Normalise advantages to mean 0, std 1 over the batch's tokens.",
    source: "Huang et al. 2024",
    trl: "whiten_rewards",
  },
  {
    key: "epsilon",
    label: "ε",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 0.99,
    doc: "Clip range of the ratio ρ = π_θ/π_old.",
    source: "Schulman et al. 2017 eq. 7",
    trl: "cliprange",
  },
  {
    key: "epsilonV",
    label: "ε_v",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 100,
    doc: "Clip range of the value update.",
    source: "Huang et al. 2024",
    trl: "cliprange_value",
  },
  {
    key: "vfCoef",
    label: "c_v",
    kind: "number",
    default: 0.1,
    min: 0,
    max: 10,
    doc: "Weight of the value loss.",
    source: "Schulman et al. 2017 eq. 9",
    trl: "vf_coef",
  },
  {
    key: "valueModel",
    label: "critic",
    kind: "enum",
    default: "shared",
    options: ["shared", "separate"],
    doc: "The value model V(s). shared: a value head on the policy's transformer, trained with it; separate: a second transformer from the start model with its own optimizer, trained on the value loss alone (2× weights).",
    source: "Ouyang et al. 2022 §3.5; Huang et al. 2024; TRL PPOTrainer value_model",
  },
  {
    key: "entCoef",
    label: "c_H",
    kind: "number",
    default: 0,
    min: 0,
    max: 1,
    doc: "Entropy bonus: rewards keeping the distribution wide.",
    source: "Schulman et al. 2017 eq. 9",
  },
  {
    key: "ppoEpochs",
    label: "epochs",
    kind: "int",
    default: 4,
    min: 1,
    max: 16,
    doc: "Passes over each sampled batch.",
    source: "Schulman et al. 2017 alg. 1",
    trl: "num_ppo_epochs",
  },
  {
    key: "numMiniBatches",
    label: "minibatches",
    kind: "int",
    default: 1,
    min: 1,
    max: 64,
    doc: "Minibatches per epoch (sequences are shuffled into them).",
    source: "Schulman et al. 2017 alg. 1",
    trl: "num_mini_batches",
  },
  {
    key: "adaptiveKl",
    label: "adaptive β",
    kind: "bool",
    default: false,
    doc: "Adjust β after each batch towards a target KL.",
    source: "Ziegler et al. 2019 §2.2",
  },
  {
    key: "klTarget",
    label: "KL target",
    kind: "number",
    default: 6,
    min: 0.001,
    max: 1000,
    unit: "nats",
    doc: "Target sequence KL of the adaptive controller.",
    source: "Ziegler et al. 2019",
  },
  {
    key: "klHorizon",
    label: "horizon",
    kind: "number",
    default: 10000,
    min: 1,
    max: 1e7,
    doc: "Samples over which the adaptive controller moves β by up to 20%.",
    source: "Ziegler et al. 2019",
  },
];

export interface PpoConfig extends ConfigValues {
  lr: number;
  batchPrompts: number;
  maxNewTokens: number;
  temperature: number;
  topK: number;
  maxGradNorm: number;
  weightDecay: number;
  beta: number;
  klEstimator: "k1" | "k3";
  gamma: number;
  lam: number;
  whitenAdvantages: boolean;
  epsilon: number;
  epsilonV: number;
  vfCoef: number;
  valueModel: "shared" | "separate";
  entCoef: number;
  ppoEpochs: number;
  numMiniBatches: number;
  adaptiveKl: boolean;
  klTarget: number;
  klHorizon: number;
}

export class PpoRun implements AlgorithmRun {
  readonly algo = "ppo";
  config: PpoConfig;
  private readonly engine: RolloutEngine;
  private readonly updater: PolicyUpdater;
  /** The separate value model (valueModel "separate"); null: the policy's value head. */
  private readonly value: ValueModel | null;
  private steps = 0;

  constructor(
    private readonly env: RunEnv,
    config: Partial<PpoConfig> = {},
  ) {
    if (!env.ref) throw new RangeError("ppo needs a reference model (its KL penalty)");
    this.config = validateConfig<PpoConfig>("ppo", PPO_FIELDS, config);
    if (this.config.numMiniBatches > this.config.batchPrompts)
      throw new RangeError(
        `ppo.numMiniBatches (${this.config.numMiniBatches}) exceeds batchPrompts (${this.config.batchPrompts})`,
      );
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

  /** A fork: copy the source's separate value model and its AdamW state when both runs have one. */
  copyExtraFrom(source: AlgorithmRun): void {
    if (source instanceof PpoRun && source.value && this.value) this.value.copyFrom(source.value);
  }

  /**
   * With the adaptive KL controller on, β moves every step and is run state: forks, checkpoints and a reload
   * continue it instead of restarting at the configured β. Without the controller there is none (β is a setting).
   */
  runState(): Record<string, number> {
    return this.config.adaptiveKl ? { beta: this.config.beta } : {};
  }

  /** Put back the adaptive β (ignored with the controller off). @throws RangeError unless β is finite and ≥ 0. */
  setRunState(state: Record<string, number>): void {
    if (!this.config.adaptiveKl || state.beta === undefined) return;
    const beta = state.beta;
    if (!Number.isFinite(beta) || beta < 0) throw new RangeError(`PPO state needs β ≥ 0, got ${beta}`);
    this.config = { ...this.config, beta };
  }

  setConfig(patch: Record<string, number | string | boolean>): void {
    const next = patchConfig<PpoConfig>("ppo", PPO_FIELDS, this.config, patch, [
      "batchPrompts",
      "maxNewTokens",
    ]);
    if (next.valueModel !== this.config.valueModel)
      throw new RangeError("ppo.valueModel sets which models the run holds and cannot change during a run");
    if (next.numMiniBatches > next.batchPrompts)
      throw new RangeError("ppo.numMiniBatches exceeds batchPrompts");
    this.config = next;
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = ++this.steps;
    const prompts = env.prompts.batch(step - 1, c.batchPrompts);
    const r = await this.engine.collect(prompts, {
      temperature: c.temperature,
      topK: c.topK,
      seed: stepSeed(env.seed, step),
      eosId: env.eosId,
      padId: env.padId,
      reward: env.reward,
      gold: env.gold,
    });
    const { seq } = r;
    if (this.value) r.values = await this.value.values(seq);
    const B = seq.B;
    const shape = { B, T: seq.S, mask: seq.completionMask };
    const metrics: Metrics = { ...rolloutMetrics(r) };
    const kr = klPenalizedRewards(r.reward, r.logpOld, r.logpRef, shape, c.beta, c.klEstimator);
    const g = gae(kr.rewards, r.values, shape, c.gamma, c.lam);
    const advantages = c.whitenAdvantages ? maskedWhiten(g.advantages, shape) : g.advantages;
    Object.assign(metrics, kr.metrics, {
      "val/explained_variance": explainedVariance(r.values, g.returns, shape),
    });
    this.updater.setBatch(seq, {
      advantages: toFull(advantages, seq),
      weights: new Float32Array(seq.B * seq.T),
      returns: toFull(g.returns, seq),
      valuesOld: toFull(r.values, seq),
    });
    const rng = new Rng(stepSeed(env.seed ^ 0x2545f491, step));
    const sums = { policy: 0, value: 0, approxkl: 0, clipfrac: 0, vclip: 0, grad: 0, n: 0 };
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
        const last = epoch === c.ppoEpochs - 1;
        // A separate value model's step is recorded first; both come back together.
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
      "val/clipfrac_avg": sums.vclip / k,
      grad_norm: sums.grad / k,
      kl_coef: c.beta,
    });
    if (c.adaptiveKl)
      this.config = {
        ...c,
        beta: adaptiveKlBeta(c.beta, metrics["objective/kl"], B, c.klTarget, c.klHorizon),
      };
    Object.assign(metrics, { lr: c.lr, ...stepThroughput(t0, r.tokens, B) });
    checkFinite(metrics, step);
    return {
      step,
      metrics,
      rollout: r,
      advantages,
      logpTheta: toCompletionMasked(logpLast, seq),
      clip: { epsLow: c.epsilon, epsHigh: c.epsilon },
    };
  }

  destroy(): void {
    this.value?.destroy();
    this.updater.destroy();
    this.engine.destroy();
  }
}
