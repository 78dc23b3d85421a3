/**
 * The learned reward model on the GPU (Ouyang et al. 2022 §3.5; Stiennon et al. 2020): the engine's GPT with its
 * reward head, score(x, y) = the reward head at the last real token (EOS included) of the left-padded sequence
 * `<bos> prompt completion [<eos>]` (EOS when the completion ended; src/rewards/sources.ts). With left padding
 * that token sits in the last column T − 1 of every row.
 *
 * - {@link RewardModelScorer}: forward only; the n scores are gathered on the GPU (gather_rows, stride T,
 *   offset T − 1) and only they come back.
 * - {@link RewardModelTrainer}: one Bradley–Terry step on B pairs: forward the 2B sequences (chosen rows first,
 *   then rejected), btLoss gathers each row's last-token score, computes −log σ(r_w − r_l) (+ η(r_w + r_l)²)
 *   and scatters dL/dscore into acts.drewards; gptBackward({ rewardHead: true }); AdamW. Only the loss and
 *   metric sums and the gradient norm come back.
 * Activations are allocated per (rows, padded width T) with T rounded up by {@link bucketWidth}, and the
 * {@link ACTS_CACHE_SIZE} most recently used shapes are kept.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { BT_TERM_COUNT, type BtLossMetrics, btLoss, btLossMetrics } from "../kernels/bt_loss";
import { fill } from "../kernels/fill";
import { gatherRows } from "../kernels/gather_rows";
import { GptActivations } from "../model/activations";
import { gptBackward, zeroGrads } from "../model/backward";
import { type HostBatch, leftPadBatch } from "../model/batch";
import { BatchIndex } from "../model/batch_index";
import { gptForward } from "../model/forward";
import { AdamW, type AdamWConfig } from "../model/optimizer";
import type { GptWeights } from "../model/weights";

/**
 * The padded width for sequences of at most `maxLen` tokens, ≤ contextLength: exact up to 16 tokens, then
 * rounded up to a multiple of 4 (≤ 64) or 8, so that few activation shapes are allocated while short batches
 * (arithmetic: ~10 tokens) carry little padding.
 */
export function bucketWidth(maxLen: number, contextLength: number): number {
  const n = Math.max(1, maxLen);
  const step = n <= 16 ? 1 : n <= 64 ? 4 : 8;
  return Math.min(contextLength, Math.ceil(n / step) * step);
}

/** Activation shapes kept alive (least recently used ones are destroyed). */
export const ACTS_CACHE_SIZE = 3;

/**
 * Keep the last `maxLen` tokens of a sequence (the end of the completion, where the score is read, is kept;
 * the start of a long prompt is dropped).
 */
export function truncateLeft(ids: readonly number[], maxLen: number): number[] {
  return ids.length > maxLen ? ids.slice(ids.length - maxLen) : [...ids];
}

/** Lazily allocated activations per (rows, T); the least recently used shape beyond ACTS_CACHE_SIZE is freed. */
class ActsCache {
  private readonly map = new Map<string, GptActivations>();
  constructor(
    private readonly ctx: GpuContext,
    private readonly w: GptWeights,
  ) {}
  /** Callers await their last read before asking for another shape, so an evicted shape is idle. */
  get(rows: number, T: number, init?: (a: GptActivations) => void): GptActivations {
    const key = `${rows}x${T}`;
    let a = this.map.get(key);
    if (a) this.map.delete(key);
    else {
      a = new GptActivations(this.ctx, this.w.config, rows, T);
      init?.(a);
    }
    this.map.set(key, a); // most recent last
    for (const [k, old] of this.map) {
      if (this.map.size <= ACTS_CACHE_SIZE) break;
      old.destroy();
      this.map.delete(k);
    }
    return a;
  }
  destroy(): void {
    for (const a of this.map.values()) a.destroy();
    this.map.clear();
  }
}

function upload(ctx: GpuContext, acts: GptActivations, b: HostBatch): void {
  ctx.upload(acts.tokens, b.tokens);
  ctx.upload(acts.positions, b.positions);
  ctx.upload(acts.keyMask, b.keyMask);
}

/** Forward-only scoring with the WGSL engine. */
export class RewardModelScorer {
  private readonly acts: ActsCache;
  private readonly outs = new Map<number, Tensor>();

  /** @param maxRows sequences per forward pass (larger inputs are scored in chunks). Default 32. */
  constructor(
    readonly ctx: GpuContext,
    readonly w: GptWeights,
    readonly padId: number,
    readonly maxRows = 32,
  ) {
    this.acts = new ActsCache(ctx, w);
  }

