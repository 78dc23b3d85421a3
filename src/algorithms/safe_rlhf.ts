/**
 * Constrained RLHF (Safe RLHF, Dai et al. 2023) on GRPO: each completion has a reward R and a cost c, the policy
 * optimises R − λ·c, and after each step the Lagrange multiplier follows λ ← max(0, λ + η(mean(c) − d)), so the
 * cost is pulled towards its limit d. An optional proportional term K_P (a PID Lagrangian, Stooke et al. 2020)
 * adds K_P·(mean(c) − d) of the step's own batch to the λ it scores with, damping the cost's oscillation around
 * d (docs/safe-rlhf-runs). The paper's learned cost model is replaced by a known cost: the completion's length
 * in tokens (EOS included; any task), or a cost the task defines (sentiment: its positive words, which the
 * reward wants more of — a cost in tension with the reward, as harmlessness is with helpfulness). Every GRPO
 * setting applies (GRPO_FIELDS, the entropy bonus c_H included).
 * Spec: ../shared/docs/algorithms.md "Constrained RLHF (Safe RLHF, Dai et al. 2023)".
 */
import type { Field } from "./fields";
import { GRPO_FIELDS, type GrpoConfig, GrpoRun } from "./grpo";
import { grpoAdvantages } from "./math/grpo";
import type { TokenShape } from "./math/masked";
import { lagrangeMultiplierUpdate, pidLagrangeMultiplier, safeRlhfScores } from "./math/safe_rlhf";
import type { CostSource } from "./reward";
import type { Rollout } from "./rollout";
import type { AlgorithmRun, RunEnv, StepResult } from "./run";

export const SAFE_RLHF_FIELDS: readonly Field[] = [
  ...GRPO_FIELDS,
  {
    key: "cost",
    label: "cost",
    fixed: "unit",
    kind: "enum",
    default: "length",
    options: ["length", "positive_words"],
    doc: "What a completion costs: its length in tokens (any task), or its number of positive words (sentiment: AFINN-165 valence > 0, which the reward wants more of).",
    source: "Dai et al. 2023 (cost model → here a known cost)",
  },
  {
    key: "costLimit",
    label: "d",
    kind: "number",
    default: 8,
    min: 0,
    max: 1000,
    doc: "The cost limit the multiplier enforces on average, in the cost's unit (tokens, words). A run card moves d to the new cost's suggestion (8 tokens, 1 positive word) when the cost changes, unless you chose d yourself.",
    source: "Dai et al. 2023 eq. 10",
  },
  {
    key: "lambdaInit",
    label: "λ₀",
    fixed: "start",
    kind: "number",
    default: 0,
    min: 0,
    max: 100,
    doc: "Starting Lagrange multiplier (its integral λ_I, in reward per unit of cost).",
    source: "Dai et al. 2023",
  },
  {
    key: "lambdaLr",
    label: "η",
    kind: "number",
    default: 0.01,
    min: 0,
    max: 10,
    unit: "log",
    doc: "Step size of the multiplier's update after each step, λ_I ← max(0, λ_I + η(mean c − d)); the step's λ is λ_I when Kₚ = 0. 0 keeps λ_I at λ₀. In λ per unit of cost per step: with a length cost in tokens, 0.001–0.01.",
    source: "Dai et al. 2023 eq. 12",
  },
  {
    key: "lambdaKp",
    label: "Kₚ",
    kind: "number",
    default: 0,
    min: 0,
    max: 10,
    unit: "log",
    doc: "Proportional gain of a PID Lagrangian: a step scores with λ = max(0, λ_I + Kₚ·(its mean c − d)), λ_I being the multiplier η updates. 0 is plain dual ascent, the lab's Safe RLHF rule (the paper updates log λ); a positive Kₚ answers the cost's excess at once, which damps the cost's swings around d. In λ per unit of cost: with a length cost in tokens, about 0.01.",
    source: "Stooke et al. 2020, Algorithm 2 (P term)",
  },
];

export type SafeRlhfCost = "length" | "positive_words";

/** Safe RLHF settings, validated against {@link SAFE_RLHF_FIELDS}; the rest: {@link GrpoConfig}. */
export interface SafeRlhfConfig extends GrpoConfig {
  /**
   * c: "length" in tokens, EOS included (default; any task) or "positive_words" (sentiment: AFINN-165 valence
   * > 0); fixed once a run has stepped (λ and d are in its unit). Replaces Dai et al. 2023's cost model.
   */
  cost: SafeRlhfCost;
  /** d: cost limit enforced on average, in the cost's unit, in [0, 1000]; default 8 (Dai et al. eq. 10). */
  costLimit: number;
  /** λ₀: starting λ_I (reward per unit of cost), in [0, 100]; default 0; fixed once stepped (Dai et al.). */
  lambdaInit: number;
  /**
   * η: step size of λ_I ← max(0, λ_I + η(mean c − d)) after each step, in [0, 10] (log scale); default 0.01
   * (Dai et al. 2023 eq. 12).
   */
  lambdaLr: number;
  /**
   * K_P: proportional gain, the step scores with λ = max(0, λ_I + K_P(mean c − d)), in [0, 10] (log scale);
   * default 0 = plain dual ascent (Stooke et al. 2020 alg. 2).
   */
  lambdaKp: number;
}

