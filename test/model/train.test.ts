import { describe, expect, it } from "vitest";
import { leftPadBatch } from "../../src/model/batch";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { nextTokenTargets, SftTrainer } from "../../src/model/sft";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { testGpu } from "../helpers/gpu";

/** Four fixed sequences over a 16-token vocabulary; memorising them drives the loss well below ln 16 ≈ 2.77. */
const SEQS = [
  [1, 5, 9, 2, 7, 3, 3, 8, 1, 4],
  [2, 2, 6, 10, 14, 1, 9, 9],
  [15, 0, 15, 0, 15, 0, 12],
  [3, 1, 4, 1, 5, 9, 2, 6, 5, 3],
];
const OVERFIT_STEPS = 60;
/** Stated bound: the mean next-token loss on the 4 sequences after 60 AdamW steps at lr 1e-2 (seed 1). */
const OVERFIT_BOUND = 0.25;

describe("training step (SFT cross-entropy + AdamW)", () => {
  it("changes every parameter tensor after one step", async () => {
    const ctx = await testGpu();
    const config = preset("nano", { vocabSize: 16, tiedEmbeddings: false });
    const layout = paramLayout(config);
    const rng = new Rng(1);
    const init = initParams(layout, () => rng.normal());
    const w = new GptWeights(ctx, config, init);
    const batch = leftPadBatch(SEQS, 10, 0);
    const trainer = new SftTrainer(ctx, w, batch.B, batch.T);
    // The value and reward heads get no gradient from this loss; AdamW's weight decay still moves their weights.
    const m = await trainer.step(batch, nextTokenTargets(batch), { lr: 1e-3 });
    expect(Number.isFinite(m.loss) && m.gradNorm > 0).toBe(true);
    const after = await w.download();
    const unchanged = layout.specs
      .filter((s) => !s.name.startsWith("value_head.bias") && !s.name.startsWith("reward_head.bias"))
      .filter((s) => {
        const n = s.shape.reduce((a, b) => a * b, 1);
        for (let i = 0; i < n; i++) if (after[s.offset + i] !== init[s.offset + i]) return false;
        return true;
      })
      .map((s) => s.name);
    expect(unchanged).toEqual([]);
    trainer.destroy();
    w.destroy();
  });

  it(`overfits 4 fixed sequences below ${OVERFIT_BOUND} nats within ${OVERFIT_STEPS} steps`, async () => {
    const ctx = await testGpu();
    const config = preset("nano", { vocabSize: 16 });
    const rng = new Rng(1);
    const w = new GptWeights(
      ctx,
      config,
      initParams(paramLayout(config), () => rng.normal()),
    );
    const batch = leftPadBatch(SEQS, 10, 0);
    const targets = nextTokenTargets(batch);
    const trainer = new SftTrainer(ctx, w, batch.B, batch.T);
    const losses: number[] = [];
    for (let i = 0; i < OVERFIT_STEPS; i++)
      losses.push((await trainer.step(batch, targets, { lr: 1e-2, weightDecay: 0 })).loss);
    console.log(
      `loss: ${losses
        .filter((_, i) => i % 10 === 0 || i === OVERFIT_STEPS - 1)
        .map((l) => l.toFixed(3))
        .join(" → ")}`,
    );
    expect(losses[0]).toBeGreaterThan(2.5);
    expect(losses[OVERFIT_STEPS - 1]).toBeLessThan(OVERFIT_BOUND);
    trainer.destroy();
    w.destroy();
  });

  it("masks prompt positions: only the completion carries loss", () => {
    const batch = leftPadBatch(
      [
        [1, 2, 3, 4],
        [5, 6],
      ],
      5,
      0,
    );
    expect([...nextTokenTargets(batch, [2, 1])]).toEqual([-1, -1, 3, 4, -1, -1, -1, -1, 6, -1]);
  });
});
