import { describe, expect, it } from "vitest";
import { crossEntropy } from "../../src/kernels/cross_entropy";
import { buildScatterIndex, uploadScatterIndex } from "../../src/kernels/embedding_index";
import { reduceRows } from "../../src/kernels/reduce";
import { GptActivations } from "../../src/model/activations";
import { gptBackward, zeroGrads } from "../../src/model/backward";
import { leftPadBatch } from "../../src/model/batch";
import { preset } from "../../src/model/config";
import { gptForward } from "../../src/model/forward";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { crossEntropyRef, gptForwardRef } from "../../src/reference/gpt";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";

/**
 * f32 backprop through 2 blocks vs float64 central differences (h = 1e-5, truncation ~h² negligible): errors are
 * f32 rounding of ~C-term sums. Measured: ≤ 6e-6 absolute on the largest entries, ~2e-8 on entries near 0 (worst
 * 0.1× this bound), so atol is tight enough that small gradients are checked too.
 */
const GRAD_TOL = { atol: 2e-7, rtol: 2e-3 };
/** Elements checked per parameter tensor (all of them for tensors this small or smaller). */
const SAMPLES_PER_TENSOR = 6;

describe("GPT backward: whole-model gradients vs float64 finite differences", () => {
  for (const tied of [true, false])
    it(`cross-entropy + value-head loss, nano, tied=${tied}, left padding`, async () => {
      const ctx = await testGpu();
      const config = preset("nano", { vocabSize: 37, tiedEmbeddings: tied });
      const layout = paramLayout(config);
      const rng = new Rng(7);
      const params = initParams(layout, () => rng.normal()).map((v) => v * 3);
      const seqs = [
        [1, 2, 3, 4, 5, 6, 7],
        [9, 8, 30],
        [5, 36, 5, 0, 5, 5, 5],
      ];
      const batch = leftPadBatch(seqs, 7, 0);
      const N = batch.B * batch.T;
      // Next-token targets on real positions that have a successor; −1 elsewhere.
      const targets = new Int32Array(N).fill(-1);
      for (let n = 0; n < N - 1; n++)
        if (batch.keyMask[n] && batch.keyMask[n + 1] && (n + 1) % batch.T) targets[n] = batch.tokens[n + 1];
      const count = targets.filter((t) => t >= 0).length;
      // A linear loss on the value head, Σ_n c_n·V_n, over real positions.
      const c = Float32Array.from({ length: N }, (_, n) => (batch.keyMask[n] ? rng.normal() * 0.5 : 0));
      const refLoss = (theta: ArrayLike<number>) => {
        const out = gptForwardRef(config, layout, theta, batch);
        let l = crossEntropyRef(out.logits, targets, config.vocabSize);
        for (let n = 0; n < N; n++) l += c[n] * out.values[n];
        return l;
      };

      const w = new GptWeights(ctx, config, params);
      const acts = new GptActivations(ctx, config, batch.B, batch.T);
      ctx.upload(acts.tokens, batch.tokens);
      ctx.upload(acts.positions, batch.positions);
      ctx.upload(acts.keyMask, batch.keyMask);
      const tgt = ctx.tensor([N], "i32", "targets", targets);
      const loss = ctx.tensor([N], "f32", "loss");
      const lossSum = ctx.tensor([1], "f32", "loss.sum");
      ctx.upload(acts.dvalues, c);
      zeroGrads(ctx, w);
      gptForward(ctx, w, acts);
      crossEntropy(ctx, loss, acts.dlogits, acts.logits, tgt, { scale: 1 / count });
      reduceRows(ctx, "sum", lossSum, loss.reshape([1, N]));
      gptBackward(ctx, w, acts, {
        tokenIndex: uploadScatterIndex(ctx, buildScatterIndex(batch.tokens, config.vocabSize), "tok"),
        positionIndex: uploadScatterIndex(
          ctx,
          buildScatterIndex(batch.positions, config.contextLength),
          "pos",
        ),
        valueHead: true,
      });
      const grads = await ctx.read(w.grads.flat);
      const ceGpu = (await ctx.read(lossSum))[0] / count;
      const ref = gptForwardRef(config, layout, params, batch);
      expect(Math.abs(ceGpu - crossEntropyRef(ref.logits, targets, config.vocabSize))).toBeLessThan(1e-5);

      const theta = Float64Array.from(params);
      const h = 1e-5;
      const gpuSample: number[] = [];
      const fdSample: number[] = [];
      const names: string[] = [];
      for (const s of layout.specs) {
        const n = s.shape.reduce((a, b) => a * b, 1);
        if (s.name === "reward_head.weight" || s.name === "reward_head.bias") continue; // no loss term uses it
        const picks =
          n <= SAMPLES_PER_TENSOR
            ? [...Array(n).keys()]
            : Array.from({ length: SAMPLES_PER_TENSOR }, () => rng.int(0, n - 1));
        for (const i of picks) {
          const k = s.offset + i;
          const keep = theta[k];
          theta[k] = keep + h;
          const up = refLoss(theta);
          theta[k] = keep - h;
          const down = refLoss(theta);
          theta[k] = keep;
          fdSample.push((up - down) / (2 * h));
          gpuSample.push(grads[k]);
          names.push(`${s.name}[${i}]`);
        }
      }
      console.log(`checked ${fdSample.length} gradient entries over ${layout.specs.length - 2} tensors`);
      expectClose(`∇θ (tied=${tied})`, gpuSample, fdSample, GRAD_TOL);
      // Some real signal everywhere: no tensor's sampled gradient is identically zero.
      const byTensor = new Map<string, number>();
      names.forEach((nm, i) => {
        const t = nm.slice(0, nm.indexOf("["));
        byTensor.set(t, Math.max(byTensor.get(t) ?? 0, Math.abs(fdSample[i])));
      });
      for (const [t, m] of byTensor) if (!t.startsWith("wpe")) expect(m, t).toBeGreaterThan(0);
      acts.destroy();
      w.destroy();
    });
});
