/**
 * The reward model's Bradley–Terry step on the TF.js twin (cli/bench/tfjs-gpt.ts), for `npm run train-rm
 * --backend tfjs-wasm`: the same batch as the WGSL RewardModelTrainer (src/rewards/rm_trainer.ts pairBatch: 2B
 * left-padded rows, chosen first, the score at each row's last column), the same loss (../shared/docs/algorithms.md,
 * "Reward model"; Ouyang et al. 2022 eq. 1, centring of Eisenstein et al. 2023)
 *   L = (1/B) Σ_i [ −log σ(r_w,i − r_l,i) + η (r_w,i + r_l,i)² ]
 * and the same AdamW (scripts/pretrain/tfjs-adamw.ts), with gradients from TF.js autodiff instead of our
 * backward kernels. On a CPU, TF.js's WASM backend runs this step ~50× faster than WebGPU on SwiftShader.
 */
import type { Scalar, Tensor1D } from "@tensorflow/tfjs-core";
import {
  disposeTfGpt,
  type TfGpt,
  tfGptForward,
  tfGptFromFlat,
  tfParamsFlat,
} from "../../cli/bench/tfjs-gpt";
import type { Tf } from "../../cli/bench/tfjs-peer";
import { ADAMW_DEFAULTS } from "../../src/kernels/adamw";
import { leftPadBatch } from "../../src/model/batch";
import type { GPTConfig } from "../../src/model/config";
import type { AdamWConfig } from "../../src/model/optimizer";
import { bucketWidth, pairBatch, type TokenPair, truncateLeft } from "../../src/rewards/rm_trainer";
import { TfAdamW } from "../pretrain/tfjs-adamw";

/**
 * The mean Bradley–Terry loss of B pairs from the 2B scores (chosen 0..B−1, rejected B..2B−1), with centring
 * η ≥ 0. −log σ(d) is written softplus(−d), finite for any finite d.
 * @throws RangeError on an odd or empty score vector, or η < 0.
 */
export function tfBradleyTerry(tf: Tf, scores: Tensor1D, eta = 0): Scalar {
  const n = scores.shape[0];
  if (n === 0 || n % 2) throw new RangeError(`tfBradleyTerry: need 2B scores, got ${n}`);
  if (!(eta >= 0)) throw new RangeError(`tfBradleyTerry: η must be ≥ 0, got ${eta}`);
  const B = n / 2;
  const [w, l] = tf.split(scores, 2);
  const bt = tf.softplus(tf.neg(tf.sub(w, l)));
  const terms = eta > 0 ? tf.add(bt, tf.mul(tf.square(tf.add(w, l)), eta)) : bt;
  return tf.div(tf.sum(terms), B);
}

/**
 * The Bradley–Terry loss of `pairs` under the TF.js model (a scalar inside the caller's tidy or gradient tape):
 * pairBatch's batch, the reward head at each row's last column, {@link tfBradleyTerry}. `onScores` gets a kept
 * copy of the 2B scores (chosen first), which the caller disposes.
 * @throws RangeError on no pairs or η < 0.
 */
export function tfRmLoss(
  model: TfGpt,
  pairs: readonly TokenPair[],
  padId: number,
  eta = 0,
  onScores?: (scores: Tensor1D) => void,
): Scalar {
  const { tf, config } = model;
  if (!(eta >= 0)) throw new RangeError(`tfRmLoss: η must be ≥ 0, got ${eta}`); // before any tensor exists
  const { batch, index } = pairBatch(pairs, config.contextLength, padId);
  const out = tfGptForward(model, batch);
  out.logits.dispose();
  out.values.dispose();
  const picked = tf.gather(out.rewards, tf.tensor1d(index, "int32"));
  onScores?.(tf.keep(picked.clone()));
  return tfBradleyTerry(tf, picked, eta);
}

/** What one step reports (the WGSL trainer's names): mean loss, share of pairs with r_w > r_l, gradient norm. */
export interface TfRmStepMetrics {
  loss: number;
  accuracy: number;
  /** Global gradient norm before clipping. */
  gradNorm: number;
}

/** A reward model training on TF.js: the model, its AdamW state and the pad id of its batches. */
export class TfRewardModelTrainer {
  private constructor(
    readonly model: TfGpt,
    private readonly opt: TfAdamW,
    readonly padId: number,
  ) {}

  /** @throws RangeError if `params` does not fit `config`'s layout. */
  static async create(tf: Tf, config: GPTConfig, params: Float32Array, padId: number) {
    const m = await tfGptFromFlat(tf, config, params);
    return new TfRewardModelTrainer(m, new TfAdamW(m), padId);
  }

  /**
   * One AdamW step on the Bradley–Terry loss of `pairs` (hyperparameters default as the WGSL AdamW's).
   * @throws RangeError on no pairs or η < 0.
   */
  async step(
    pairs: readonly TokenPair[],
    hyper: AdamWConfig & { centerRewardsCoefficient?: number },
  ): Promise<TfRmStepMetrics> {
    const { centerRewardsCoefficient: eta = 0, ...adam } = hyper;
    let scores: Tensor1D | undefined;
    const { loss, gradNorm } = await this.opt.stepLoss(
      () =>
        tfRmLoss(this.model, pairs, this.padId, eta, (s) => {
          scores = s;
        }),
      { ...ADAMW_DEFAULTS, ...adam },
    );
    const s = (await scores!.data()) as Float32Array;
    scores!.dispose();
    const B = pairs.length;
    let wins = 0;
    for (let i = 0; i < B; i++) if (s[i] > s[B + i]) wins++;
    return { loss, accuracy: wins / B, gradNorm };
  }

  /**
   * Scores [n] of token sequences, as RewardModelScorer.score (left-padded chunks of `maxRows`, the reward head
   * at the last column; longer sequences keep their last tokens), on the TF.js twin.
   */
  async score(seqs: readonly (readonly number[])[], maxRows = 32): Promise<Float64Array> {
    const { tf, config } = this.model;
    const out = new Float64Array(seqs.length);
    for (let start = 0; start < seqs.length; start += maxRows) {
      const chunk = seqs.slice(start, start + maxRows).map((q) => truncateLeft(q, config.contextLength));
      const T = bucketWidth(Math.max(1, ...chunk.map((q) => q.length)), config.contextLength);
      const o = tfGptForward(this.model, leftPadBatch(chunk, T, this.padId));
      const last = tf.tidy(() =>
        tf.slice(tf.reshape(o.rewards, [chunk.length, T]), [0, T - 1], [chunk.length, 1]),
      );
      out.set(await last.data(), start);
      for (const t of [last, o.logits, o.values, o.rewards]) t.dispose();
    }
    return out;
  }

  /** The current parameters, flat, in our layout. */
  params(): Promise<Float32Array> {
    return tfParamsFlat(this.model);
  }

  dispose(): void {
    this.opt.dispose();
    disposeTfGpt(this.model);
  }
}
