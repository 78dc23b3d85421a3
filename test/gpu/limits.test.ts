/**
 * Buffers larger than the device can bind: a clear error when the tensor is made (WebGPU would make an invalid
 * buffer that fails at its first use), and, for a batch's activations, one that names what to change.
 */
import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { GpuLimitError, maxBindableBytes } from "../../src/gpu/errors";
import { ACTIVATION_BUDGET_BYTES, activationBytes, GptActivations } from "../../src/model/activations";
import { preset } from "../../src/model/config";
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
});
