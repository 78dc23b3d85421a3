/**
 * The GPT backward pass on the GPU (llm.c `gpt2_backward`): given dLoss/dlogits (and optionally dLoss/dvalue,
 * dLoss/dreward) in `acts`, ACCUMULATE every parameter gradient into `w.grads` (zero them once per step with
 * `zeroGrads`). Recorded with no awaits. Linear layers y = x·Wᵀ + b give dx = dy·W, dW += dyᵀ·x, db += Σ_n dy.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { attentionBackward } from "../kernels/attention_backward";
import { colsum } from "../kernels/colsum";
import { embeddingBackward } from "../kernels/embedding";
import type { GpuScatterIndex } from "../kernels/embedding_index";
import { fill } from "../kernels/fill";
import { geluBackward } from "../kernels/gelu";
import { layernormBackward } from "../kernels/layernorm_backward";
import { matmul } from "../kernels/matmul";
import type { GptActivations } from "./activations";
import type { GptWeights } from "./weights";

export interface BackwardOptions {
  /** Scatter indexes of this batch's token ids (rows V) and position ids (rows contextLength). */
  tokenIndex: GpuScatterIndex;
  positionIndex: GpuScatterIndex;
  /** Propagate acts.dvalues through the value head (PPO's value loss). Default false. */
  valueHead?: boolean;
  /** Propagate acts.drewards through the reward head (reward-model training). Default false. */
  rewardHead?: boolean;
  /**
   * Propagate acts.dlogits through the LM head. Default true. false: acts.dlogits is not read and the LM head
   * gets no gradient (a model trained only through its value or reward head, e.g. PPO's separate value model).
   */
  lmHead?: boolean;
}

/** Record grads = 0 (once per optimizer step, before the first backward pass). */
export function zeroGrads(ctx: GpuContext, w: GptWeights): void {
  fill(ctx, w.grads.flat, 0);
}

/**
 * Record the backward pass. Reads acts (as left by gptForward) and acts.dlogits; accumulates into w.grads.
 * @throws RangeError when no head is propagated (o.lmHead false and neither value nor reward head).
 */
export function gptBackward(ctx: GpuContext, w: GptWeights, acts: GptActivations, o: BackwardOptions): void {
  const cfg = w.config;
  const { B, T, N } = acts;
  const C = cfg.nEmbd;
  const H = cfg.nHead;
  const V = cfg.vocabSize;
  const p = (name: string) => w.params.get(name);
  const g = (name: string) => w.grads.get(name);
  /** dx (= or +=) dy·W, dW += dyᵀ·x, db += Σ dy, for y [N, out] = x [N, inp]·Wᵀ + b. */
  const linearBackward = (
    dx: Tensor,
    dy: Tensor,
    x: Tensor,
    weight: string,
    bias: string | null,
    out: number,
    inp: number,
    accumulateDx = false,
  ) => {
    matmul(ctx, dx, dy, p(weight), { batch: 1, M: N, N: inp, K: out, accumulate: accumulateDx });
    matmul(ctx, g(weight), dy, x, { batch: 1, M: out, N: inp, K: N, transA: true, accumulate: true });
    if (bias) colsum(ctx, g(bias), dy.reshape([N, out]));
  };

  // Heads: logits = lnf·Wlmᵀ (no bias); values/rewards = lnf·wᵀ + b. The first head run writes acts.dln.
  const lm = o.lmHead ?? true;
  if (!lm && !o.valueHead && !o.rewardHead)
    throw new RangeError("gptBackward: no head to backpropagate (lmHead, valueHead and rewardHead all off)");
  if (lm) {
    matmul(ctx, acts.dln, acts.dlogits, w.lmHead(), { batch: 1, M: N, N: C, K: V });
    matmul(ctx, w.lmHeadGrad(), acts.dlogits, acts.lnf, {
      batch: 1,
      M: V,
      N: C,
      K: N,
      transA: true,
      accumulate: true,
    });
  }
  if (o.valueHead)
    linearBackward(acts.dln, acts.dvalues, acts.lnf, "value_head.weight", "value_head.bias", 1, C, lm);
  if (o.rewardHead)
    linearBackward(
      acts.dln,
      acts.drewards,
      acts.lnf,
      "reward_head.weight",
      "reward_head.bias",
      1,
      C,
      lm || !!o.valueHead,
    );
  layernormBackward(
    ctx,
    acts.dres,
    g("ln_f.weight"),
    g("ln_f.bias"),
    acts.dln,
    acts.resOut,
    p("ln_f.weight"),
    acts.lnfMean,
    acts.lnfRstd,
  );

  for (let l = cfg.nLayer - 1; l >= 0; l--) {
    const a = acts.layers[l];
    const h = `h.${l}`;
    // acts.dres holds dLoss/d(block output). MLP: out = mid + gelu(ln2·Wfcᵀ + bfc)·Wprojᵀ + bproj.
    linearBackward(
      acts.dfcGelu,
      acts.dres,
      a.fcGelu,
      `${h}.mlp.c_proj.weight`,
      `${h}.mlp.c_proj.bias`,
      C,
      4 * C,
    );
    geluBackward(ctx, acts.dfc, acts.dfcGelu, a.fc);
    linearBackward(acts.dln, acts.dfc, a.ln2, `${h}.mlp.c_fc.weight`, `${h}.mlp.c_fc.bias`, 4 * C, C);
    layernormBackward(
      ctx,
      acts.dres,
      g(`${h}.ln_2.weight`),
      g(`${h}.ln_2.bias`),
      acts.dln,
      a.mid,
      p(`${h}.ln_2.weight`),
      a.ln2Mean,
      a.ln2Rstd,
      { accumulate: true },
    );
    // acts.dres = dLoss/d(mid). Attention: mid = res + attn(ln1·Wqkvᵀ + bqkv)·Wprojᵀ + bproj.
    linearBackward(acts.datt, acts.dres, a.att, `${h}.attn.c_proj.weight`, `${h}.attn.c_proj.bias`, C, C);
    attentionBackward(ctx, acts.dqkv, acts.dS, acts.datt, a.qkv, a.P, { B, T, C, H });
    linearBackward(acts.dln, acts.dqkv, a.ln1, `${h}.attn.c_attn.weight`, `${h}.attn.c_attn.bias`, 3 * C, C);
    layernormBackward(
      ctx,
      acts.dres,
      g(`${h}.ln_1.weight`),
      g(`${h}.ln_1.bias`),
      acts.dln,
      a.res,
      p(`${h}.ln_1.weight`),
      a.ln1Mean,
      a.ln1Rstd,
      { accumulate: true },
    );
  }
  embeddingBackward(ctx, g("wte.weight"), acts.dres, o.tokenIndex);
  embeddingBackward(ctx, g("wpe.weight"), acts.dres, o.positionIndex);
}
