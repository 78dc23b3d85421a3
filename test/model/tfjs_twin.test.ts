/**
 * Independent implementation check: the same GPT written with TF.js ops (cli/bench/tfjs-gpt.ts), run by TF.js's
 * WebGPU backend on our device, with gradients from TF.js autodiff, against our WGSL forward and backward
 * passes. Complements the float64 finite-difference test (test/model/backward.test.ts), which samples a few
 * entries per tensor: here every entry of every parameter tensor is compared.
 */
import { describe, expect, it } from "vitest";
import {
  disposeTfGpt,
  TfAdamTrainer,
  tfGptForward,
  tfGptFromFlat,
  tfLossAndGrads,
  tfParamsFlat,
} from "../../cli/bench/tfjs-gpt";
import { tfjsOnDevice } from "../../cli/bench/tfjs-peer";
import { crossEntropy } from "../../src/kernels/cross_entropy";
import { buildScatterIndex, uploadScatterIndex } from "../../src/kernels/embedding_index";
import { reduceRows } from "../../src/kernels/reduce";
import { GptActivations } from "../../src/model/activations";
import { gptBackward, zeroGrads } from "../../src/model/backward";
import { leftPadBatch } from "../../src/model/batch";
import { preset } from "../../src/model/config";
import { gptForward } from "../../src/model/forward";
import { initParams, paramLayout } from "../../src/model/params";
import { nextTokenTargets, SftTrainer } from "../../src/model/sft";
import { GptWeights } from "../../src/model/weights";
import { gptForwardRef } from "../../src/reference/gpt";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";

/**
 * f32 vs f32, two implementations with different summation orders (tiled matmuls, fused vs op-by-op softmax and
 * LayerNorm): each side rounds ~C- to 4C-term sums at ~1e-7 relative, amplified a little through 2 blocks.
 */
const LOGIT_TOL = { atol: 1e-5, rtol: 1e-3 };
/** Same reasoning for gradients: largest entries ~1e-1, errors ~1e-7 of the largest terms summed over N rows. */
const GRAD_TOL = { atol: 1e-5, rtol: 1e-3 };
/** Mean cross-entropy plus the head terms, a few nats: f32 sums over N·V terms. */
const LOSS_ATOL = 1e-5;
/** The twin itself vs the float64 reference: f32 through 2 blocks, as test/model/forward.test.ts. */
const REF_TOL = { atol: 2e-4, rtol: 1e-3 };
/**
 * Adam's first step moves θ by −lr·g/(|g| + eps) ≈ −lr·sign(g): compared (in units of lr) only where |g| is far
 * above both eps and the two implementations' gradient difference (≤ ~1e-5, see GRAD_TOL), so the sign is
 * certain; what is left is f32 rounding of the update and of the bias corrections (TF.js: f32; ours: f64).
 */
const ADAM_GRAD_FLOOR = 1e-4;
const ADAM_STEP_TOL = { atol: 1e-4, rtol: 0 };

