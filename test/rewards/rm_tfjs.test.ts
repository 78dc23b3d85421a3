/**
 * The TF.js reward-model step (scripts/train-rm/tfjs-rm.ts, what `npm run train-rm` trains the shipped proxy
 * with on a CPU) against the float64 Bradley–Terry math and against the WGSL RewardModelTrainer it stands in for.
 */
import { describe, expect, it } from "vitest";
import { disposeTfGpt, registerTfGradients, tfGptFromFlat, toFlat } from "../../cli/bench/tfjs-gpt";
import { tfjsWasm } from "../../scripts/pretrain/tfjs-wasm";
import { TfRewardModelTrainer, tfBradleyTerry, tfRmLoss } from "../../scripts/train-rm/tfjs-rm";
import { bradleyTerryLossAndGrad } from "../../src/algorithms/math/reward_model";
import { paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { RewardModelScorer, RewardModelTrainer, type TokenPair } from "../../src/rewards/rm_trainer";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";
import { nanoRm, randomSeqs } from "./nano_rm";

const PAD = 0;
const SLOW_TEST_MS = 300_000;

describe("TF.js Bradley–Terry loss (train-rm's CPU backend)", () => {
  it("loss and dL/dr equal the float64 math (η = 0 and 0.3)", async () => {
    const { tf } = await tfjsWasm(1);
    await registerTfGradients(tf);
    const rng = new Rng(3);
    for (const eta of [0, 0.3]) {
      const B = 7;
      const r = Array.from({ length: 2 * B }, () => 4 * rng.normal());
      const ref = bradleyTerryLossAndGrad(r.slice(0, B), r.slice(B), eta);
      const x = tf.tensor1d(r);
      const { value, grad } = tf.valueAndGrad((s) => tfBradleyTerry(tf, s as never, eta))(x);
      const g = Array.from(await grad.data());
      const refGrad = [...ref.dChosen, ...ref.dRejected];
      expectClose(`BT loss η=${eta}`, [(await value.data())[0]], [ref.loss], { atol: 1e-6, rtol: 1e-5 });
      expectClose(`dL/dr η=${eta}`, g, refGrad, { atol: 1e-7, rtol: 1e-5 });
      for (const t of [x, value, grad]) t.dispose();
    }
    expect(() => tfBradleyTerry(tf, tf.tensor1d([1, 2, 3]))).toThrow(/need 2B scores/);
    expect(() => tfBradleyTerry(tf, tf.tensor1d([1, 2]), -1)).toThrow(/η must be ≥ 0/);
  });

  it(
    "∇θ of the BT loss through the model = the WGSL backward's (η = 0.05, left-padded pairs)",
    async () => {
      const { tf } = await tfjsWasm(1);
      const ctx = await testGpu();
      const { config, params } = nanoRm(4, 37, 1);
      const pairs = randomPairs(new Rng(9), 5, config.vocabSize);
      const eta = 0.05;
      const w = new GptWeights(ctx, config, params);
      const gpu = new RewardModelTrainer(ctx, w, PAD);
      const a = await gpu.step(pairs, { lr: 0, centerRewardsCoefficient: eta });
      const ours = await ctx.read(w.grads.flat);
      const m = await tfGptFromFlat(tf, config, params);
      const { value, grads } = tf.variableGrads(() => tfRmLoss(m, pairs, PAD, eta), [...m.vars.values()]);
      const theirs = await toFlat(m.layout, (name) => grads[m.vars.get(name)!.name]);
      expectClose("BT loss", [(await value.data())[0]], [a.loss], { atol: 1e-6, rtol: 1e-5 });
      // Both f32, different summation orders (as the shipped-checkpoint logits test): ~1e-6 of the largest.
      expectClose("∇θ TF.js autodiff vs WGSL backward", theirs, ours, { atol: 1e-6, rtol: 1e-4 });
      expect(Math.max(...ours.map(Math.abs))).toBeGreaterThan(1e-2); // real gradients, not all ~0
      value.dispose();
      for (const g of Object.values(grads)) g.dispose();
      disposeTfGpt(m);
      gpu.destroy();
      w.destroy();
    },
    SLOW_TEST_MS,
  );

  it(
    "three AdamW steps follow the WGSL trainer's loss, accuracy and gradient norm (η = 0.05)",
    async () => {
      const { tf } = await tfjsWasm(1);
      const ctx = await testGpu();
      const { config, params } = nanoRm(4, 37, 1);
      const rng = new Rng(10);
      const batches = Array.from({ length: 3 }, () => randomPairs(rng, 5, config.vocabSize));
      const hyper = { lr: 1e-3, centerRewardsCoefficient: 0.05 };
      const w = new GptWeights(ctx, config, params);
      const gpu = new RewardModelTrainer(ctx, w, PAD);
      const twin = await TfRewardModelTrainer.create(tf, config, params, PAD);
      for (const [k, pairs] of batches.entries()) {
        const a = await gpu.step(pairs, hyper);
        const b = await twin.step(pairs, hyper);
        // Steps 2 and 3 see the weights the earlier steps made: a wrong update shows here.
        expectClose(
          `step ${k + 1} loss, accuracy, grad norm`,
          [b.loss, b.accuracy, b.gradNorm],
          [a.loss, a.accuracy, a.gradNorm],
          { atol: 1e-5, rtol: 1e-4 },
        );
      }
      const [ours, theirs] = [await w.download(), await twin.params()];
      // Moved weights, not the start: every step changed them by ~lr.
      const moved = ours.reduce((m, v, i) => Math.max(m, Math.abs(v - params[i])), 0);
      expect(moved).toBeGreaterThan(1e-3);
      // Adam's step lr·m̂/(√v̂ + ε) has size ~lr whatever |g|: where |g| is near its f32 rounding noise, the two
      // implementations' steps differ by a fair part of lr. The extreme case is the attention key bias: it adds
      // q·b_k to all of a query's scores, which softmax ignores, so its gradient is 0 in exact arithmetic and pure
      // noise here (steps of ~lr either way; only the final atol-lr bound applies to it). Every other weight
      // agrees within lr/10 (measured: 3.3e-5 at worst, one MLP weight; most within 1e-6). A tensor updated with
      // a wrong gradient, or not at all, is off by ~lr.
      const C = config.nEmbd;
      const isKeyBias = (name: string, i: number) => name.endsWith("attn.c_attn.bias") && i >= C && i < 2 * C;
      let checked = 0;
      for (const t of paramLayout(config).specs) {
        const n = t.shape.reduce((a, b) => a * b, 1);
        const off: string[] = [];
        for (let i = 0; i < n; i++) {
          if (isKeyBias(t.name, i)) continue;
          const [a, b] = [ours[t.offset + i], theirs[t.offset + i]];
          checked++;
          if (Math.abs(a - b) > hyper.lr / 10 + 1e-4 * Math.abs(a)) off.push(`${i}: ${a} vs ${b}`);
        }
        expect(off, t.name).toEqual([]);
      }
      console.log(`weights after 3 steps: all ${checked} but the key biases within lr/10 (+1e-4 relative)`);
      expectClose("weights after 3 steps, TF.js vs WGSL", theirs, ours, { atol: hyper.lr, rtol: 0 });
      twin.dispose();
      gpu.destroy();
      w.destroy();
    },
    SLOW_TEST_MS,
  );
});

describe("TF.js reward-model scores (train-rm's accuracies on its CPU backend)", () => {
  it("equal the WGSL scorer's on left-padded chunks, including sequences longer than the context", async () => {
    const { tf } = await tfjsWasm(1);
    const ctx = await testGpu();
    const { config, params } = nanoRm(6);
    const rng = new Rng(12);
    // 37 sequences: two chunks of 32 and 5; some longer than nano's context (cut from the left).
    const seqs = randomSeqs(rng, 37, 1, config.contextLength + 6, config.vocabSize);
    const w = new GptWeights(ctx, config, params);
    const scorer = new RewardModelScorer(ctx, w, PAD);
    const twin = await TfRewardModelTrainer.create(tf, config, params, PAD);
    const [ours, theirs] = [await scorer.score(seqs), await twin.score(seqs)];
    expect(Math.max(...ours.map(Math.abs))).toBeGreaterThan(1); // headScale 10: scores of O(1–10)
    expectClose("scores TF.js vs WGSL", Array.from(theirs), Array.from(ours), { atol: 2e-5, rtol: 1e-4 });
    twin.dispose();
    scorer.destroy();
    w.destroy();
  });
});

function randomPairs(rng: Rng, n: number, V: number): TokenPair[] {
  return Array.from({ length: n }, () => {
    const [chosen, rejected] = randomSeqs(rng, 2, 2, 11, V);
    return { chosen, rejected };
  });
}
