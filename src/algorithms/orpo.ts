/**
 * ORPO (Hong et al. 2024): no reference model; L = L_SFT(y_w) + λ·(−log σ(log odds(y_w) − log odds(y_l))),
 * with logP(y) the mean of the completion's token log-probs and L_SFT(y_w) = −logP(y_w). Trained on pairs
 * sampled from the current policy each step and labelled by the simulated annotator.
 * Spec: ../shared/docs/algorithms.md "ORPO (Hong et al. 2024)".
 */
import { COMMON_FIELDS, type ConfigValues, type Field, flipRateField, pairsPerStepField } from "./fields";
import { orpoLossAndGrad } from "./math/orpo";
import { annotatorMetrics, annotatorRng, labelPairs, layoutPairs } from "./pairs";
import { checkFinite, type Metrics, type RunEnv, reportUpdate, type StepResult, stepThroughput } from "./run";
import { TwoSampleRun } from "./two_sample_run";

export const ORPO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS.filter((f) => f.key !== "batchPrompts"),
  pairsPerStepField("Preference pairs per step (two samples per prompt)."),
  {
    key: "lambda",
    label: "λ",
    kind: "number",
    default: 0.1,
    min: 0,
    max: 10,
    doc: "Weight of the odds-ratio term against the SFT loss on the chosen completion.",
    source: "Hong et al. 2024 eq. 6",
    trl: "beta",
  },
  flipRateField("Share of preference labels the simulated annotator flips."),
];

/** ORPO settings (Hong et al. 2024), validated against {@link ORPO_FIELDS}. */
export interface OrpoConfig extends ConfigValues {
  /** AdamW learning rate, in [0, 1] (log scale); default 1e-4 (Loshchilov & Hutter 2019). */
  lr: number;
  /** B: preference pairs per step (two samples per prompt), an integer in [1, 256]; default 8; fixed. */
  batchPairs: number;
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
  /** λ: weight of the odds-ratio term against the SFT loss, in [0, 10]; default 0.1 (Hong et al. 2024 eq. 6). */
  lambda: number;
  /** Share of preference labels the simulated annotator flips, in [0, 0.5]; default 0.25 (Dubois et al. 2023). */
  flipRate: number;
}

/**
 * ORPO on pairs of two samples per prompt, labelled by the simulated annotator; no reference model. A
 * {@link TwoSampleRun} (owns and frees its engine and objective). RangeError on an invalid config.
 */
export class OrpoRun extends TwoSampleRun<OrpoConfig> {
  readonly algo = "orpo";

  /** @throws RangeError on an invalid config. */
  constructor(env: RunEnv, config: Partial<OrpoConfig> = {}) {
    super(env, ORPO_FIELDS, "orpo", "batchPairs", config);
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const { step, r, metrics, t0 } = await this.sampleTwo();
    const B = c.batchPairs;
    const lab = labelPairs(r, c.flipRate, annotatorRng(env.seed, step));
    const seq = layoutPairs(lab.pairs, this.engine.P, this.engine.S, env.padId);
    let extra: Metrics = {};
    reportUpdate(env, 0, 1);
    const u = await this.objective.step(
      seq,
      c.temperature,
      "mean",
      (values) => {
        const out = orpoLossAndGrad(values.subarray(0, B), values.subarray(B), c.lambda);
        extra = out.metrics;
        const grad = new Float64Array(2 * B);
        grad.set(out.dChosenMeanLogps, 0);
        grad.set(out.dRejectedMeanLogps, B);
        return { loss: out.loss, grad };
      },
      c,
    );
    Object.assign(metrics, extra, {
      loss: u.loss,
      grad_norm: u.gradNorm,
      learning_rate: c.lr,
      ...annotatorMetrics(lab.flipped, lab.ties, B),
      ...stepThroughput(t0, r.tokens, 2 * B),
    });
    checkFinite(metrics, step);
    return { step, metrics, rollout: r };
  }
}