describe("GPT vs a TF.js twin (TF.js WebGPU on our device, autodiff gradients)", () => {
  for (const tied of [true, false])
    it(`logits, loss and every parameter gradient (nano, tied=${tied}, left padding)`, async () => {
      const ctx = await testGpu();
      const tf = await tfjsOnDevice(ctx);
      const config = preset("nano", { tiedEmbeddings: tied });
      const layout = paramLayout(config);
      const rng = new Rng(11);
      // Larger-than-init weights so every block matters numerically (as in forward/backward tests).
      const params = initParams(layout, () => rng.normal()).map((v) => v * 3);
      const V = config.vocabSize;
      const seqs = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [9, 8, 60], [5, 63, 5, 0, 5, 5], [17]];
      const batch = leftPadBatch(seqs, 9, 0);
      const N = batch.B * batch.T;
      const targets = nextTokenTargets(batch);
      const count = targets.filter((t) => t >= 0).length;
      // Linear head terms on EVERY position, padding included: a padding query sees no key (zero attention
      // output), so its gradient reaches the parameters only through the residual stream and the embeddings.
      const dvalues = Float32Array.from({ length: N }, () => rng.normal() * 0.5);
      const drewards = Float32Array.from({ length: N }, () => rng.normal() * 0.5);

      // Ours: forward, fused cross-entropy, head gradients, backward.
      const w = new GptWeights(ctx, config, params);
      const acts = new GptActivations(ctx, config, batch.B, batch.T);
      ctx.upload(acts.tokens, batch.tokens);
      ctx.upload(acts.positions, batch.positions);
      ctx.upload(acts.keyMask, batch.keyMask);
      ctx.upload(acts.dvalues, dvalues);
      ctx.upload(acts.drewards, drewards);
      const tgt = ctx.tensor([N], "i32", "targets", targets);
      const lossRows = ctx.tensor([N], "f32", "loss");
      const lossSum = ctx.tensor([1], "f32", "loss.sum");
      zeroGrads(ctx, w);
      gptForward(ctx, w, acts);
      crossEntropy(ctx, lossRows, acts.dlogits, acts.logits, tgt, { scale: 1 / count });
      reduceRows(ctx, "sum", lossSum, lossRows.reshape([1, N]));
      gptBackward(ctx, w, acts, {
        tokenIndex: uploadScatterIndex(ctx, buildScatterIndex(batch.tokens, V), "tok"),
        positionIndex: uploadScatterIndex(
          ctx,
          buildScatterIndex(batch.positions, config.contextLength),
          "pos",
        ),
        valueHead: true,
        rewardHead: true,
      });
      const [logits, values, rewards, grads, ce] = await Promise.all([
        ctx.read(acts.logits),
        ctx.read(acts.values),
        ctx.read(acts.rewards),
        ctx.read(w.grads.flat),
        ctx.read(lossSum),
      ]);
      let ours = ce[0] / count;
      for (let n = 0; n < N; n++) ours += dvalues[n] * values[n] + drewards[n] * rewards[n];

      // TF.js: the same parameters as variables, autodiff of the same loss.
      const m = await tfGptFromFlat(tf, config, params);
      const out = tfGptForward(m, batch);
      expectClose("logits ours vs TF.js", logits, await out.logits.data(), LOGIT_TOL);
      expectClose("values ours vs TF.js", values, await out.values.data(), LOGIT_TOL);
      expectClose("rewards ours vs TF.js", rewards, await out.rewards.data(), LOGIT_TOL);
      const ref = gptForwardRef(config, layout, params, batch);
      expectClose("logits TF.js vs float64 reference", await out.logits.data(), ref.logits, REF_TOL);
      for (const t of Object.values(out)) t.dispose();
      const twin = await tfLossAndGrads(m, batch, { targets, dvalues, drewards });
      console.log(`loss ours ${ours} TF.js ${twin.loss}`);
      expect(Math.abs(ours - twin.loss)).toBeLessThan(LOSS_ATOL);

      // Every parameter tensor, every entry; and each tensor's gradient carries signal.
      for (const s of layout.specs) {
        const n = s.shape.reduce((a, b) => a * b, 1);
        const g = grads.subarray(s.offset, s.offset + n);
        const r = twin.grads.subarray(s.offset, s.offset + n);
        expectClose(`∇ ${s.name}`, g, r, GRAD_TOL);
        expect(
          r.some((v) => v !== 0),
          `${s.name}: TF.js gradient identically 0`,
        ).toBe(true);
      }
      disposeTfGpt(m);
      for (const t of [tgt, lossRows, lossSum]) t.destroy();
      acts.destroy();
      w.destroy();
    });

  it("one Adam step: SftTrainer (weight decay 0, no clipping) moves θ as TF.js's Adam does (nano)", async () => {
    const ctx = await testGpu();
    const tf = await tfjsOnDevice(ctx);
    const config = preset("nano");
    const layout = paramLayout(config);
    const rng = new Rng(3);
    const params = initParams(layout, () => rng.normal()).map((v) => v * 3);
    const batch = leftPadBatch(
      [
        [4, 8, 15, 16, 23, 42],
        [1, 2, 3],
        [7, 7],
      ],
      6,
      0,
    );
    const targets = nextTokenTargets(batch);
    const lr = 1e-3;
    const m = await tfGptFromFlat(tf, config, params);
    const { grads } = await tfLossAndGrads(m, batch, { targets });
    const tfTrainer = new TfAdamTrainer(m, { lr });
    const tfLoss = await tfTrainer.step(batch, targets);
    const tfAfter = await tfParamsFlat(m);
    const w = new GptWeights(ctx, config, params);
    const trainer = new SftTrainer(ctx, w, batch.B, batch.T);
    const ours = await trainer.step(batch, targets, { lr, weightDecay: 0, maxGradNorm: 0 });
    const oursAfter = await w.download();
    console.log(`loss before the step: ours ${ours.loss} TF.js ${tfLoss}`);
    expect(Math.abs(ours.loss - tfLoss)).toBeLessThan(LOSS_ATOL);
    // The heads get no gradient from this loss: neither optimizer moves them. (Entries whose gradient is 0 only
    // mathematically, e.g. the key bias — softmax ignores a per-row shift — carry f32 noise that Adam scales up
    // to ~lr on either side, so "g = 0" is decided by structure, not by value.)
    for (const s of layout.specs)
      if (s.name.startsWith("value_head") || s.name.startsWith("reward_head"))
        for (let i = s.offset; i < s.offset + s.shape.reduce((a, b) => a * b, 1); i++) {
          expect(oursAfter[i], `${s.name} ours`).toBe(params[i]);
          expect(tfAfter[i], `${s.name} TF.js`).toBe(params[i]);
        }
    const dOurs: number[] = [];
    const dTf: number[] = [];
    for (let i = 0; i < layout.size; i++)
      if (Math.abs(grads[i]) > ADAM_GRAD_FLOOR) {
        dOurs.push((oursAfter[i] - params[i]) / lr);
        dTf.push((tfAfter[i] - params[i]) / lr);
      }
    console.log(`compared ${dOurs.length} of ${layout.count} parameters (|g| > ${ADAM_GRAD_FLOOR})`);
    expect(dOurs.length).toBeGreaterThan(layout.count / 2);
    expectClose("Δθ/lr ours vs TF.js Adam", dOurs, dTf, ADAM_STEP_TOL);
    tfTrainer.dispose();
    disposeTfGpt(m);
    trainer.destroy();
    w.destroy();
  });
});
