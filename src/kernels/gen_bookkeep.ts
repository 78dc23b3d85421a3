/**
 * Generation bookkeeping (src/shaders/gen_bookkeep.wgsl); CPU twin: src/reference/gen_bookkeep.ts.
 * Test: test/kernels/generation_helpers.test.ts.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/gen_bookkeep.wgsl?raw";
import { expectTensor } from "./vocab_rows";

/**
 * Kernel handle of {@link genBookkeep} (64 threads a workgroup); plain data: each GpuContext compiles it on
 * first dispatch and keeps it; nothing to destroy.
 */
export const genBookkeepKernel = defineKernel({
  name: "gen_bookkeep",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage", "storage", "storage", "storage"],
  workgroupSize: [64],
});

export interface GenBuffers {
  /** [B] u32: 1 once the row emitted EOS. */
  done: Tensor;
  /** [B] u32: generated tokens so far, EOS included (the true completion length). */
  lengths: Tensor;
  /** [B, S] i32 generated tokens (PAD after EOS). */
  outTokens: Tensor;
  /** [B, S] f32 their log-probs at the sampling temperature (0 after EOS). */
  outLogp: Tensor;
}

/**
 * Record generation step s's bookkeeping for the token and log-prob sample() just wrote: rows not yet done take
 * them at column s (lengths[b] = s + 1, done once the token is EOS); rows done get PAD and 0.
 * Shapes: token [B] i32, logp [B] f32, and the buffers of {@link GenBuffers}; s in [0, S).
 * @throws RangeError for s ≥ S or a token/logp/buffer of another size or type.
 */
export function genBookkeep(
  ctx: GpuContext,
  g: GenBuffers,
  token: Tensor,
  logp: Tensor,
  s: number,
  eos: number,
  pad: number,
): void {
  const B = g.done.size;
  const S = g.outTokens.size / B;
  if (!Number.isInteger(s) || s < 0 || s >= S)
    throw new RangeError(`genBookkeep: step ${s} not in [0, ${S})`);
  expectTensor("genBookkeep", token, B, "i32", "token");
  expectTensor("genBookkeep", logp, B, "f32", "logp");
  expectTensor("genBookkeep", g.done, B, "u32", "done");
  expectTensor("genBookkeep", g.lengths, B, "u32", "lengths");
  expectTensor("genBookkeep", g.outTokens, B * S, "i32", "outTokens");
  expectTensor("genBookkeep", g.outLogp, B * S, "f32", "outLogp");
  ctx.dispatch(genBookkeepKernel, {
    bindings: [
      params(["u32", B], ["u32", S], ["u32", s], ["i32", eos], ["i32", pad]),
      token,
      logp,
      g.done,
      g.lengths,
      g.outTokens,
      g.outLogp,
    ],
    workgroups: Math.ceil(B / genBookkeepKernel.invocations),
  });
}
