import { describe, expect, it } from "vitest";
import { bradleyTerryLossAndGrad } from "../../src/algorithms/math/reward_model";
import { preset } from "../../src/model/config";
import { initParams, paramLayout, spec } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { gptForwardRef } from "../../src/reference/gpt";
import {
  pairBatch,
  RewardModelScorer,
  RewardModelTrainer,
  type TokenPair,
} from "../../src/rewards/rm_trainer";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";
import { nanoRm, randomSeqs } from "./nano_rm";

/** Whole training runs on nano: ~30 s alone on a CPU adapter, several times that on a busy machine. */
const SLOW_TEST_MS = 600_000;

const PAD = 0;
/** f32 backprop through 2 blocks vs float64 central differences (as test/model/backward.test.ts). */
const GRAD_TOL = { atol: 2e-5, rtol: 2e-3 };
/** f32 scores O(1–10) through the BT loss vs float64. */
const LOSS_TOL = { atol: 2e-5, rtol: 1e-5 };
const SAMPLES_PER_TENSOR = 4;
const REWARD_TOKEN = 7;

/** Pairs where the preferred sequence holds more REWARD_TOKENs (ties dropped). */
function tokenPairs(rng: Rng, n: number, V: number): TokenPair[] {
  const out: TokenPair[] = [];
  const count = (s: number[]) => s.filter((t) => t === REWARD_TOKEN).length;
  while (out.length < n) {
    const [a, b] = randomSeqs(rng, 2, 3, 10, V);
    if (count(a) === count(b)) continue;
    out.push(count(a) > count(b) ? { chosen: a, rejected: b } : { chosen: b, rejected: a });
  }
  return out;
}

describe("reward-model training step (Bradley–Terry on the GPU)", () => {
  it(
    "loss = float64 BT loss of the scores; gradients = float64 finite differences (η = 0.1)",
    async () => {
      const ctx = await testGpu();
      const { config, params } = nanoRm(11, 37, 1);
      const layout = paramLayout(config);
      const rng = new Rng(5);
      const pairs: TokenPair[] = Array.from({ length: 3 }, () => {
        const [chosen, rejected] = randomSeqs(rng, 2, 2, 8, config.vocabSize);
        return { chosen, rejected };
      });
      const eta = 0.1;
      const { batch, index } = pairBatch(pairs, config.contextLength, PAD);
      const head = spec(layout, "reward_head.weight");
      const refLoss = (theta: ArrayLike<number>) => {
        const { hidden } = gptForwardRef(config, layout, theta, batch);
        const C = config.nEmbd;
        const score = (row: number) => {
          let r = theta[spec(layout, "reward_head.bias").offset];
          for (let c = 0; c < C; c++) r += hidden[row * C + c] * theta[head.offset + c];
          return r;
        };
        const r = Array.from(index, score);
        return bradleyTerryLossAndGrad(r.slice(0, 3), r.slice(3), eta).loss;
      };

      const w = new GptWeights(ctx, config, params);
      const scorer = new RewardModelScorer(ctx, w, PAD);
      const rw = await scorer.score(pairs.map((p) => p.chosen));
      const rl = await scorer.score(pairs.map((p) => p.rejected));
      const trainer = new RewardModelTrainer(ctx, w, PAD);
      const m = await trainer.step(pairs, { lr: 0, centerRewardsCoefficient: eta });
      const math = bradleyTerryLossAndGrad(rw, rl, eta);
      expectClose(
        "loss, accuracy, margin",
        [m.loss, m.accuracy, m.margin],
        [math.loss, math.metrics.accuracy, math.metrics.margin],
        LOSS_TOL,
      );
      expect(Math.abs(m.loss - refLoss(params))).toBeLessThan(1e-4);

      const grads = await ctx.read(w.grads.flat);
      const theta = Float64Array.from(params);
      const h = 1e-5;
      const gpu: number[] = [];
      const fd: number[] = [];
      for (const s of layout.specs) {
        if (s.name.startsWith("value_head")) continue; // no loss term uses it
        const n = s.shape.reduce((a, b) => a * b, 1);
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
          fd.push((up - down) / (2 * h));
          gpu.push(grads[k]);
        }
      }
      expectClose(`∇θ over ${gpu.length} entries`, gpu, fd, GRAD_TOL);
      trainer.destroy();
      scorer.destroy();
      w.destroy();
    },
    SLOW_TEST_MS,
  );

  it("one step moves every transformer tensor and the reward head", async () => {
    const ctx = await testGpu();
    const config = preset("nano", { vocabSize: 16 });
    const layout = paramLayout(config);
    const rng = new Rng(2);
    const init = initParams(layout, () => rng.normal());
    const w = new GptWeights(ctx, config, init);
    const trainer = new RewardModelTrainer(ctx, w, PAD);
    const m = await trainer.step(tokenPairs(rng, 4, 16), { lr: 1e-3 });
    expect(Number.isFinite(m.loss) && m.gradNorm > 0).toBe(true);
    const after = await w.download();
    const unchanged = layout.specs
      .filter((s) => !s.name.startsWith("value_head"))
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

  it(
    "learns synthetic preferences on nano (held-out accuracy ≥ 0.85 after 40 steps)",
    async () => {
      const ctx = await testGpu();
      const V = 16;
      const config = preset("nano", { vocabSize: V });
      const rng = new Rng(3);
      const w = new GptWeights(
        ctx,
        config,
        initParams(paramLayout(config), () => rng.normal()),
      );
      const trainer = new RewardModelTrainer(ctx, w, PAD);
      const train = tokenPairs(rng, 320, V);
      const heldOut = tokenPairs(rng, 64, V);
      const scorer = new RewardModelScorer(ctx, w, PAD, 64);
      const accuracy = async () => {
        const rw = await scorer.score(heldOut.map((p) => p.chosen));
        const rl = await scorer.score(heldOut.map((p) => p.rejected));
        return rw.filter((r, i) => r > rl[i]).length / heldOut.length;
      };
      const before = await accuracy();
      let last = { loss: 0, accuracy: 0 };
      for (let step = 0; step < 40; step++)
        last = await trainer.step(train.slice(step * 8, step * 8 + 8), { lr: 5e-3, weightDecay: 0 });
      const after = await accuracy();
      console.log(
        `held-out accuracy ${before.toFixed(3)} → ${after.toFixed(3)}; last train loss ${last.loss.toFixed(3)}`,
      );
      expect(after).toBeGreaterThanOrEqual(0.85);
      trainer.destroy();
      scorer.destroy();
      w.destroy();
    },
    SLOW_TEST_MS,
  );
});
