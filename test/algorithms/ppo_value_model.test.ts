/**
 * PPO's separate value model (src/algorithms/value_model.ts, ppo.ts `valueModel: "separate"`) on the nano model:
 * the value-only backward pass, what one PPO step changes and leaves alone, equivalence of the policy update
 * with the shared head's at c_v = 0, the value loss falling on a fixed batch, settings that cannot change.
 * Learning on the nano reward: test/algorithms/pg_learning.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { PpoRun } from "../../src/algorithms/ppo";
import { RolloutEngine } from "../../src/algorithms/rollout";
import { toFull } from "../../src/algorithms/sequences";
import { PolicyUpdater } from "../../src/algorithms/update";
import { ValueModel } from "../../src/algorithms/value_model";
import { buildScatterIndex, uploadScatterIndex } from "../../src/kernels/embedding_index";
import { fill } from "../../src/kernels/fill";
import { GptActivations } from "../../src/model/activations";
import { gptBackward, zeroGrads } from "../../src/model/backward";
import { leftPadBatch } from "../../src/model/batch";
import { preset } from "../../src/model/config";
import { gptForward } from "../../src/model/forward";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";
import { nanoEnv, unchangedTensors } from "../helpers/nano_env";

/** Small PPO settings: 2 epochs × 2 minibatches, so the value model takes 4 steps per PPO step. */
const SMALL = { lr: 3e-3, batchPrompts: 4, maxNewTokens: 6, ppoEpochs: 2, numMiniBatches: 2, beta: 0.01 };

/** The elements of parameter `name` in a flat parameter array. */
function tensorOf(w: GptWeights, flat: Float32Array, name: string): Float32Array {
  const s = w.layout.byName.get(name);
  if (!s) throw new Error(name);
  return flat.slice(s.offset, s.offset + s.shape.reduce((a, b) => a * b, 1));
}

describe("gptBackward with lmHead: false", () => {
  it("gives the gradients of the value loss alone (= LM head run with dlogits = 0), and needs a head", async () => {
    const ctx = await testGpu();
    const config = preset("nano", { vocabSize: 21, tiedEmbeddings: false });
    const rng = new Rng(11);
    const w = new GptWeights(
      ctx,
      config,
      initParams(paramLayout(config), () => rng.normal()),
    );
    const batch = leftPadBatch(
      [
        [1, 2, 3, 4, 5],
        [7, 8],
        [20, 0, 3],
      ],
      5,
      0,
    );
    const acts = new GptActivations(ctx, config, batch.B, batch.T);
    ctx.upload(acts.tokens, batch.tokens);
    ctx.upload(acts.positions, batch.positions);
    ctx.upload(acts.keyMask, batch.keyMask);
    ctx.upload(
      acts.dvalues,
      Float32Array.from(batch.keyMask, (m) => m * rng.normal()),
    );
    const index = {
      tokenIndex: uploadScatterIndex(ctx, buildScatterIndex(batch.tokens, config.vocabSize), "tok"),
      positionIndex: uploadScatterIndex(ctx, buildScatterIndex(batch.positions, config.contextLength), "pos"),
    };
    const grads = async (lmHead: boolean) => {
      zeroGrads(ctx, w);
      gptForward(ctx, w, acts);
      // Garbage in dlogits must not matter when the LM head is off; zeros are the reference with it on.
      fill(ctx, acts.dlogits, lmHead ? 0 : 1e3);
      gptBackward(ctx, w, acts, { ...index, valueHead: true, lmHead });
      return ctx.read(w.grads.flat);
    };
    const ref = await grads(true);
    const got = await grads(false);
    expectClose("value-only grads", got, ref, { atol: 1e-7, rtol: 1e-5 });
    expect(tensorOf(w, got, "lm_head.weight").every((g) => g === 0)).toBe(true);
    expect(tensorOf(w, got, "h.0.attn.c_attn.weight").some((g) => g !== 0)).toBe(true);
    expect(() => gptBackward(ctx, w, acts, { ...index, lmHead: false })).toThrow(/no head/);
    acts.destroy();
    w.destroy();
  });
});