/** The task's source of `cost` (null for "length"). @throws RangeError when the task lacks it. */
function costSource(env: RunEnv, cost: string): CostSource | null {
  if (cost === "length") return null;
  const source = env.costs?.[cost];
  if (!source)
    throw new RangeError(
      `Safe RLHF: this task has no cost "${cost}" (it has: ${["length", ...Object.keys(env.costs ?? {})].join(", ")})`,
    );
  return source;
}

/**
 * Safe RLHF: a {@link GrpoRun} scoring R − λ·c, with the multiplier λ_I as run state. RangeError when the
 * task lacks the cost, on an invalid config, when setConfig changes cost or λ₀ after a step, or on a bad
 * state.
 */
export class SafeRlhfRun extends GrpoRun {
  override readonly algo = "safe_rlhf";
  /**
   * The multiplier's integral λ_I ≥ 0: λ_I ← max(0, λ_I + η(mean c − d)) after each step (the spec's λ). A step
   * scores with λ = max(0, λ_I + K_P·(its own mean c − d)), which is λ_I when K_P = 0.
   */
  lambda: number;
  private lastCosts: Float64Array = new Float64Array(0);
  /** mean(c) of the last step's batch. */
  private lastMeanCost = 0;
  private lambdaUsed = 0;
  /** λ_I as the step found it (the integral part of {@link lambdaUsed}). */
  private lambdaIntegralUsed = 0;

  /** @throws RangeError when the cost is not "length" and the task does not define it (env.costs). */
  constructor(env: RunEnv, config: Partial<SafeRlhfConfig> = {}) {
    costSource(env, config.cost ?? "length"); // before super(): nothing is allocated yet
    super(env, config, SAFE_RLHF_FIELDS, "safe_rlhf");
    this.lambda = (this.config as SafeRlhfConfig).lambdaInit;
  }

  /** λ_I is run state: a fork, a checkpoint and a reload continue it (λ₀ only seeds it before the first step). */
  runState(): Record<string, number> {
    return { lambda: this.lambda };
  }

  setRunState(state: Record<string, number>): void {
    const l = state.lambda;
    if (typeof l !== "number" || !Number.isFinite(l) || l < 0)
      throw new RangeError(`Safe RLHF state needs λ ≥ 0, got ${JSON.stringify(l)}`);
    this.lambda = l;
  }

  copyExtraFrom(source: AlgorithmRun): void {
    if (source instanceof SafeRlhfRun) this.lambda = source.lambda;
  }

  /** λ₀ seeds λ before the first step; afterwards λ follows its update rule, so a new λ₀ is refused. */
  override setConfig(patch: Record<string, number | string | boolean>): void {
    if (patch.cost !== undefined && patch.cost !== this.config.cost) {
      if (this.stepsDone > 0)
        throw new RangeError(
          "the cost sets what λ and d are measured in (tokens or words), so it is fixed once the run has stepped",
        );
      costSource(this.env, String(patch.cost));
    }
    if (patch.lambdaInit !== undefined && patch.lambdaInit !== this.config.lambdaInit && this.stepsDone > 0)
      throw new RangeError(
        "λ₀ only sets λ before the first step; λ now follows λ ← max(0, λ + η(E[c] − d)) (change η, Kₚ or d instead)",
      );
    super.setConfig(patch);
  }

  protected override advantages(r: Rollout, _shape: TokenShape, c: GrpoConfig) {
    const source = costSource(this.env, (c as SafeRlhfConfig).cost);
    this.lastCosts = source
      ? source.cost(r.prompts.map((prompt, b) => ({ prompt, completion: r.completions[b] })))
      : Float64Array.from(r.seq.lengths);
    const sc = c as SafeRlhfConfig;
    this.lastMeanCost = this.lastCosts.reduce((a, v) => a + v, 0) / this.lastCosts.length;
    this.lambdaIntegralUsed = this.lambda;
    this.lambdaUsed = pidLagrangeMultiplier(this.lambda, this.lastMeanCost - sc.costLimit, sc.lambdaKp);
    const scores = safeRlhfScores(r.reward, this.lastCosts, this.lambdaUsed);
    const out = grpoAdvantages(scores, c.numGenerations, c.scaleRewards);
    // reward, reward_std and frac_reward_zero_std describe R, as every other run's do (one chart compares
    // them); the score the policy trains on, s = R − λc, has its own three (objective/…): its zero-std groups
    // are the ones without learning signal.
    const raw = grpoAdvantages(r.reward, c.numGenerations, c.scaleRewards).metrics;
    return {
      advantages: out.advantages,
      scores,
      metrics: {
        ...raw,
        "objective/score": out.metrics.reward,
        "objective/score_std": out.metrics.reward_std,
        "objective/frac_score_zero_std": out.metrics.frac_reward_zero_std,
      },
    };
  }

  override async step(): Promise<StepResult> {
    const res = await super.step();
    const c = this.config as SafeRlhfConfig;
    const meanCost = this.lastMeanCost;
    this.lambda = lagrangeMultiplierUpdate(this.lambda, this.lastCosts, c.costLimit, c.lambdaLr);
    Object.assign(res.metrics, {
      "safe/lambda": this.lambdaUsed,
      "safe/lambda_integral": this.lambdaIntegralUsed,
      "safe/cost": meanCost,
      "safe/cost_limit": c.costLimit,
    });
    return res;
  }
}
