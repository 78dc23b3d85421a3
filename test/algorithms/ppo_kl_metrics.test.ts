/**
 * PPO's KL metrics with the k3 penalty: `objective/kl` stays k1 (the KL chart plots every run's k1 under that
 * name) while the penalty's own sums (objective/kl_k3, non_score_reward, rlhf_reward) follow k3, recomputed
 * here from the step's log-probs with plain loops.
 */
import { describe, expect, it } from "vitest";
import { adaptiveKlBeta } from "../../src/algorithms/math/ppo";
import { PpoRun } from "../../src/algorithms/ppo";
import { nanoEnv } from "../helpers/nano_env";

describe("PPO KL metrics with klEstimator k3", () => {
  it("logs k1 as objective/kl and charges the k3 penalty in the objective metrics", async () => {
    const env = await nanoEnv(3);
    const beta = 0.2;
    const run = new PpoRun(env, { lr: 3e-2, batchPrompts: 4, maxNewTokens: 6, beta, klEstimator: "k3" });
    await run.step(); // step 1 samples from π = π_ref: every KL is 0
    const r = await run.step();
    const ro = r.rollout;
    if (!ro) throw new Error("no rollout");
    const { B, S, completionMask } = ro.seq;
    let k1 = 0;
    let k3 = 0;
    for (let i = 0; i < B * S; i++) {
      if (!completionMask[i]) continue;
      const l = ro.logpRef[i] - ro.logpOld[i];
      k1 += -l;
      k3 += Math.exp(l) - 1 - l;
    }
    [k1, k3] = [k1 / B, k3 / B];
    const m = r.metrics;
    console.log(`step 2: k1 ${k1.toFixed(5)}, k3 ${k3.toFixed(5)}; objective/kl ${m["objective/kl"]}`);
    expect(Math.abs(k1 - k3), "the policy moved enough to tell k1 from k3").toBeGreaterThan(1e-3);
    expect(m["objective/kl"]).toBeCloseTo(k1, 6);
    expect(m["objective/kl_k3"]).toBeCloseTo(k3, 6);
    expect(m["objective/non_score_reward"]).toBeCloseTo(-beta * k3, 6);
    expect(m["objective/rlhf_reward"]).toBeCloseTo(m["objective/scores"] - beta * k3, 6);
    run.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  }, 120_000);

  it("the adaptive controller follows the penalty's KL (k3), as TRL's does, not the charted k1", async () => {
    const env = await nanoEnv(3);
    const c = { klTarget: 1, klHorizon: 10, beta: 0.2, adaptiveKl: true };
    const run = new PpoRun(env, { lr: 3e-2, batchPrompts: 4, maxNewTokens: 6, klEstimator: "k3", ...c });
    await run.step();
    const m2 = (await run.step()).metrics;
    const m3 = (await run.step()).metrics;
    const [k1, k3] = [m2["objective/kl"], m2["objective/kl_k3"]];
    const want = adaptiveKlBeta(m2.kl_coef, k3, 4, c.klTarget, c.klHorizon);
    console.log(`step 2: k1 ${k1}, k3 ${k3}; β ${m2.kl_coef} → ${m3.kl_coef} (want ${want})`);
    // The two KLs lie on either side of the target here, so the controller's direction tells which it read.
    expect(Math.sign(k1 - c.klTarget)).not.toBe(Math.sign(k3 - c.klTarget));
    expect(m3.kl_coef).toBeCloseTo(want, 12);
    run.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  }, 120_000);
});

describe("PPO on a batch of one counted token", () => {
  it("trains on: explained variance (undefined there) is left out, not a NaN that stops the run", async () => {
    const env = await nanoEnv(5);
    const run = new PpoRun(env, { lr: 1e-3, batchPrompts: 1, maxNewTokens: 1 });
    for (let s = 1; s <= 2; s++) {
      const r = await run.step();
      expect(r.rollout?.tokens).toBe(1);
      expect("val/explained_variance" in r.metrics, `step ${s}`).toBe(false);
      expect(Number.isFinite(r.metrics["loss/value_avg"])).toBe(true);
    }
    run.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  }, 120_000);
});
