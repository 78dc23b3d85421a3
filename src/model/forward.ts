/**
 * The GPT forward pass on the GPU (GPT-2: Radford et al. 2019; llm.c `gpt2_forward`), recorded as one sequence
 * of kernel dispatches with no awaits. Reads weights, writes every activation in `acts` (saved for backward),
 * the logits [N, V], the value head [N] and the reward head [N].
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { attentionForward } from "../kernels/attention";
import { elementwise } from "../kernels/elementwise";
import { embedding } from "../kernels/embedding";
import { gelu } from "../kernels/gelu";
import { layernorm } from "../kernels/layernorm";
import { matmul } from "../kernels/matmul";
import type { GptActivations, LayerActs } from "./activations";
import type { GptWeights } from "./weights";

/** The attention step of block l: reads a.qkv, writes a.att (full causal attention, or a KV-cache decode step). */
export type AttendFn = (l: number, a: LayerActs) => void;

/**
 * Record the GPT-2 forward pass (Radford et al. 2019: pre-LN blocks of causal multi-head attention and a GELU
 * MLP, final LayerNorm, LM head) for the inputs already in `acts`: tokens and positions [B, T] i32 (N = B·T
 * rows), keyMask [B, T] f32 (1 real, 0 padding). Writes every activation the backward pass reads and the
 * logits [N, V] at τ = 1. Linear layers are y = x·Wᵀ + b with W [out, in]; residual adds fold into the
 * projection (accumulate). Only records: nothing is read back.
 */
export function gptForward(ctx: GpuContext, w: GptWeights, acts: GptActivations): void {
  const { B, T } = acts;
  const { nEmbd: C, nHead: H } = w.config;
  gptForwardWith(ctx, w, acts, (_l, a) =>
    attentionForward(ctx, a.att, a.P, a.qkv, acts.keyMask, { B, T, C, H }),
  );
}

/** The forward pass with a caller-supplied attention step (the KV-cached decoder uses this). */
export function gptForwardWith(ctx: GpuContext, w: GptWeights, acts: GptActivations, attend: AttendFn): void {
  const cfg = w.config;
  const { N } = acts;
  const C = cfg.nEmbd;
  const V = cfg.vocabSize;
  const p = (name: string) => w.params.get(name);
  const eps = cfg.lnEps;
  const linear = (
    y: Tensor,
    x: Tensor,
    weight: string,
    bias: string | null,
    out: number,
    inp: number,
    accumulate = false,
  ) =>
    matmul(ctx, y, x, p(weight), {
      batch: 1,
      M: N,
      N: out,
      K: inp,
      transB: true,
      bias: bias ? p(bias) : null,
      accumulate,
    });

  embedding(
    ctx,
    acts.layers[0]?.res ?? acts.resOut,
    acts.tokens,
    acts.positions,
    p("wte.weight"),
    p("wpe.weight"),
  );
  for (let l = 0; l < cfg.nLayer; l++) {
    const a = acts.layers[l];
    const h = `h.${l}`;
    const next = l + 1 < cfg.nLayer ? acts.layers[l + 1].res : acts.resOut;
    layernorm(ctx, a.ln1, a.ln1Mean, a.ln1Rstd, a.res, p(`${h}.ln_1.weight`), p(`${h}.ln_1.bias`), { eps });
    linear(a.qkv, a.ln1, `${h}.attn.c_attn.weight`, `${h}.attn.c_attn.bias`, 3 * C, C);
    attend(l, a);
    elementwise(ctx, "copy", a.mid, a.res);
    linear(a.mid, a.att, `${h}.attn.c_proj.weight`, `${h}.attn.c_proj.bias`, C, C, true);
    layernorm(ctx, a.ln2, a.ln2Mean, a.ln2Rstd, a.mid, p(`${h}.ln_2.weight`), p(`${h}.ln_2.bias`), { eps });
    linear(a.fc, a.ln2, `${h}.mlp.c_fc.weight`, `${h}.mlp.c_fc.bias`, 4 * C, C);
    gelu(ctx, a.fcGelu, a.fc);
    elementwise(ctx, "copy", next, a.mid);
    linear(next, a.fcGelu, `${h}.mlp.c_proj.weight`, `${h}.mlp.c_proj.bias`, C, 4 * C, true);
  }
  layernorm(ctx, acts.lnf, acts.lnfMean, acts.lnfRstd, acts.resOut, p("ln_f.weight"), p("ln_f.bias"), {
    eps,
  });
  matmul(ctx, acts.logits, acts.lnf, w.lmHead(), { batch: 1, M: N, N: V, K: C, transB: true });
  linear(acts.values, acts.lnf, "value_head.weight", "value_head.bias", 1, C);
  linear(acts.rewards, acts.lnf, "reward_head.weight", "reward_head.bias", 1, C);
}
