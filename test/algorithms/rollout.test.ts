import { describe, expect, it } from "vitest";
import { tokenShareReward } from "../../src/algorithms/reward";
import { RolloutEngine } from "../../src/algorithms/rollout";
import { layoutSequences } from "../../src/algorithms/sequences";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";

/** The same f32 kernels on differently padded inputs: sums in another order, ~1e-6 relative. */
const PAD_TOL = { atol: 1e-5, rtol: 1e-4 };

async function setup() {
  const ctx = await testGpu();
  const config = preset("nano", { vocabSize: 24 });
  const layout = paramLayout(config);
  const rng = new Rng(3);
  const p0 = initParams(layout, () => rng.normal()).map((v) => v * 4);
  const policy = new GptWeights(ctx, config, p0);
  // A reference that differs from the policy, so the KL is not zero.
  const ref = new GptWeights(
    ctx,
    config,
    p0.map((v) => v + 0.05 * rng.normal()),
  );
  return { ctx, config, policy, ref };
}

describe("rollout engine", () => {
  it("samples, measures and scores a batch with masks from true lengths", async () => {
    const { ctx, policy, ref } = await setup();
    const engine = new RolloutEngine(ctx, policy, ref, 3, 4, 6);
    const prompts = [[1, 2, 3], [4], [5, 6, 7, 8]];
    const r = await engine.collect(prompts, {
      temperature: 0.8,
      topK: 0,
      seed: 9,
      eosId: 0,
      padId: 23,
      reward: tokenShareReward(5),
      gold: tokenShareReward(6),
    });
    expect(r.completions.map((c) => c.length)).toEqual(Array.from(r.seq.lengths));
    expect(r.tokens).toBe(r.completions.reduce((a, c) => a + c.length, 0));
    for (let b = 0; b < 3; b++) {
      const c = r.completions[b];
      expect(r.reward[b]).toBeCloseTo(c.length ? c.filter((t) => t === 5).length / c.length : 0, 12);
      for (let j = 0; j < 6; j++) {
        const i = b * 6 + j;
        if (j < c.length) {
          expect(r.logpOld[i]).toBeLessThanOrEqual(0);
          expect(r.entropy[i]).toBeGreaterThan(0);
          expect(r.klExact[i]).toBeGreaterThanOrEqual(0);
        } else
          expect([r.logpOld[i], r.logpRef[i], r.entropy[i], r.klExact[i], r.values[i]]).toEqual([
            0, 0, 0, 0, 0,
          ]);
      }
    }
    engine.destroy();
  });

  it("widening the padding changes no log-prob, entropy, KL or value", async () => {
    const { ctx, policy, ref } = await setup();
    const prompts = [[1, 2, 3], [4], [5, 6, 7, 8]];
    const S = 5;
    const completions = Int32Array.from([9, 10, 0, 0, 0, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0]);
    const lengths = [3, 5, 2];
    const results = [];
    for (const P of [4, 9]) {
      const engine = new RolloutEngine(ctx, policy, ref, 3, P, S);
      results.push(await engine.measure(layoutSequences(prompts, completions, lengths, P, S, 23), 0.7));
      engine.destroy();
    }
    for (const k of ["logpOld", "logpRef", "entropy", "klExact", "values"] as const)
      expectClose(`${k} P=4 vs P=9`, results[1][k], results[0][k], PAD_TOL);
  });
});
