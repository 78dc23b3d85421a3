import { describe, expect, it } from "vitest";
import { gatherRows } from "../../src/kernels/gather_rows";
import { genBookkeep } from "../../src/kernels/gen_bookkeep";
import { genStates } from "../../src/kernels/selftest_case";
import { gatherRowsRef } from "../../src/reference/gather_rows";
import { genBookkeepRef } from "../../src/reference/gen_bookkeep";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu, splitDispatchGpu } from "../helpers/gpu";

const EXACT = { atol: 0, rtol: 0 };

describe("gather_rows vs CPU twin", () => {
  it("gathers strided rows at several shapes (sizes not dividing 256)", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(1);
    for (const [R, cols, rows, stride, offset] of [
      [1, 1, 1, 1, 0],
      [21, 37, 3, 7, 6],
      [300, 257, 4, 70, 19],
      [64, 5, 64, 1, 0],
    ]) {
      const x = rng.uniform(R * cols);
      const out = ctx.tensor([rows, cols], "f32", "out");
      gatherRows(ctx, out, ctx.tensor([R, cols], "f32", "x", x), { cols, stride, offset });
      expectClose(
        `gather ${rows}×${cols} stride ${stride}`,
        await ctx.read(out),
        gatherRowsRef(x, cols, rows, stride, offset),
        EXACT,
      );
    }
  });
});

describe("gen_bookkeep vs CPU twin", () => {
  it("records tokens, log-probs, true lengths and EOS over several steps (B not dividing 64; a dispatch split over y)", async () => {
    const one = await kernelGpu();
    // B = 200 is 4 workgroups of 64: with 2 allowed per dimension they run as a 2 × 2 grid.
    const split = splitDispatchGpu(one, 2);
    const rng = new Rng(2);
    for (const [B, ctx] of [
      [1, one],
      [5, one],
      [67, one],
      [200, split],
    ] as const) {
      const S = 6;
      const eos = 3;
      const pad = 0;
      const { st, g } = genStates(ctx, B, S);
      const tok = ctx.tensor([B], "i32", "tok");
      const lp = ctx.tensor([B], "f32", "lp");
      for (let s = 0; s < S; s++) {
        // As sample() does: finished rows get PAD and logp 0.
        const token = Int32Array.from({ length: B }, (_, b) => (st.done[b] ? pad : rng.int(1, 5)));
        const logp = Float32Array.from({ length: B }, (_, b) => (st.done[b] ? 0 : -rng.float()));
        ctx.upload(tok, token);
        ctx.upload(lp, logp);
        genBookkeep(ctx, g, tok, lp, s, eos, pad);
        genBookkeepRef(st, token, logp, S, s, eos, pad);
      }
      expectClose(`tokens B=${B}`, await ctx.read(g.outTokens), st.outTokens, EXACT);
      expectClose(`logp B=${B}`, await ctx.read(g.outLogp), st.outLogp, EXACT);
      expectClose(`lengths B=${B}`, await ctx.read(g.lengths), st.lengths, EXACT);
      expectClose(`done B=${B}`, await ctx.read(g.done), st.done, EXACT);
    }
  });

  it("refuses a step outside [0, S) and buffers of the wrong size or type, naming them", async () => {
    const ctx = await kernelGpu();
    const g = {
      done: ctx.tensor([3], "u32", "done"),
      lengths: ctx.tensor([3], "u32", "lengths"),
      outTokens: ctx.tensor([3, 4], "i32", "outTokens"),
      outLogp: ctx.tensor([3, 4], "f32", "outLogp"),
    };
    const tok = ctx.tensor([3], "i32", "tok");
    const lp = ctx.tensor([3], "f32", "lp");
    expect(() => genBookkeep(ctx, g, tok, lp, 4, 1, 0)).toThrow(/step 4 not in \[0, 4\)/);
    expect(() => genBookkeep(ctx, g, ctx.tensor([3], "f32", "tokf"), lp, 0, 1, 0)).toThrow(
      /token .* must be i32/,
    );
    expect(() => genBookkeep(ctx, g, tok, ctx.tensor([2], "f32", "lp2"), 0, 1, 0)).toThrow(
      /logp .* must hold 3/,
    );
  });
});
