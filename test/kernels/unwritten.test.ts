/** The kernel tests' "never written" fill (test/helpers/unwritten.ts): an output a kernel skips cannot pass as 0. */
import { describe, expect, it } from "vitest";
import { fill } from "../../src/kernels/fill";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { UNWRITTEN_BITS } from "../helpers/unwritten";

describe("kernelGpu's unwritten fill", () => {
  it("gives every tensor created without data the bits 0x7fc00000, in each dtype", async () => {
    const ctx = await kernelGpu();
    for (const dtype of ["f32", "i32", "u32"] as const) {
      const got = await ctx.read(ctx.tensor([3], dtype, `out.${dtype}`));
      expect([...new Uint32Array(got.buffer, got.byteOffset, 3)], dtype).toEqual(
        Array(3).fill(UNWRITTEN_BITS),
      );
    }
    expect([...(await ctx.read(ctx.tensor([2], "f32", "in", [1, 0])))]).toEqual([1, 0]); // data as given
  });

  it("fails expectClose naming the elements a kernel never wrote, where WebGPU's zeros matched a twin's 0", async () => {
    const ctx = await kernelGpu();
    const out = ctx.tensor([5], "f32", "out");
    fill(ctx, out.view([4]), 0); // a kernel that stops one short of the end
    const got = await ctx.read(out);
    expect(() => expectClose("skips the last", got, [0, 0, 0, 0, 0], { atol: 0, rtol: 0 })).toThrow(
      /skips the last: 1 of 5 elements never written .*0x7fc00000.*\[4\] ref=0/,
    );
  });
});
