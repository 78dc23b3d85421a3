/**
 * KTO (Ethayarajh et al. 2024): unpaired desirable/undesirable completions. With r_θ = log π_θ(y|x) −
 * log π_ref(y|x) and the reference point z_0 = max(0, mean r_θ over mismatched pairs (x, y') of the batch)
 * held constant: desirable λ_D(1 − σ(β(r_θ − z_0))), undesirable λ_U(1 − σ(β(z_0 − r_θ))), mean over examples.
 * Examples are the step's own samples, labelled by the simulated annotator (two samples per prompt: the
 * preferred one is desirable, the other undesirable, flips included) or by a score threshold.
 * Spec: ../shared/docs/algorithms.md "KTO (Ethayarajh et al. 2024)".
 */
import { Rng } from "../util/rng";
import { COMMON_FIELDS, type ConfigValues, type Field, flipRateField } from "./fields";
import { ktoLossAndGrad, ktoReferencePoint } from "./math/kto";
import { annotatorMetrics } from "./pairs";
import {
  checkFinite,
  type Metrics,
  type RunEnv,
  reportUpdate,
  type StepResult,
  stepSeed,
  stepThroughput,
} from "./run";
import { layoutSequences } from "./sequences";
import { TwoSampleRun } from "./two_sample_run";

export const KTO_FIELDS: readonly Field[] = [
  // Two prompts at least: z₀ pairs each completion with another prompt (mismatched pairs, Ethayarajh et al.
  // 2024 §4.1); with one prompt every pair would match and z₀ would be the policy's own KL.
  ...COMMON_FIELDS.map((f) => (f.key === "batchPrompts" ? { ...f, min: 2 } : f)),
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.1,
    min: 0.001,
    max: 100,
    doc: "Scale of the implicit reward r_θ inside the sigmoid.",
    source: "Ethayarajh et al. 2024 eq. 8",
    trl: "beta",
  },
  {
    key: "desirableWeight",
    label: "λ_D",
    kind: "number",
    default: 1,
    min: 0,
    max: 100,
    doc: "Weight of desirable examples.",
    source: "Ethayarajh et al. 2024",
    trl: "desirable_weight",
  },
  {
    key: "undesirableWeight",
    label: "λ_U",
    kind: "number",
    default: 1,
    min: 0,
    max: 100,
    doc: "Weight of undesirable examples.",
    source: "Ethayarajh et al. 2024",
    trl: "undesirable_weight",
  },
  {
    key: "label",
    label: "labels",
    kind: "enum",
    default: "annotator",
    options: ["annotator", "threshold"],
    doc: "Desirable = preferred by the simulated annotator in each pair of samples, or scored ≥ the threshold.",
    source: "implementation",
  },
  {
    key: "threshold",
    label: "threshold",
    kind: "number",
    default: 0.5,
    min: -1e6,
    max: 1e6,
    doc: "Score at or above which a completion is desirable (labels = threshold), by the run's reward source.",
    source: "implementation",
    usedWhen: { key: "label", values: ["threshold"] },
  },
  {
    ...flipRateField("Share of annotator labels flipped."),
    usedWhen: { key: "label", values: ["annotator"] },
  },
];

/** KTO settings (Ethayarajh et al. 2024), validated against {@link KTO_FIELDS}. */
export interface KtoConfig extends ConfigValues {
  /** AdamW learning rate, in [0, 1] (log scale); default 1e-4 (Loshchilov & Hutter 2019). */
  lr: number;
  /** B: prompts sampled per step (two samples each), an integer in [2, 256]; default 8. Fixed once a run starts. */
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
  /** β: scale of the implicit reward in the sigmoid, in [0.001, 100]; default 0.1 (Ethayarajh et al. 2024 eq. 8). */
  beta: number;
  /** λ_D: weight of desirable examples, in [0, 100]; default 1 (Ethayarajh et al. 2024). */
  desirableWeight: number;
  /** λ_U: weight of undesirable examples, in [0, 100]; default 1 (Ethayarajh et al. 2024). */
  undesirableWeight: number;
  /** Desirable = preferred by the simulated "annotator" in each pair (default) or scored ≥ "threshold". */
  label: "annotator" | "threshold";
  /** Reward at or above which a completion is desirable (label "threshold"), in [−10⁶, 10⁶]; default 0.5. */
  threshold: number;
  /** Share of annotator labels flipped (label "annotator"), in [0, 0.5]; default 0.25 (Dubois et al. 2023). */
  flipRate: number;
}

