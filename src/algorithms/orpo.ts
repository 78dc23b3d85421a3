/**
 * ORPO (Hong et al. 2024): no reference model; L = L_SFT(y_w) + λ·(−log σ(log odds(y_w) − log odds(y_l))),
 * with logP(y) the mean of the completion's token log-probs and L_SFT(y_w) = −logP(y_w). Trained on pairs
 * sampled from the current policy each step and labelled by the simulated annotator.
 * Spec: docs/algorithms.md "ORPO (Hong et al. 2024)".
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

export interface OrpoConfig extends ConfigValues {
  lr: number;
  batchPairs: number;
  maxNewTokens: number;
  temperature: number;
  topK: number;
  maxGradNorm: number;
  weightDecay: number;
  lambda: number;
  flipRate: number;
}

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
      true,
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