describe("PPO with a separate value model", () => {
  it("one step trains the value model and the policy's LM, not the policy's value head; ρ = 1 first", async () => {
    const env = await nanoEnv(4);
    const run = new PpoRun(env, { ...SMALL, valueModel: "separate" });
    const vw = run.valueWeights;
    if (!vw) throw new Error("no value model");
    expect(await vw.download()).toEqual(env.init); // starts as the start model
    const res = await run.step();
    const policy = await env.policy.download();
    const value = await vw.download();
    // The policy: every LM tensor moved; its value head got no gradient (weight decay 0: no change at all).
    expect(unchangedTensors(env, env.init, policy)).toEqual([]);
    for (const name of ["value_head.weight", "value_head.bias"])
      expect(tensorOf(vw, policy, name), name).toEqual(tensorOf(vw, env.init, name));
    // The value model: its value head and every trunk tensor moved (tied embeddings: wte through the input).
    expect(unchangedTensors(env, env.init, value)).toEqual([]);
    for (const name of ["value_head.weight", "value_head.bias"])
      expect(tensorOf(vw, value, name), name).not.toEqual(tensorOf(vw, env.init, name));
    const m = res.metrics;
    expect(m["val/ratio_first"]).toBe(1);
    for (const [k, v] of Object.entries(m)) expect(Number.isFinite(v), k).toBe(true);
    expect(m["loss/value_avg"]).toBeGreaterThan(0);
    expect(m["val/clipfrac_avg"]).toBeGreaterThanOrEqual(0);
    expect(m["val/clipfrac_avg"]).toBeLessThanOrEqual(1);
    const destroyValue = vi.spyOn(vw, "destroy");
    run.destroy();
    expect(destroyValue).toHaveBeenCalledOnce();
    env.policy.destroy();
    env.ref?.destroy();
  });

  it("its first step updates the policy exactly as the shared head with c_v = 0 (same V_old, no value term)", async () => {
    const a = await nanoEnv(5);
    const b = await nanoEnv(5);
    const sep = new PpoRun(a, { ...SMALL, valueModel: "separate" });
    const shared = new PpoRun(b, { ...SMALL, valueModel: "shared", vfCoef: 0 });
    const ma = (await sep.step()).metrics;
    const mb = (await shared.step()).metrics;
    // Step 1: the value model is the start model, so its values are the policy head's and GAE is the same.
    for (const k of ["reward", "val/explained_variance", "loss/policy_avg", "policy/approxkl_avg"])
      expect(ma[k], k).toBe(mb[k]);
    expect(await a.policy.download()).toEqual(await b.policy.download());
    // The shared head at c_v = 0 did not learn values; the separate model did (c_v = 0.1): losses differ.
    expect(ma["loss/value_avg"]).not.toBe(mb["loss/value_avg"]);
    for (const [run, env] of [
      [sep, a],
      [shared, b],
    ] as const) {
      run.destroy();
      env.policy.destroy();
      env.ref?.destroy();
    }
  });

  it("the value model fits the returns of a fixed batch: V_old = the start model's head, loss falls", async () => {
    const env = await nanoEnv(6);
    const B = 8;
    const engine = new RolloutEngine(env.ctx, env.policy, env.ref, B, env.prompts.maxLength, 6);
    const updater = new PolicyUpdater(env.ctx, engine);
    const vm = new ValueModel(updater, env.policy);
    const r = await engine.collect(env.prompts.batch(0, B), {
      temperature: 1,
      topK: 0,
      seed: 17,
      eosId: env.eosId,
      padId: env.padId,
      reward: env.reward,
      gold: env.gold,
    });
    const { seq } = r;
    const values = await vm.values(seq);
    expect(values).toEqual(r.values); // the same weights as the policy: the same value head output
    // Monte Carlo returns (γ = 1, no KL): G_t = R of the row at every completion token.
    const G = Float64Array.from(seq.completionMask, (m, i) => m * r.reward[Math.floor(i / seq.S)]);
    const weights = seq.lossMask.map((m) => m / r.tokens);
    updater.setBatch(seq, {
      advantages: new Float32Array(seq.B * seq.T),
      weights,
      returns: toFull(G, seq),
      valuesOld: toFull(values, seq),
    });
    // 12 value steps at lr 1e-3 (1e-2 overshoots on nano): the loss falls ~10× (seed fixed).
    const STEPS = 12;
    const LR = 1e-3;
    const losses: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      const s = await vm.step({ lr: LR, maxGradNorm: 1, weightDecay: 0, epsilonV: 100, vfCoef: 1 });
      expect(Number.isFinite(s.gradNorm) && s.gradNorm > 0).toBe(true);
      losses.push(s.value.loss);
    }
    console.log(`value loss on a fixed batch: ${losses.map((l) => l.toFixed(5)).join(" → ")}`);
    expect(losses[STEPS - 1]).toBeLessThan(0.25 * losses[0]);
    // The value model's steps never touch the policy.
    expect(await env.policy.download()).toEqual(env.init);
    vm.destroy();
    updater.destroy();
    engine.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  });

  it("a fork copies the value model (copyExtraFrom); from a shared-head run it keeps the start weights", async () => {
    const a = await nanoEnv(8);
    const b = await nanoEnv(8);
    const src = new PpoRun(a, { ...SMALL, ppoEpochs: 1, numMiniBatches: 1, valueModel: "separate" });
    await src.step();
    const fork = new PpoRun(b, { ...SMALL, valueModel: "separate" });
    const sharedHead = new PpoRun(a, { ...SMALL, valueModel: "shared" });
    fork.copyExtraFrom(sharedHead);
    sharedHead.destroy();
    expect(await fork.valueWeights?.download()).toEqual(b.init);
    fork.copyExtraFrom(src);
    const copied = await fork.valueWeights?.download();
    expect(copied).toEqual(await src.valueWeights?.download());
    expect(copied).not.toEqual(b.init);
    for (const [run, env] of [
      [src, a],
      [fork, b],
    ] as const) {
      run.destroy();
      env.policy.destroy();
      env.ref?.destroy();
    }
  });

  it("refuses changing valueModel during a run, either way; other settings still change", async () => {
    const env = await nanoEnv(7);
    for (const [from, to] of [
      ["separate", "shared"],
      ["shared", "separate"],
    ] as const) {
      const run = new PpoRun(env, { ...SMALL, valueModel: from });
      expect(() => run.setConfig({ valueModel: to })).toThrow(/valueModel .*cannot change during a run/);
      expect(run.config.valueModel).toBe(from);
      run.setConfig({ lr: 1e-3, valueModel: from });
      expect(run.config.lr).toBe(1e-3);
      expect(run.valueWeights === null).toBe(from === "shared");
      run.destroy();
    }
    expect(() => new PpoRun(env, { valueModel: "critic" as "shared" })).toThrow(/shared \| separate/);
    env.policy.destroy();
    env.ref?.destroy();
  });
});