/**
 * KTO on two samples per prompt, each labelled desirable or undesirable; a {@link TwoSampleRun} (owns and
 * frees its engine and objective). RangeError without a reference model or on an invalid config.
 */
export class KtoRun extends TwoSampleRun<KtoConfig> {
  readonly algo = "kto";

  /** @throws RangeError without a reference model, or on an invalid config. */
  constructor(env: RunEnv, config: Partial<KtoConfig> = {}) {
    if (!env.ref) throw new RangeError("kto needs a reference model");
    super(env, KTO_FIELDS, "kto", "batchPrompts", config);
  }

  /**
   * Desirable flags [2B]: rows i and i + B are two samples of prompt i; with the annotator, the flips and gold
   * ties among the B pairs (as pairs.ts labelPairs counts them).
   */
  private labels(scores: Float64Array, rng: Rng): { desirable: boolean[]; flipped: number; ties: number } {
    const c = this.config;
    if (c.label === "threshold")
      return { desirable: Array.from(scores, (s) => s >= c.threshold), flipped: 0, ties: 0 };
    const B = scores.length / 2;
    const out = new Array<boolean>(2 * B);
    let flipped = 0;
    let ties = 0;
    for (let i = 0; i < B; i++) {
      const tie = scores[i] === scores[i + B];
      if (tie) ties++;
      let aWins = tie ? rng.float() < 0.5 : scores[i] > scores[i + B];
      if (rng.float() < c.flipRate) {
        aWins = !aWins;
        if (!tie) flipped++;
      }
      out[i] = aWins;
      out[i + B] = !aWins;
    }
    return { desirable: out, flipped, ties };
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const { step, r, metrics, t0 } = await this.sampleTwo();
    const { seq } = r;
    const R = seq.B;
    const rowSum = (x: Float64Array, row: number) =>
      x.subarray(row * seq.S, (row + 1) * seq.S).reduce((a, v) => a + v, 0);
    const refLogps = Float64Array.from({ length: R }, (_, i) => rowSum(r.logpRef, i));
    const { desirable, flipped, ties } = this.labels(
      c.label === "annotator" ? r.gold : r.reward,
      Rng.mixed(stepSeed(env.seed ^ 0x1b873593, step)),
    );
    // Reference point: completions paired with the next row's prompt (x_{i+1}, y_i), measured without gradient.
    const shifted = r.prompts.map((_, i) => r.prompts[(i + 1) % R]);
    const flat = new Int32Array(R * seq.S).fill(env.padId);
    r.completions.forEach((cpl, i) => {
      flat.set(cpl, i * seq.S);
    });
    const mismatched = layoutSequences(shifted, flat, seq.lengths, seq.P, seq.S, env.padId);
    const mm = await this.engine.measure(mismatched, c.temperature);
    const z0 = ktoReferencePoint(
      Float64Array.from({ length: R }, (_, i) => rowSum(mm.logpOld, i)),
      Float64Array.from({ length: R }, (_, i) => rowSum(mm.logpRef, i)),
    );
    let extra: Metrics = {};
    reportUpdate(env, 0, 1);
    const u = await this.objective.step(
      seq,
      c.temperature,
      "sum",
      (values) => {
        const out = ktoLossAndGrad(values, refLogps, desirable, z0, {
          beta: c.beta,
          desirableWeight: c.desirableWeight,
          undesirableWeight: c.undesirableWeight,
        });
        extra = Object.fromEntries(Object.entries(out.metrics).filter(([, v]) => v !== null)) as Metrics;
        return { loss: out.loss, grad: out.dLogps };
      },
      c,
    );
    Object.assign(metrics, extra, {
      loss: u.loss,
      grad_norm: u.gradNorm,
      learning_rate: c.lr,
      kl_coef: c.beta,
      "kto/desirable_fraction": desirable.filter(Boolean).length / R,
      ...(c.label === "annotator" ? annotatorMetrics(flipped, ties, R / 2) : {}),
      ...stepThroughput(t0, r.tokens, R),
    });
    checkFinite(metrics, step);
    return { step, metrics, rollout: r };
  }
}
