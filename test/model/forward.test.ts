import { describe, it } from "vitest";
import { GptActivations } from "../../src/model/activations";
import { leftPadBatch } from "../../src/model/batch";
import { preset } from "../../src/model/config";
import { gptForward } from "../../src/model/forward";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { gptForwardRef } from "../../src/reference/gpt";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";

/** Whole-model f32 vs float64: a few layers of ~C-term dot products, LayerNorm and softmax; weights std 0.1. */
const TOL = { atol: 2e-4, rtol: 1e-3 };

describe("GPT forward vs float64 reference", () => {
  for (const tied of [true, false])
    it(`matches logits, values and rewards (nano, tied=${tied}, left padding)`, async () => {
      const ctx = await testGpu();
      const config = preset("nano", { vocabSize: 37, tiedEmbeddings: tied });
      const layout = paramLayout(config);
      const rng = new Rng(42);
      // Larger-than-init weights so every block matters numerically.
      const params = initParams(layout, () => rng.normal()).map((v) => v * 3);
      const w = new GptWeights(ctx, config, params);
      const seqs = [
        [1, 2, 3, 4, 5, 6, 7],
        [9, 8],
        [5, 5, 5, 5, 5, 5, 5],
      ];
      const batch = leftPadBatch(seqs, 7, 0);
      const acts = new GptActivations(ctx, config, batch.B, batch.T);
      ctx.upload(acts.tokens, batch.tokens);
      ctx.upload(acts.positions, batch.positions);
      ctx.upload(acts.keyMask, batch.keyMask);
      gptForward(ctx, w, acts);
      const ref = gptForwardRef(config, layout, params, batch);
      expectClose("logits", await ctx.read(acts.logits), ref.logits, TOL);
      expectClose("values", await ctx.read(acts.values), ref.values, TOL);
      expectClose("lnf", await ctx.read(acts.lnf), ref.hidden, TOL);
      acts.destroy();
      w.destroy();
    });
});
