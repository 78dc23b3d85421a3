/**
 * Bind groups reused across dispatches (src/gpu/bind_groups.ts): the same kernel over the same tensors records
 * one group, its uniform parameters still differ per dispatch (dynamic offsets), other tensors get other groups,
 * and the cache starts over at MAX_GROUPS.
 */
import { describe, expect, it } from "vitest";
import { BindGroupCache, MAX_GROUPS } from "../../src/gpu/bind_groups";
import { elementwise } from "../../src/kernels/elementwise";
import { testGpu } from "../helpers/gpu";

describe("bind group cache", () => {
  it("reuses one group for dispatches over the same tensors, each with its own parameters", async () => {
    const ctx = await testGpu();
    const a = ctx.tensor([5], "f32", "a", [1, 2, 3, 4, 5]);
    const b = ctx.tensor([5], "f32", "b", [10, 20, 30, 40, 50]);
    const out = ctx.tensor([5], "f32", "out");
    const acc = [0, 1].map((i) => ctx.tensor([5], "f32", `acc${i}`, [0, 0, 0, 0, 0]));
    const before = ctx.bindGroups.created;
    // acc = Σ_i (i+1)·b through out (ping-ponging between two accumulators): every dispatch of the same kernel
    // over the same tensors reads its own alpha from one group.
    for (let i = 0; i < 4; i++) {
      elementwise(ctx, "scale", out, b, null, i + 1);
      elementwise(ctx, "add", acc[(i + 1) % 2], acc[i % 2], out);
    }
    const got = [...(await ctx.read(acc[0]))];
    expect(got).toEqual([100, 200, 300, 400, 500]); // (1+2+3+4) · b
    expect(ctx.bindGroups.created - before).toBe(3); // scale(b → out), add(acc0 → acc1), add(acc1 → acc0)
    // Other tensors, other groups; the same ones again, none new.
    elementwise(ctx, "scale", out, a, null, 2);
    elementwise(ctx, "scale", out, a, null, 3);
    expect(ctx.bindGroups.created - before).toBe(4);
    expect([...(await ctx.read(out))]).toEqual([3, 6, 9, 12, 15]);
    for (const t of [a, b, out, ...acc]) t.destroy();
  });

  it("starts over when it holds MAX_GROUPS groups", () => {
    let made = 0;
    const device = { createBindGroup: () => ({ n: made++ }) } as unknown as GPUDevice;
    const cache = new BindGroupCache(device);
    const layout = {} as GPUBindGroupLayout;
    const buffers = Array.from({ length: MAX_GROUPS + 1 }, () => ({}) as GPUBuffer);
    const entry = (buffer: GPUBuffer): GPUBindGroupEntry[] => [
      { binding: 0, resource: { buffer, offset: 0, size: 16 } },
    ];
    const first = cache.get(layout, entry(buffers[0]), "x");
    expect(cache.get(layout, entry(buffers[0]), "x")).toBe(first);
    // Same buffer at another offset or size: another group.
    expect(
      cache.get(layout, [{ binding: 0, resource: { buffer: buffers[0], offset: 256, size: 16 } }], "x"),
    ).not.toBe(first);
    for (const b of buffers.slice(1, MAX_GROUPS - 1)) cache.get(layout, entry(b), "x");
    expect(cache.size).toBe(MAX_GROUPS);
    cache.get(layout, entry(buffers[MAX_GROUPS - 1]), "x");
    expect(cache.size).toBe(1);
    expect(cache.get(layout, entry(buffers[0]), "x")).not.toBe(first); // made again after the clear
    expect(cache.created).toBe(MAX_GROUPS + 2);
  });
});
