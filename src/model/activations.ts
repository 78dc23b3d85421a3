/**
 * Activation and gradient buffers for one batch shape (B, T): everything the forward pass saves for the
 * backward pass (llm.c's ActivationTensors), allocated once per shape and reused every step.
 * N = B·T rows; C = nEmbd; V = vocabSize; H = nHead; L = nLayer.
 */
import type { GpuContext } from "../gpu/context";
import { GpuLimitError, maxBindableBytes, mib } from "../gpu/errors";
import type { Tensor } from "../gpu/tensor";
import type { GPTConfig } from "./config";

export interface LayerActs {
  /** [N, C] the residual stream entering the block. */
  res: Tensor;
  ln1: Tensor;
  ln1Mean: Tensor;
  ln1Rstd: Tensor;
  /** [N, 3C] q, k, v. */
  qkv: Tensor;
  /** [N, C] heads' outputs side by side. */
  att: Tensor;
  /** [B, H, T, T] attention probabilities. */
  P: Tensor;
  /** [N, C] residual after the attention block. */
  mid: Tensor;
  ln2: Tensor;
  ln2Mean: Tensor;
  ln2Rstd: Tensor;
  /** [N, 4C] MLP pre-activation and GELU output. */
  fc: Tensor;
  fcGelu: Tensor;
}

/**
 * Most bytes of activations one rollout run may hold (its policy and reference sets, the generator's prompt and
 * one-token sets and its KV cache: {@link rolloutBytes}), and one batch shape of any other trainer. WebGPU tells a
 * buffer's limit, not the memory a device has: without a bound, a GRPO run of 256 prompts × 64 samples on nano
 * asked for 3.8 GB twice (policy and reference), grew a SwiftShader tab past 8 GB and never finished a step.
 * 2 GiB keeps every lesson (GRPO 4 × 8 at 48 tokens on tiny: about 0.45 GB a run) and the defaults far inside.
 */
export const ACTIVATION_BUDGET_BYTES = 2 ** 31;

/** Bytes of the buffers {@link GptActivations} makes for `config` at batch shape (B, T). */
export function activationBytes(config: GPTConfig, B: number, T: number): number {
  const N = B * T;
  const C = config.nEmbd;
  const attention = B * config.nHead * T * T;
  // Per layer: res, ln1, att, mid, ln2 (N·C each), qkv (3·N·C), fc and its GELU (4·N·C each), P, 4 N-vectors.
  const layer = 16 * N * C + attention + 4 * N;
  // Shared: resOut, lnf, dres, dln, datt (N·C), dqkv (3·N·C), dfc, dfcGelu (4·N·C), dS, logits and dlogits
  // (N·V each), lnf's mean and rstd, values, rewards and their gradients (N each), tokens, positions, mask.
  const shared = 16 * N * C + attention + 2 * N * config.vocabSize + 9 * N;
  return 4 * (config.nLayer * layer + shared);
}

/**
 * Bytes of every buffer a rollout run (src/algorithms/rollout.ts) makes for B sequences of ≤ P prompt and ≤ S new
 * tokens: the generator's prompt [B, P] and one-token [B, 1] activation sets, its KV cache (2·L·B·(P + S)·C
 * floats) and bookkeeping (B·(P + S) + 2·B·S + 3·B), the policy's training set [B, P + S] (a second one with a
 * reference model) and the rollout's six per-token copies (6·B·(P + S)).
 */
export function rolloutBytes(config: GPTConfig, B: number, P: number, S: number, withRef: boolean): number {
  const T = P + S;
  const generator =
    activationBytes(config, B, P) +
    activationBytes(config, B, 1) +
    4 * (2 * config.nLayer * B * T * config.nEmbd + B * T + 2 * B * S + 3 * B);
  return generator + activationBytes(config, B, T) * (withRef ? 2 : 1) + 4 * 6 * B * T;
}

/**
 * Refuses `bytes` of activations for B sequences of T tokens above ACTIVATION_BUDGET_BYTES, naming how many such
 * sequences fit (bytes grow linearly with B). `what` names the holder ("activations", "a rollout run's activations").
 * @throws GpuLimitError over the budget.
 */
export function checkActivationBudget(what: string, bytes: number, B: number, T: number): void {
  if (bytes <= ACTIVATION_BUDGET_BYTES) return;
  const fit = Math.floor(ACTIVATION_BUDGET_BYTES / (bytes / B));
  throw new GpuLimitError(
    "activations",
    bytes,
    ACTIVATION_BUDGET_BYTES,
    `a batch of ${B} sequences of ${T} tokens needs ${mib(bytes)} of ${what} on this model (the lab allows ${mib(ACTIVATION_BUDGET_BYTES)}, ${fit} such sequences): train fewer sequences a step (prompts per step × samples per prompt) or shorter ones`,
  );
}

/**
 * @throws RangeError when T exceeds the context length; GpuLimitError when a batch's largest buffer (attention
 *   probabilities [B, H, T, T], logits [N, V], MLP activations [N, 4C]) is larger than the device can bind
 *   (WebGPU's default limit is 128 MiB), or all of them more than ACTIVATION_BUDGET_BYTES, naming what to lower.
 */
