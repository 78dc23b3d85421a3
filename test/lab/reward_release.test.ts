/**
 * A replaced custom reward model is released (its worker ended, src/lab/rm_isolated.ts) once no scoring uses
 * it: at once when idle, after the step in flight otherwise (src/lab/reward_sources.ts). Its batches keep
 * going to it until that scoring is done, and the next scoring goes to the new model.
 */
import { describe, expect, it } from "vitest";
import { type OnnxLoader, RewardSources } from "../../src/lab/reward_sources";
import type { OnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { loadTask } from "../../src/tasks";
import { tokenizerPathOf } from "../../src/tasks/task";
import { readTokenizerFile } from "../../src/tokenizer/node";

/** A model whose every batch scores `score` and waits for `gate` (when set); counts its releases. */
function fakeModel(score: number, vocabSize: number) {
  const m = {
    released: 0,
    batches: 0,
    gate: null as Promise<void> | null,
    model: {
      stopped: null as string | null,
      vocabSize,
      maxLength: null,
      metadata: {},
      warnings: [],
      run: async (_ids: ArrayLike<number>, _mask: ArrayLike<number>, B: number) => {
        m.batches++;
        if (m.gate) await m.gate;
        if (m.released) throw new Error("scored after its release");
        return new Float64Array(B).fill(score);
      },
      release: async () => {
        m.released++;
      },
    } satisfies OnnxRewardModel,
  };
  return m;
}

describe("RewardSources: a replaced custom reward model is released once unused", () => {
  it("idle: at once; scoring: after the scoring in flight, whose batches all reach the old model", async () => {
    const task = await loadTask("arithmetic");
    const tok = readTokenizerFile(`public/${tokenizerPathOf("arithmetic")}`);
    const models = [1, 2, 3].map((s) => fakeModel(s, tok.vocabSize));
    let next = 0;
    const loadOnnx: OnnxLoader = async () => models[next++].model;
    const rewards = new RewardSources(task, tok, { loadOnnx });
    const samples = Array.from({ length: 70 }, () => ({ prompt: [1, 2], completion: [3] })); // 3 batches of ≤ 32

    await rewards.loadCustom(new Uint8Array(1), "a.onnx");
    const custom = rewards.ready("custom"); // one source that follows the latest model
    expect(Array.from(await custom.score(samples.slice(0, 2)))).toEqual([1, 1]);
    await rewards.loadCustom(new Uint8Array(1), "b.onnx");
    expect(models[0].released, "an idle model goes at once").toBe(1);

    let open: () => void = () => undefined;
    models[1].gate = new Promise((r) => (open = r));
    const inFlight = custom.score(samples);
    await rewards.loadCustom(new Uint8Array(1), "c.onnx");
    expect(models[1].released, "not during its scoring").toBe(0);
    open();
    expect(Array.from(new Set(await inFlight))).toEqual([2]);
    expect(models[1].batches).toBe(3);
    expect(models[1].released, "released after it").toBe(1);
    expect(Array.from(await custom.score(samples.slice(0, 1)))).toEqual([3]);
    expect(models[2].released).toBe(0);
  });
});

describe("RewardSources: a model whose worker was ended (a time limit, a crash)", () => {
  it("the proxy loads again at its next scoring; a custom one is refused, saying to load it again", async () => {
    const task = await loadTask("arithmetic");
    const tok = readTokenizerFile(`public/${tokenizerPathOf("arithmetic")}`);
    const models = [1, 2, 3].map((s) => fakeModel(s, tok.vocabSize));
    let next = 0;
    let fetched = 0;
    const rewards = new RewardSources(task, tok, {
      baseUrl: "http://lab.test/",
      fetchFn: (async () => {
        fetched++;
        return new Response(new Uint8Array(4));
      }) as unknown as typeof fetch,
      loadOnnx: async () => models[next++].model,
    });
    const samples = [{ prompt: [1, 2], completion: [3] }];
    const proxy = await rewards.get("proxy");
    expect(Array.from(await proxy.score(samples))).toEqual([1]);
    models[0].model.stopped = "it took longer than 20 s to score a batch";
    expect(Array.from(await proxy.score(samples)), "the same source, a fresh model").toEqual([2]);
    expect([fetched, next]).toEqual([2, 2]);
    expect(rewards.ready("proxy")).toBe(proxy);

    await rewards.loadCustom(new Uint8Array(1), "mine.onnx");
    const custom = rewards.ready("custom");
    expect(Array.from(await custom.score(samples))).toEqual([3]);
    models[2].model.stopped = "its worker stopped (out of memory)";
    const refused =
      /the custom reward model "mine\.onnx" was stopped \(its worker stopped \(out of memory\)\): load it again with Load RM, or choose another reward/;
    await expect(custom.score(samples)).rejects.toThrow(refused);
    expect(rewards.custom, "the page's Load RM button asks this").toBeNull();
    expect(() => rewards.ready("custom")).toThrow(refused);
  });
});
