import { describe, expect, it } from "vitest";
import { tokenShareReward } from "../../src/algorithms/reward";
import { RolloutEngine } from "../../src/algorithms/rollout";
import { rolloutMetrics } from "../../src/algorithms/run";
import { layoutSequences } from "../../src/algorithms/sequences";
import { type GPTConfig, preset } from "../../src/model/config";
import { initParams, type ParamLayout, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { gptForwardRef } from "../../src/reference/gpt";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";

/** The same f32 kernels on differently padded inputs: sums in another order, ~1e-6 relative. */
const PAD_TOL = { atol: 1e-5, rtol: 1e-4 };
/** f32 GPU forward + log-softmax vs the float64 reference model (nano, weights ×4): measured ≤ 3e-6 absolute. */
const REF_TOL = { atol: 2e-5, rtol: 2e-5 };

async function setup() {
  const ctx = await testGpu();
  const config = preset("nano", { vocabSize: 24 });
  const layout = paramLayout(config);
  const rng = new Rng(3);
  const p0 = initParams(layout, () => rng.normal()).map((v) => v * 4);
  const policy = new GptWeights(ctx, config, p0);
  // A reference that differs from the policy, so the KL is not zero.
  const pRef = p0.map((v) => v + 0.05 * rng.normal());
  const ref = new GptWeights(ctx, config, pRef);
  return { ctx, config, layout, p0, pRef, policy, ref };
}

/** Float64 log-softmax of logits / τ. */
function logSoftmax(row: ArrayLike<number>, tau: number): number[] {
  const z = Array.from(row, (v) => v / tau);
  const m = Math.max(...z);
  const lse = m + Math.log(z.reduce((a, v) => a + Math.exp(v - m), 0));
  return z.map((v) => v - lse);
}

/**
 * The float64 reference model's per-token log-prob of each completion token, entropy and exact KL(π ‖ π_ref)
 * at τ, from one unpadded sequence per row (prompt then completion, positions 0…): independent of the engine's
 * padding, target alignment and masks. Completion layout [B, S], 0 past a row's length.
 */
function referenceMeasures(
  config: GPTConfig,
  layout: ParamLayout,
  policy: ArrayLike<number>,
  ref: ArrayLike<number>,
  prompts: number[][],
  completions: number[][],
  S: number,
  tau: number,
) {
  const B = prompts.length;
  const out = {
    logp: new Float64Array(B * S),
    logpRef: new Float64Array(B * S),
    entropy: new Float64Array(B * S),
    kl: new Float64Array(B * S),
  };
  for (let b = 0; b < B; b++) {
    const tokens = [...prompts[b], ...completions[b]];
    const T = tokens.length;
    const batch = { B: 1, T, tokens, positions: tokens.map((_, t) => t), keyMask: tokens.map(() => 1) };
    const V = config.vocabSize;
    const lp = gptForwardRef(config, layout, policy, batch).logits;
    const lq = gptForwardRef(config, layout, ref, batch).logits;
    for (let j = 0; j < completions[b].length; j++) {
      const t = prompts[b].length - 1 + j; // the position whose logits predict completion token j
      const p = logSoftmax(lp.subarray(t * V, (t + 1) * V), tau);
      const q = logSoftmax(lq.subarray(t * V, (t + 1) * V), tau);
      const tok = completions[b][j];
      out.logp[b * S + j] = p[tok];
      out.logpRef[b * S + j] = q[tok];
      out.entropy[b * S + j] = -p.reduce((a, v) => a + Math.exp(v) * v, 0);
      out.kl[b * S + j] = p.reduce((a, v, i) => a + Math.exp(v) * (v - q[i]), 0);
    }
  }
  return out;
}

describe("rollout engine", () => {
  it("samples, measures and scores a batch with masks from true lengths", async () => {
    const { ctx, config, layout, p0, pRef, policy, ref } = await setup();
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
    // Every measured number against the float64 reference model on the unpadded sequences.
    const want = referenceMeasures(config, layout, p0, pRef, prompts, r.completions, 6, 0.8);
    expect(r.tokens).toBeGreaterThan(3);
    expectClose("logpOld vs float64 model", r.logpOld, want.logp, REF_TOL);
    expectClose("logpRef vs float64 reference", r.logpRef, want.logpRef, REF_TOL);
    expectClose("entropy vs float64 model", r.entropy, want.entropy, REF_TOL);
    expectClose("klExact vs float64 models", r.klExact, want.kl, REF_TOL);
    expect(r.tokens).toBe(r.completions.reduce((a, c) => a + c.length, 0));
    // ended[b]: the row emitted EOS (its last token, and nowhere before); otherwise it was cut at S = 6, no EOS.
    const checkEnded = (x: typeof r, eos: number) =>
      x.completions.forEach((c, b) => {
        expect(c.slice(0, -1)).not.toContain(eos);
        if (x.ended[b]) expect(c.at(-1)).toBe(eos);
        else expect([c.length, c.includes(eos)]).toEqual([6, false]);
      });
    checkEnded(r, 0);
    // Same draws with row 0's first token as EOS (it is not 0, or row 0 would already have ended): row 0 now ends
    // at once, the others go on as before, so the batch holds both an ended and a cut row.
    const eos = r.completions[0][0];
    expect(eos).not.toBe(0);
    const withEos = {
      temperature: 0.8,
      topK: 0,
      seed: 9,
      eosId: eos,
      padId: 23,
      reward: tokenShareReward(5),
      gold: tokenShareReward(6),
    };
    const r2 = await engine.collect(prompts, withEos);
    console.log(`ended: eos 0 → ${r.ended.map(Number)}, eos ${eos} → ${r2.ended.map(Number)}`);
    expect(r2.completions[0]).toEqual([eos]);
    checkEnded(r2, eos);
    expect(r2.ended).toContain(true);
    expect(r2.ended).toContain(false);
    // The metric: rows of S = 6 tokens holding no EOS, over the batch.
    const cut = (x: typeof r, e: number) =>
      x.completions.filter((c) => c.length === 6 && !c.includes(e)).length;
    expect(rolloutMetrics(r)["completions/clipped_ratio"]).toBe(cut(r, 0) / 3);
    expect(rolloutMetrics(r2)["completions/clipped_ratio"]).toBe(cut(r2, eos) / 3);
    expect(cut(r2, eos)).toBeGreaterThan(0);
    // TRL's missing_eos_penalty: the same samples (same seed), the cut rows' reward lowered by it, the gold not.
    const r3 = await engine.collect(prompts, { ...withEos, missingEosPenalty: 0.75 });
    expect(r3.completions).toEqual(r2.completions);
    expect(Array.from(r3.gold)).toEqual(Array.from(r2.gold));
    expect(Array.from(r3.reward)).toEqual(Array.from(r2.reward, (v, b) => (r2.ended[b] ? v : v - 0.75)));
    // reward_std as TRL logs it: the sample std (divisor n − 1) of the 3 rewards, by hand.
    const rw = Array.from(r.reward);
    const m = (rw[0] + rw[1] + rw[2]) / 3;
    const sampleStd = Math.sqrt(rw.reduce((a, v) => a + (v - m) ** 2, 0) / 2);
    expect(rolloutMetrics(r).reward_std).toBeCloseTo(sampleStd, 12);
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
