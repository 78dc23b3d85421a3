import { describe, expect, it } from "vitest";
import { DpoRun, offlineFlips, type PreferenceSource } from "../../src/algorithms/dpo";
import { Rng } from "../../src/util/rng";
import { nanoEnv, REWARD_TOKEN, unchangedTensors } from "../helpers/nano_env";

/** Synthetic pairs: chosen completions are rich in the rewarded token, rejected ones have none; EOS = 0. */
function syntheticPrefs(seed: number): PreferenceSource {
  const rng = new Rng(seed);
  const pairs = Array.from({ length: 64 }, () => {
    const prompt = Array.from({ length: rng.int(1, 3) }, () => rng.int(1, 14));
    const n = rng.int(3, 6);
    const chosen = Array.from({ length: n }, () => (rng.float() < 0.7 ? REWARD_TOKEN : rng.int(1, 14)));
    const rejected = Array.from({ length: n }, () => {
      let t = rng.int(1, 13);
      if (t >= REWARD_TOKEN) t++;
      return t;
    });
    return { prompt, chosen: [...chosen, 0], rejected: [...rejected, 0] };
  });
  return {
    size: pairs.length,
    maxPrompt: 3,
    maxCompletion: 7,
    batch: (step, n) => {
      const ids = Array.from({ length: n }, (_, i) => (step * n + i) % pairs.length);
      return { pairs: ids.map((i) => pairs[i]), ids };
    },
  };
}

describe("DPO", () => {
  it("offline: margins and accuracy rise, the policy's reward rises, every LM tensor moves", async () => {
    const env = await nanoEnv(2);
    const run = new DpoRun(env, syntheticPrefs(2), { lr: 3e-3, batchPairs: 8, maxNewTokens: 8, flipRate: 0 });
    const first = await run.step();
    expect(first.metrics.loss).toBeCloseTo(Math.LN2, 6); // policy = reference: h = 0 → −log σ(0)
    expect(unchangedTensors(env, env.init, await env.policy.download())).toEqual([]);
    const m = [first.metrics];
    for (let i = 1; i < 25; i++) m.push((await run.step()).metrics);
    const avg = (k: string, a: number, b: number) => m.slice(a, b).reduce((s, x) => s + x[k], 0) / (b - a);
    console.log(
      `DPO offline: margins ${avg("rewards/margins", 0, 5).toFixed(3)} → ${avg("rewards/margins", 20, 25).toFixed(3)}, accuracy → ${avg("rewards/accuracies", 20, 25).toFixed(2)}, reward ${avg("reward", 0, 5).toFixed(3)} → ${avg("reward", 20, 25).toFixed(3)}`,
    );
    expect(avg("rewards/margins", 20, 25)).toBeGreaterThan(avg("rewards/margins", 0, 5) + 0.5);
    expect(avg("rewards/accuracies", 20, 25)).toBeGreaterThan(0.9);
    expect(avg("reward", 20, 25)).toBeGreaterThan(avg("reward", 0, 5) + 0.1);
    run.destroy();
  });

  it("offline: the annotator flips the flipRate share of pairs, and cached reference log-probs follow the flips; samples keep maxNewTokens", async () => {
    const env = await nanoEnv(4);
    const base = syntheticPrefs(4);
    const prefs: PreferenceSource = { ...base, size: 8, batch: (step, n) => base.batch(step % 2, n) };
    // lr 0: the policy stays the reference, so every pair's implicit reward is 0 and the loss is log 2 exactly
    // when the reference log-probs sit on the right rows, also on the cached steps (3 and 4) with flips.
    const run = new DpoRun(env, prefs, { lr: 0, batchPairs: 4, maxNewTokens: 4, flipRate: 0.5 });
    let flippedSeen = 0;
    for (let step = 0; step < 4; step++) {
      // Steps 3 and 4 would read the cache: a new τ must measure the reference again at that τ.
      if (step === 2) run.setConfig({ temperature: 0.7 });
      const res = await run.step();
      const { pairs, ids } = base.batch(step % 2, 4);
      const flips = offlineFlips(ids, 0.5, env.seed);
      expect(res.metrics.loss).toBeCloseTo(Math.LN2, 5);
      // The charted samples keep the run's 4-token budget; the dataset's pairs (up to 7 tokens) train whole.
      expect(res.metrics["completions/max_length"]).toBeLessThanOrEqual(4);
      expect(Math.max(...res.preferences!.pairs.map((p) => p.chosen.length))).toBeGreaterThan(4);
      expect(res.metrics["annotator/flipped"]).toBe(flips.filter(Boolean).length / 4);
      expect(res.preferences!.flipped).toEqual(flips);
      res.preferences!.pairs.forEach((p, i) => {
        expect(p.chosen).toEqual((flips[i] ? pairs[i].rejected : pairs[i].chosen).slice(0, p.chosen.length));
      });
      flippedSeen += flips.filter(Boolean).length;
    }
    expect(flippedSeen).toBeGreaterThan(0);
    run.destroy();
  });

  it("cDPO's ε_ls set under sigmoid stays harmless when the loss changes to one that ignores it", async () => {
    const env = await nanoEnv(5);
    const run = new DpoRun(env, syntheticPrefs(5), {
      lr: 0,
      batchPairs: 4,
      maxNewTokens: 4,
      labelSmoothing: 0.1,
    });
    // lr 0: the implicit rewards are 0, so sigmoid with smoothing gives log 2 and hinge gives max(0, 1 − 0) = 1.
    expect((await run.step()).metrics.loss).toBeCloseTo(Math.LN2, 5);
    run.setConfig({ lossType: "hinge" });
    expect((await run.step()).metrics.loss).toBeCloseTo(1, 5);
    run.destroy();
  });

  it("online: pairs sampled from the policy and labelled by the annotator raise the reward", async () => {
    const env = await nanoEnv(3);
    const run = new DpoRun(env, null, {
      mode: "online",
      flipRate: 0,
      lr: 3e-3,
      batchPairs: 8,
      maxNewTokens: 8,
      beta: 0.5,
    });
    const rewards: number[] = [];
    for (let i = 0; i < 30; i++) rewards.push((await run.step()).metrics.reward);
    const a = rewards.slice(0, 5).reduce((s, x) => s + x) / 5;
    const b = rewards.slice(-5).reduce((s, x) => s + x) / 5;
    console.log(`DPO online reward: ${a.toFixed(3)} → ${b.toFixed(3)}`);
    expect(b).toBeGreaterThan(a + 0.1);
    run.destroy();
  });
});
