/**
 * Two kernels with the same name (a copied wrapper whose kernel was not renamed) each run their own shader in one
 * context: the pipeline cache (src/gpu/pipeline.ts) keys by source, not by name alone.
 */
import { describe, expect, it } from "vitest";
import { defineKernel } from "../../src/gpu/pipeline";
import { testGpu } from "../helpers/gpu";

/** A kernel named "copied" that writes `value` into every element of its one storage buffer. */
function writer(value: string) {
  return defineKernel({
    name: "copied",
    source: `override WG_X: u32 = 64u;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x < arrayLength(&out)) { out[gid.x] = ${value}; }
}`,
    bindings: ["storage"],
    workgroupSize: [64],
  });
}

describe("pipeline cache", () => {
  it("runs each kernel's own shader when two kernels share a name", async () => {
    const ctx = await testGpu();
    const [one, two] = [writer("1.0"), writer("2.0")];
    const a = ctx.tensor([3], "f32", "a");
    const b = ctx.tensor([3], "f32", "b");
    ctx.dispatch(one, { bindings: [a], workgroups: 1 });
    ctx.dispatch(two, { bindings: [b], workgroups: 1 });
    expect([...(await ctx.read(a))]).toEqual([1, 1, 1]);
    expect([...(await ctx.read(b))]).toEqual([2, 2, 2]);
    // Same kernel again: nothing new compiled.
    const before = ctx.pipelines.compiled;
    ctx.dispatch(two, { bindings: [a], workgroups: 1 });
    expect([...(await ctx.read(a))]).toEqual([2, 2, 2]);
    expect(ctx.pipelines.compiled).toBe(before);
    for (const t of [a, b]) t.destroy();
  });
});