  /**
   * Scores [n] of token sequences (each `<bos> prompt completion [<eos>]`, ids in [0, V)); sequences longer than
   * the context length keep their last tokens. An empty sequence scores the reward head at a padding row.
   */
  async score(seqs: readonly (readonly number[])[]): Promise<Float64Array> {
    const out = new Float64Array(seqs.length);
    const ctxLen = this.w.config.contextLength;
    for (let start = 0; start < seqs.length; start += this.maxRows) {
      const chunk = seqs.slice(start, start + this.maxRows).map((s) => truncateLeft(s, ctxLen));
      const n = chunk.length;
      const T = bucketWidth(Math.max(1, ...chunk.map((s) => s.length)), ctxLen);
      const acts = this.acts.get(n, T);
      upload(this.ctx, acts, leftPadBatch(chunk, T, this.padId));
      gptForward(this.ctx, this.w, acts);
      let last = this.outs.get(n);
      if (!last) {
        last = this.ctx.tensor([n], "f32", "rm.scores");
        this.outs.set(n, last);
      }
      gatherRows(this.ctx, last, acts.rewards, { cols: 1, stride: T, offset: T - 1 });
      out.set(await this.ctx.read(last), start);
    }
    return out;
  }

  destroy(): void {
    this.acts.destroy();
    for (const t of this.outs.values()) t.destroy();
  }
}

/** Hyperparameters of one reward-model step. */
export interface RewardModelHyper extends AdamWConfig {
  /** Centring coefficient η ≥ 0 (Eisenstein et al. 2023; TRL `center_rewards_coefficient`). Default 0. */
  centerRewardsCoefficient?: number;
}

export interface RewardModelStepMetrics extends BtLossMetrics {
  /** Global gradient norm before clipping. */
  gradNorm: number;
}

/** A pair of token sequences (each `<bos> prompt completion [<eos>]`). */
export interface TokenPair {
  chosen: readonly number[];
  rejected: readonly number[];
}

/**
 * The [2B, T] left-padded batch of B pairs (chosen rows 0..B−1, rejected rows B..2B−1) and each row's
 * last-token index s·T + T − 1. Sequences longer than `contextLength` keep their last tokens.
 * @throws RangeError on B = 0.
 */
export function pairBatch(
  pairs: readonly TokenPair[],
  contextLength: number,
  padId: number,
): { batch: HostBatch; index: Int32Array } {
  if (!pairs.length) throw new RangeError("pairBatch: no pairs");
  const seqs = [...pairs.map((p) => p.chosen), ...pairs.map((p) => p.rejected)].map((s) =>
    truncateLeft(s, contextLength),
  );
  const T = bucketWidth(Math.max(1, ...seqs.map((s) => s.length)), contextLength);
  const batch = leftPadBatch(seqs, T, padId);
  const index = Int32Array.from(seqs, (_, s) => s * T + T - 1);
  return { batch, index };
}

export class RewardModelTrainer {
  readonly opt: AdamW;
  private readonly acts: ActsCache;
  private readonly index: BatchIndex;
  private readonly bufs = new Map<number, { index: Tensor; terms: Tensor; sums: Tensor }>();

  constructor(
    readonly ctx: GpuContext,
    readonly w: GptWeights,
    readonly padId: number,
  ) {
    this.opt = new AdamW(ctx, w);
    this.acts = new ActsCache(ctx, w);
    this.index = new BatchIndex(ctx, "rm");
  }

  /**
   * One AdamW step on the Bradley–Terry loss of `pairs` (all parameters train; the LM head gets no gradient).
   * @throws RangeError on no pairs, η < 0, or a non-finite score (btLossMetrics names the invalid pairs).
   */
  async step(pairs: readonly TokenPair[], hyper: RewardModelHyper): Promise<RewardModelStepMetrics> {
    const { ctx, w } = this;
    const B = pairs.length;
    const { batch, index } = pairBatch(pairs, w.config.contextLength, this.padId);
    // dlogits stays 0: gptBackward always runs the LM-head backward, which then adds nothing.
    const acts = this.acts.get(2 * B, batch.T, (a) => fill(ctx, a.dlogits, 0));
    let b = this.bufs.get(B);
    if (!b) {
      b = {
        index: ctx.tensor([2 * B], "i32", "rm.index"),
        terms: ctx.tensor([BT_TERM_COUNT, B], "f32", "rm.terms"),
        sums: ctx.tensor([BT_TERM_COUNT], "f32", "rm.sums"),
      };
      this.bufs.set(B, b);
    }
    upload(ctx, acts, batch);
    ctx.upload(b.index, index);
    const indexes = this.index.upload(batch.tokens, batch.positions, w.config);
    zeroGrads(ctx, w);
    gptForward(ctx, w, acts);
    btLoss(
      ctx,
      { drewards: acts.drewards, terms: b.terms, sums: b.sums },
      acts.rewards,
      b.index,
      hyper.centerRewardsCoefficient ?? 0,
    );
    gptBackward(ctx, w, acts, { ...indexes, rewardHead: true });
    const { centerRewardsCoefficient: _eta, ...adam } = hyper;
    this.opt.step(adam);
    const [sums, norm] = await Promise.all([ctx.read(b.sums), ctx.read(this.opt.gradNorm)]);
    return { ...btLossMetrics(sums, B), gradNorm: norm[0] };
  }

  destroy(): void {
    this.acts.destroy();
    this.opt.destroy();
    for (const b of this.bufs.values()) for (const t of [b.index, b.terms, b.sums]) t.destroy();
    this.index.destroy();
  }
}
