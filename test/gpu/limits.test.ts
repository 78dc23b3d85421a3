/**
 * Buffers larger than the device can bind: a clear error when the tensor is made (WebGPU would make an invalid
 * buffer that fails at its first use), and, for a batch's activations, one that names what to change.
 */
import { describe, expect, it } from "vitest";
import { RolloutEngine } from "../../src/algorithms/rollout";
import type { GpuContext } from "../../src/gpu/context";
import { GpuLimitError, maxBindableBytes } from "../../src/gpu/errors";
import {
  ACTIVATION_BUDGET_BYTES,
  activationBytes,
  GptActivations,
  rolloutBytes,
} from "../../src/model/activations";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { testGpu } from "../helpers/gpu";

describe("buffer size limits", () => {
  it("a tensor over the device's binding limit throws GpuLimitError naming it, before any buffer is made", async () => {
    const ctx = await testGpu();
    const limit = maxBindableBytes(ctx.device);
    const elements = Math.floor(limit / 4) + 1;
    expect(() => ctx.tensor([elements], "f32", "huge")).toThrow(GpuLimitError);
    expect(() => ctx.tensor([elements], "f32", "huge")).toThrow(
      /"huge" needs .* MiB; this GPU allows .* MiB/,
    );
    // The device is still usable: no invalid buffer was made.
    const t = ctx.tensor([4], "f32", "small", [1, 2, 3, 4]);
    expect(Array.from(await ctx.read(t))).toEqual([1, 2, 3, 4]);
    t.destroy();
  });

  it("a batch whose attention probabilities exceed the limit names the sequences and what to lower", () => {
    const config = preset("nano");
    // A device allowing 1 MiB per buffer (WebGPU's default is 128 MiB): nothing is allocated before the check.
    const ctx = { device: { limits: { maxStorageBufferBindingSize: 2 ** 20, maxBufferSize: 2 ** 28 } } };
    const T = config.contextLength;
    // Twice as many sequences as fit: 2^20 B / (4 B × H × T²) of them would.
    const fit = Math.floor(2 ** 20 / (4 * config.nHead * T * T));
    const B = 2 * fit;
    let err: unknown;
    try {
      new GptActivations(ctx as unknown as GpuContext, config, B, T);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GpuLimitError);
    expect((err as Error).message).toContain(`a batch of ${B} sequences of ${T} tokens needs`);
    expect((err as Error).message).toContain("needs 2.0 MiB for its attention probabilities");
    expect((err as Error).message).toContain(
      `this GPU allows 1.0 MiB per buffer, ${fit} such sequences: train fewer sequences a step`,
    );
  });

  it("activationBytes is what the buffers take; a batch over the lab's budget is refused before any is made", async () => {
    const ctx = await testGpu();
    const config = preset("nano");
    const acts = new GptActivations(ctx, config, 3, 5);
    const made = (acts as unknown as { all: { size: number }[] }).all.reduce((a, t) => a + 4 * t.size, 0);
    expect(activationBytes(config, 3, 5)).toBe(made);
    acts.destroy();
    // A reviewer's GRPO run, 256 prompts × 64 samples on nano (T = 32): 3.8 GB a batch shape, twice.
    expect(activationBytes(config, 16384, 32)).toBeGreaterThan(ACTIVATION_BUDGET_BYTES);
    // Every per-buffer limit passes (a device allowing 4 GiB a buffer): the total is refused, naming what to lower.
    const big = { device: { limits: { maxStorageBufferBindingSize: 2 ** 32, maxBufferSize: 2 ** 32 } } };
    expect(() => new GptActivations(big as unknown as GpuContext, config, 16384, 32)).toThrow(
      /^a batch of 16384 sequences of 32 tokens needs \d+\.\d MiB of activations on this model \(the lab allows 2048\.0 MiB, \d+ such sequences\): train fewer sequences a step/,
    );
    // The lessons' largest batches are 64 sequences (16 prompts × 4, 4 × 16): twice that at 128 tokens on a
    // tiny-size model is far inside.
    expect(activationBytes(preset("tiny"), 128, 128)).toBeLessThan(ACTIVATION_BUDGET_BYTES / 2);
  });

  it("a rollout run's sets are counted together: rolloutBytes is what the run makes, and a run over the budget is refused before any buffer", async () => {
    const ctx = await testGpu();
    const config = preset("nano", { vocabSize: 24 });
    const params = initParams(paramLayout(config), () => 0.02);
    const policy = new GptWeights(ctx, config, params);
    const ref = new GptWeights(ctx, config, params);
    // Count the bytes of every tensor the run makes.
    let made = 0;
    const counting = new Proxy(ctx, {
      get(target, key, receiver) {
        if (key === "tensor")
          return (shape: number[], ...rest: unknown[]) => {
            made += 4 * shape.reduce((a, d) => a * d, 1);
            return (target.tensor as (...a: unknown[]) => unknown).call(target, shape, ...rest);
          };
        const v = Reflect.get(target, key, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    for (const withRef of [true, false]) {
      made = 0;
      const engine = new RolloutEngine(counting, policy, withRef ? ref : null, 3, 4, 6);
      expect(made, `withRef ${withRef}`).toBe(rolloutBytes(config, 3, 4, 6, withRef));
      engine.destroy();
    }
    // One set alone fits the budget, the run's five together do not (tiny, T = 128): refused, naming the run's
    // sets and how many sequences fit, with no buffer made (this context makes none).
    const tiny = preset("tiny");
    const B = 240;
    expect(activationBytes(tiny, B, 128)).toBeLessThan(ACTIVATION_BUDGET_BYTES);
    expect(rolloutBytes(tiny, B, 32, 96, true)).toBeGreaterThan(ACTIVATION_BUDGET_BYTES);
    const fit = Math.floor(ACTIVATION_BUDGET_BYTES / (rolloutBytes(tiny, B, 32, 96, true) / B));
    const none = new Proxy({} as GpuContext, {
      get() {
        throw new Error("a buffer was made");
      },
    });
    const tinyW = { config: tiny } as unknown as GptWeights;
    expect(() => new RolloutEngine(none, tinyW, tinyW, B, 32, 96)).toThrow(GpuLimitError);
    expect(() => new RolloutEngine(none, tinyW, tinyW, B, 32, 96)).toThrow(
      new RegExp(
        `^a batch of ${B} sequences of 128 tokens needs \\d+\\.\\d MiB of activations \\(policy, reference and sampling sets\\) on this model \\(the lab allows 2048\\.0 MiB, ${fit} such sequences\\)`,
      ),
    );
    expect(fit).toBeLessThan(B);
    policy.destroy();
    ref.destroy();
  });
});
