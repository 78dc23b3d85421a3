/**
 * GRPO (Shao et al. 2024, DeepSeekMath) with the variants people argue about: `scale_rewards` group/batch/none
 * (Dr. GRPO: Liu et al. 2025), `loss_type` grpo/dapo/dr_grpo, clip-higher ε_high (DAPO: Yu et al. 2025), β on
 * k3 inside the loss (β = 0 drops the reference model), μ = num_iterations updates per batch.
 * Spec: docs/algorithms.md "GRPO (Shao et al. 2024, DeepSeekMath) and its variants".
 */
import { COMMON_FIELDS, type ConfigValues, type Field, validateConfig } from "./fields";
import { aggregationWeights, grpoAdvantages } from "./math/grpo";
import { RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  checkFinite,
  type Metrics,
  type RunEnv,
  rolloutMetrics,
  type StepResult,
  stepSeed,
} from "./run";
import { toFull } from "./sequences";
import { PolicyUpdater } from "./update";

export const GRPO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS,
  {
    key: "numGenerations",
    label: "G",
    kind: "int",
    default: 4,
    min: 2,
    max: 64,
    doc: "Completions sampled per prompt; advantages compare them within their group.",
    source: "Shao et al. 2024 §4.1",
    trl: "num_generations",
  },
  {
    key: "scaleRewards",
    label: "scale",
    kind: "enum",
    default: "group",
    options: ["group", "batch", "none"],
    doc: "Divide advantages by the group's std, the batch's std, or not at all (Dr. GRPO).",
    source: "Liu et al. 2025 (Dr. GRPO)",
    trl: "scale_rewards",
  },
  {
    key: "lossType",
    label: "loss type",
    kind: "enum",
    default: "grpo",
    options: ["grpo", "dapo", "dr_grpo"],
    doc: "How token losses are averaged: per sequence then batch (grpo), over all tokens (dapo), or by a constant G·L (dr_grpo) — the source of a length bias.",
    source: "Yu et al. 2025; Liu et al. 2025",
    trl: "loss_type",
  },
  {
    key: "epsilon",
    label: "ε",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 0.99,
    doc: "Lower clip range of the ratio ρ.",
    source: "Schulman et al. 2017 eq. 7",
    trl: "epsilon",
  },
  {
    key: "epsilonHigh",
    label: "ε_high",
    kind: "number",
    default: 0.2,
    min: 0,
    max: 10,
    doc: "Upper clip range (default ε; DAPO's clip-higher uses 0.28 to keep exploring).",
    source: "Yu et al. 2025 (DAPO)",
    trl: "epsilon_high",
  },
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.04,
    min: 0,
    max: 10,
    doc: "Weight of the k3 KL to the reference inside the loss (0 drops the reference model).",
    source: "Shao et al. 2024 eq. 3",
    trl: "beta",
  },
  {
    key: "numIterations",
    label: "μ",
    kind: "int",
    default: 1,
    min: 1,
    max: 16,
    doc: "Updates per sampled batch (μ > 1 reuses the batch, so ρ ≠ 1).",
    source: "Shao et al. 2024 alg. 1",
    trl: "num_iterations",
  },
];

export interface GrpoConfig extends ConfigValues {
  lr: number;
  batchPrompts: number;
  maxNewTokens: number;
  temperature: number;
  topK: number;
  maxGradNorm: number;
  weightDecay: number;
  numGenerations: number;
  scaleRewards: "group" | "batch" | "none";
  lossType: "grpo" | "dapo" | "dr_grpo";
  epsilon: number;
  epsilonHigh: number;
  beta: number;
  numIterations: number;
}

export class GrpoRun implements AlgorithmRun {
  readonly algo = "grpo";
  config: GrpoConfig;
  private readonly engine: RolloutEngine;
  private readonly updater: PolicyUpdater;
  private steps = 0;

  constructor(
    private readonly env: RunEnv,
    config: Partial<GrpoConfig> = {},
  ) {
    this.config = validateConfig<GrpoConfig>("grpo", GRPO_FIELDS, config);
    const B = this.config.batchPrompts * this.config.numGenerations;
    this.engine = new RolloutEngine(
      env.ctx,
      env.policy,
      env.ref,
      B,
      env.prompts.maxLength,
      this.config.maxNewTokens,
    );
    this.updater = new PolicyUpdater(env.ctx, this.engine);
  }

  setConfig(patch: Partial<GrpoConfig>): void {
    const next = validateConfig<GrpoConfig>("grpo", GRPO_FIELDS, { ...this.config, ...patch });
    for (const k of ["batchPrompts", "numGenerations", "maxNewTokens"] as const)
      if (next[k] !== this.config[k])
        throw new RangeError(`grpo.${k} sets the batch shape and cannot change during a run`);
    if (next.beta > 0 && !this.env.ref) throw new RangeError("grpo.beta > 0 needs a reference model");
    this.config = next;
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = ++this.steps;
    const G = c.numGenerations;
    const prompts = env.prompts
      .batch(step - 1, c.batchPrompts)
      .flatMap((p) => Array.from({ length: G }, () => p));
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
    const adv = grpoAdvantages(r.reward, G, c.scaleRewards);
    const shape = { B: seq.B, T: seq.S, mask: seq.completionMask };
    const perToken = new Float64Array(seq.B * seq.S);
    for (let i = 0; i < perToken.length; i++)
      if (seq.completionMask[i]) perToken[i] = adv.advantages[Math.floor(i / seq.S)];
    const weights = r.tokens
      ? aggregationWeights(shape, c.lossType, c.maxNewTokens)
      : new Float64Array(perToken.length);
    this.updater.setBatch(seq, { advantages: toFull(perToken, seq), weights: toFull(weights, seq) });
    const metrics: Metrics = { ...rolloutMetrics(r), ...adv.metrics };
    if (r.tokens > 0)
      for (let it = 0; it < c.numIterations; it++) {
        const u = await this.updater.step({ ...c, tau: c.temperature, lr: c.lr });
        if (it === c.numIterations - 1) {
          metrics["loss/policy_avg"] = u.policy.loss;
          for (const [k, v] of Object.entries(u.policy.metrics)) if (v !== null) metrics[k] = v;
          metrics.grad_norm = u.gradNorm;
        }
      }
    const ms = performance.now() - t0;
    Object.assign(metrics, {
      lr: c.lr,
      kl_coef: c.beta,
      step_time: ms / 1000,
      "tokens/s": r.tokens / (ms / 1000),
      samples: seq.B,
      tokens: r.tokens,
    });
    checkFinite(metrics, step);
    return { step, metrics, rollout: r };
  }

  destroy(): void {
    this.updater.destroy();
    this.engine.destroy();
  }
}