export class GptActivations {
  readonly N: number;
  /** Inputs: token ids, position ids [B, T] i32, key mask [B, T] f32 (1 real, 0 padding). */
  readonly tokens: Tensor<"i32">;
  readonly positions: Tensor<"i32">;
  readonly keyMask: Tensor<"f32">;
  readonly layers: LayerActs[];
  /** [N, C] residual leaving the last block. */
  readonly resOut: Tensor;
  readonly lnf: Tensor;
  readonly lnfMean: Tensor;
  readonly lnfRstd: Tensor;
  /** [N, V] LM logits (τ = 1; kernels divide by τ themselves). */
  readonly logits: Tensor;
  /** [N] value head and reward head outputs per position. */
  readonly values: Tensor;
  readonly rewards: Tensor;
  // gradients (scratch, reused by every backward pass)
  readonly dres: Tensor;
  readonly dln: Tensor;
  readonly dqkv: Tensor;
  readonly datt: Tensor;
  readonly dS: Tensor;
  readonly dfc: Tensor;
  readonly dfcGelu: Tensor;
  /** [N, V] dLoss/dlogits: written by a loss kernel before the backward pass. */
  readonly dlogits: Tensor;
  /** [N] dLoss/dvalue and dLoss/dreward (zero unless a loss uses the heads). */
  readonly dvalues: Tensor;
  readonly drewards: Tensor;
  private readonly all: Tensor[] = [];

  constructor(
    ctx: GpuContext,
    readonly config: GPTConfig,
    readonly B: number,
    readonly T: number,
  ) {
    if (T > config.contextLength)
      throw new RangeError(`T = ${T} exceeds the context length ${config.contextLength}`);
    const N = B * T;
    this.N = N;
    const C = config.nEmbd;
    const H = config.nHead;
    const V = config.vocabSize;
    // The largest buffers, checked before any is made, with what a user can change.
    const limit = maxBindableBytes(ctx.device);
    for (const [what, elements] of [
      [`attention probabilities, ${H} heads × ${T}² numbers a sequence`, B * H * T * T],
      [`logits, ${V} numbers a token`, N * V],
      [`MLP activations, ${4 * C} numbers a token`, N * 4 * C],
    ] as const)
      if (elements * 4 > limit) {
        const fit = Math.floor(limit / ((elements / B) * 4));
        throw new GpuLimitError(
          `${what}`,
          elements * 4,
          limit,
          `a batch of ${B} sequences of ${T} tokens needs ${mib(elements * 4)} for its ${what} (4 bytes each); this GPU allows ${mib(limit)} per buffer, ${fit} such sequences: train fewer sequences a step (prompts per step × samples per prompt) or shorter ones`,
        );
      }
    checkActivationBudget("activations", activationBytes(config, B, T), B, T);
    const t = <D extends "f32" | "i32">(shape: number[], label: string, dtype: D = "f32" as D): Tensor<D> => {
      const x = ctx.tensor(shape, dtype, label);
      this.all.push(x);
      return x;
    };
    this.tokens = t([B, T], "tokens", "i32");
    this.positions = t([B, T], "positions", "i32");
    this.keyMask = t([B, T], "keyMask");
    this.layers = [];
    for (let l = 0; l < config.nLayer; l++) {
      const p = `h.${l}`;
      this.layers.push({
        res: t([N, C], `${p}.res`),
        ln1: t([N, C], `${p}.ln1`),
        ln1Mean: t([N], `${p}.ln1.mean`),
        ln1Rstd: t([N], `${p}.ln1.rstd`),
        qkv: t([N, 3 * C], `${p}.qkv`),
        att: t([N, C], `${p}.att`),
        P: t([B, H, T, T], `${p}.P`),
        mid: t([N, C], `${p}.mid`),
        ln2: t([N, C], `${p}.ln2`),
        ln2Mean: t([N], `${p}.ln2.mean`),
        ln2Rstd: t([N], `${p}.ln2.rstd`),
        fc: t([N, 4 * C], `${p}.fc`),
        fcGelu: t([N, 4 * C], `${p}.fc.gelu`),
      });
    }
    this.resOut = t([N, C], "res.out");
    this.lnf = t([N, C], "lnf");
    this.lnfMean = t([N], "lnf.mean");
    this.lnfRstd = t([N], "lnf.rstd");
    this.logits = t([N, V], "logits");
    this.values = t([N], "values");
    this.rewards = t([N], "rewards");
    this.dres = t([N, C], "d.res");
    this.dln = t([N, C], "d.ln");
    this.dqkv = t([N, 3 * C], "d.qkv");
    this.datt = t([N, C], "d.att");
    this.dS = t([B, H, T, T], "d.S");
    this.dfc = t([N, 4 * C], "d.fc");
    this.dfcGelu = t([N, 4 * C], "d.fc.gelu");
    this.dlogits = t([N, V], "d.logits");
    this.dvalues = t([N], "d.values");
    this.drewards = t([N], "d.rewards");
  }

  destroy(): void {
    for (const x of this.all) x.destroy();
  }
}
