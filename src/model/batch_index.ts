/**
 * The scatter indexes the embedding backward needs for a batch (gptBackward's `tokenIndex` over the vocabulary's V
 * rows and `positionIndex` over the contextLength rows), uploaded each step into tensors kept across steps: they
 * grow when a batch needs more (the old ones freed, src/kernels/embedding_index.ts uploadScatterIndex) and are
 * otherwise reused, so a training step allocates nothing. One per trainer (SFT, reward model, policy updates, DPO,
 * the sequence objective).
 */
import type { GpuContext } from "../gpu/context";
import { buildScatterIndex, type GpuScatterIndex, uploadScatterIndex } from "../kernels/embedding_index";
import type { BackwardOptions } from "./backward";
import type { GPTConfig } from "./config";

/**
 * Owns a trainer's token and position scatter-index tensors on ctx, kept and grown across steps; the trainer
 * that makes it destroys it (destroy() frees them; a later upload makes new ones). `indexes` throws Error
 * before the first upload.
 */
export class BatchIndex {
  private tok?: GpuScatterIndex;
  private pos?: GpuScatterIndex;

  /** `label` names the tensors (`${label}.tok.rowIds`, …). */
  constructor(
    private readonly ctx: GpuContext,
    private readonly label: string,
  ) {}

  /**
   * Upload the indexes of a batch: `tokens` [N] token ids (ids outside [0, V) are skipped) and `positions` [N]
   * position ids of the model `config`.
   * @returns them as gptBackward takes them.
   */
  upload(
    tokens: ArrayLike<number>,
    positions: ArrayLike<number>,
    config: Pick<GPTConfig, "vocabSize" | "contextLength">,
  ): Pick<BackwardOptions, "tokenIndex" | "positionIndex"> {
    const { ctx, label } = this;
    this.tok = uploadScatterIndex(ctx, buildScatterIndex(tokens, config.vocabSize), `${label}.tok`, this.tok);
    this.pos = uploadScatterIndex(
      ctx,
      buildScatterIndex(positions, config.contextLength),
      `${label}.pos`,
      this.pos,
    );
    return this.indexes;
  }

  /**
   * The last upload's indexes.
   * @throws Error before the first upload.
   */
  get indexes(): Pick<BackwardOptions, "tokenIndex" | "positionIndex"> {
    if (!this.tok || !this.pos) throw new Error(`${this.label}: no batch index uploaded yet`);
    return { tokenIndex: this.tok, positionIndex: this.pos };
  }

  destroy(): void {
    for (const idx of [this.tok, this.pos])
      if (idx) for (const t of [idx.rowIds, idx.offsets, idx.positions]) t.destroy();
    this.tok = undefined;
    this.pos = undefined;
  }
}
