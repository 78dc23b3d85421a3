/**
 * Pretraining on the TF.js twin (cli/bench/tfjs-gpt.ts): AdamW with global-norm clipping, written to the
 * equations of our WGSL kernel (src/shaders/adamw.wgsl, Loshchilov & Hutter 2019 alg. 2):
 *   c = min(1, maxGradNorm / (‖g‖ + 1e-6)) (1 when maxGradNorm ≤ 0);  g ← c·g
 *   m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²;  m̂ = m / (1 − β1ᵗ);  v̂ = v / (1 − β2ᵗ)
 *   θ ← θ − lr·(m̂ / (√v̂ + eps) + wd·decay·θ)        (decay = 1 on matrices and embeddings, 0 elsewhere)
 * with TF.js ops, so the twin's autodiff gradients train the same model our SftTrainer would (TF.js's own
 * tf.train.adam has no decoupled weight decay and no clipping). Plus the learning-rate schedule both backends
 * use: linear warmup, then cosine decay to minLr (or constant).
 */
import type { Scalar, Tensor, Tensor2D, Variable } from "@tensorflow/tfjs-core";
import { type TfGpt, tfGptForward } from "../../cli/bench/tfjs-gpt";
import type { Tf } from "../../cli/bench/tfjs-peer";
import type { HostBatch } from "../../src/model/batch";
import type { AdamWConfig } from "../../src/model/optimizer";

export interface LrSchedule {
  /** Peak learning rate. */
  lr: number;
  /** Final learning rate of the cosine decay. */
  minLr: number;
  /** Steps of linear warmup from lr/warmup to lr. */
  warmup: number;
  /** Steps of the whole run (the cosine reaches minLr here). */
  steps: number;
  /** "cosine": decay after warmup; "constant": stay at lr (a checkpoint at step k equals a run of k steps). */
  kind: "cosine" | "constant";
}

/** The learning rate of step t (0-based). */
export function lrAt(s: LrSchedule, t: number): number {
  if (t < s.warmup) return (s.lr * (t + 1)) / s.warmup;
  if (s.kind === "constant") return s.lr;
  const progress = Math.min(1, (t - s.warmup) / Math.max(1, s.steps - s.warmup));
  return s.minLr + 0.5 * (s.lr - s.minLr) * (1 + Math.cos(Math.PI * progress));
}

/** Mean next-token cross-entropy over targets ≥ 0 (−1 = ignore), as SftTrainer's. */
export function tfCrossEntropy(tf: Tf, logits: Tensor2D, targets: Int32Array): Scalar {
  const count = targets.reduce((n, t) => n + (t >= 0 ? 1 : 0), 0);
  if (!count) throw new RangeError("no position has a target");
  const V = logits.shape[1];
  const ids = tf.tensor1d(
    targets.map((t) => Math.max(t, 0)),
    "int32",
  );
  const keep = tf.tensor2d(
    Float32Array.from(targets, (t) => (t >= 0 ? 1 : 0)),
    [targets.length, 1],
  );
  const pick = tf.mul(tf.oneHot(ids, V), keep);
  return tf.div(tf.neg(tf.sum(tf.mul(pick, tf.logSoftmax(logits)))), count);
}

export class TfAdamW {
  private readonly vars: Variable[];
  private readonly names: string[];
  private readonly m: Variable[];
  private readonly v: Variable[];
  /** Steps taken (t of the bias corrections). */
  t = 0;

  constructor(readonly model: TfGpt) {
    const { tf } = model;
    this.names = [...model.vars.keys()];
    this.vars = this.names.map((n) => model.vars.get(n)!);
    this.m = this.vars.map((x) => tf.variable(tf.zerosLike(x), false));
    this.v = this.vars.map((x) => tf.variable(tf.zerosLike(x), false));
  }

  /** One next-token step on `batch`; resolves to the loss before the update and the gradient norm before clipping. */
  step(
    batch: HostBatch,
    targets: Int32Array,
    hyper: Required<AdamWConfig>,
  ): Promise<{ loss: number; gradNorm: number }> {
    const { tf } = this.model;
    return this.stepLoss(() => {
      const out = tfGptForward(this.model, batch);
      out.values.dispose();
      out.rewards.dispose();
      return tfCrossEntropy(tf, out.logits, targets);
    }, hyper);
  }

  /**
   * One step on the scalar loss `f` builds from the model's variables (called once, inside TF.js's gradient
   * tape); resolves to the loss before the update and the gradient norm before clipping.
   */
  async stepLoss(f: () => Scalar, hyper: Required<AdamWConfig>): Promise<{ loss: number; gradNorm: number }> {
    const { tf } = this.model;
    const { value, grads } = tf.variableGrads(f, this.vars);
    // Parameters the loss does not reach (the value and reward heads) get no gradient from TF.js: use 0, as
    // our zeroed gradient buffer does (weight decay still applies to them, as in our AdamW).
    const gs = this.vars.map((x) => grads[x.name] ?? tf.zerosLike(x));
    const normT = tf.tidy(() => tf.sqrt(tf.addN(gs.map((g) => tf.sum(tf.square(g))))));
    const [loss, gradNorm] = [(await value.data())[0], (await normT.data())[0]];
    this.t++;
    const { lr, beta1: b1, beta2: b2, eps, weightDecay: wd, maxGradNorm } = hyper;
    const clip = maxGradNorm > 0 ? Math.min(1, maxGradNorm / (gradNorm + 1e-6)) : 1;
    const bc1 = 1 - b1 ** this.t;
    const bc2 = 1 - b2 ** this.t;
    tf.tidy(() => {
      this.vars.forEach((theta, i) => {
        const g = tf.mul(gs[i], clip);
        const m = tf.add(tf.mul(this.m[i], b1), tf.mul(g, 1 - b1));
        const v = tf.add(tf.mul(this.v[i], b2), tf.mul(tf.square(g), 1 - b2));
        const update: Tensor = tf.div(tf.div(m, bc1), tf.add(tf.sqrt(tf.div(v, bc2)), eps));
        const decay = this.model.layout.byName.get(this.names[i])!.decay ? wd : 0;
        theta.assign(tf.sub(theta, tf.mul(tf.add(update, tf.mul(theta, decay)), lr)));
        this.m[i].assign(m);
        this.v[i].assign(v);
      });
    });
    for (const t of [value, normT, ...gs]) t.dispose();
    return { loss, gradNorm };
  }

  dispose(): void {
    for (const x of [...this.m, ...this.v]) x.dispose();
  }
}
