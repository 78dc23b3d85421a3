/**
 * The rollout engine shared by the online algorithms (PPO, GRPO, RLOO, REINFORCE, online DPO, best-of-n):
 * sample completions with the KV-cached sampler, lay prompt + completion out with masks from true lengths,
 * then one policy forward and one reference forward over the whole batch give, per completion token, the
 * log-probs at τ under the sampling policy (π_old) and the reference (π_ref), the entropy at τ, the exact KL
 * over the vocabulary, and the value head. Scores come from the run's reward source and the gold scorer.
 * Per-token arrays are read back once per rollout (the CPU computes advantages in float64 from them).
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { entropy } from "../kernels/entropy";
import { exactKl } from "../kernels/exact_kl";
import { tokenLogprob } from "../kernels/token_logprob";
import { checkActivationBudget, GptActivations, rolloutBytes } from "../model/activations";
import { gptForward } from "../model/forward";
import { Generator } from "../model/generate";
import type { GptWeights } from "../model/weights";
import type { RewardSample, RewardSource } from "./reward";
import type { StepProgress } from "./run";
import { layoutSequences, type SequenceBatch, toCompletion } from "./sequences";

/**
 * Settings of one {@link RolloutEngine.collect}; run.ts rolloutOptions builds them from a config and step.
 */
export interface RolloutOptions {
  /** Sampling temperature τ (> 0); every log-prob, entropy and KL is computed at the same τ. */
  temperature: number;
  /** Top-k sampling (0 = off). */
  topK: number;
  /** Seed of this rollout's sampler (u32). */
  seed: number;
  eosId: number;
  padId: number;
  /** The source the run optimises. */
  reward: RewardSource;
  /** The task's gold scorer (always computed). */
  gold: RewardSource;
  /** Where the rollout is (sampling token n of S, then scoring), for a progress display. */
  progress?: (p: StepProgress) => void;
  /**
   * New tokens to sample, 1 … S (default S): fewer when the engine's S is longer than the run's own budget
   * (DPO lays out dataset pairs longer than the completions it samples); the rest of the layout is padding.
   */
  maxNewTokens?: number;
  /**
   * TRL's missing_eos_penalty (≥ 0, default 0): subtracted from the run's reward of each completion cut at the
   * length limit without EOS (`ended` false); the gold is not changed.
   */
  missingEosPenalty?: number;
}

/**
 * One sampled and measured batch of B completions (host memory; the engine keeps the last as `last`).
 * Without a reference model logpRef equals logpOld and klExact is 0.
 */
export interface Rollout {
  seq: SequenceBatch;
  prompts: number[][];
  /** Completion tokens, true length (EOS included when emitted). */
  completions: number[][];
  /** [B] whether completion b ended with EOS (false: cut by the length limit S, never ended). */
  ended: boolean[];
  /** [B] scores from the run's reward source (less missingEosPenalty) and the gold scorer. */
  reward: Float64Array;
  gold: Float64Array;
  /** Per completion token [B·S] (0 on masked slots): log π_old(y_t), log π_ref(y_t) at τ, entropy H_t at τ,
   * exact KL(π_old ‖ π_ref)_t at τ, value V_t. */
  logpOld: Float64Array;
  logpRef: Float64Array;
  entropy: Float64Array;
  klExact: Float64Array;
  values: Float64Array;
  /** Completion tokens in the batch (mask count). */
  tokens: number;
}

/**
 * TRL's missing_eos_penalty: `scores` [B] with `penalty` (≥ 0) subtracted from each completion [B] that does not
 * end with `eosId` (cut at the length limit). A new array; penalty 0 leaves the values as they are.
 */
export function missingEosPenalised(
  scores: ArrayLike<number>,
  completions: readonly (readonly number[])[],
  eosId: number,
  penalty: number,
): Float64Array {
  return Float64Array.from(scores, (v, b) => (completions[b].at(-1) === eosId ? v : v - penalty));
}

/** Rollouts of B prompts of ≤ P tokens with ≤ S new tokens each. Owns the policy activations the trainers reuse. */
export class RolloutEngine {
  readonly generator: Generator;
  /** Policy activations over [B, P + S]: the trainers run their training forward passes in these. */
  readonly acts: GptActivations;
  private readonly refActs: GptActivations | null;
  /** GPU copies of the last rollout: targets [B·T] i32, loss mask [B·T], log π_old [B·T] (full layout). */
  readonly targets: Tensor<"i32">;
  readonly lossMask: Tensor<"f32">;
  readonly logpOld: Tensor<"f32">;
  /** log π_ref [B·T] of the last rollout (full layout; equals log π_old without a reference model). */
  readonly logpRefT: Tensor;
  private readonly entT: Tensor;
  private readonly klT: Tensor;
  last: Rollout | null = null;

  constructor(
    readonly ctx: GpuContext,
    readonly policy: GptWeights,
    readonly ref: GptWeights | null,
    readonly B: number,
    readonly P: number,
    readonly S: number,
  ) {
    const T = P + S;
    // The run's sets together, before any is made (each set alone is checked again as it is made).
    checkActivationBudget(
      ref ? "activations (policy, reference and sampling sets)" : "activations (policy and sampling sets)",
      rolloutBytes(policy.config, B, P, S, ref !== null),
      B,
      T,
    );
    this.generator = new Generator(ctx, policy, B, P, S);
    this.acts = new GptActivations(ctx, policy.config, B, T);
    this.refActs = ref ? new GptActivations(ctx, ref.config, B, T) : null;
    this.targets = ctx.tensor([B * T], "i32", "rollout.targets");
    this.lossMask = ctx.tensor([B * T], "f32", "rollout.lossMask");
    this.logpOld = ctx.tensor([B * T], "f32", "rollout.logpOld");
    this.logpRefT = ctx.tensor([B * T], "f32", "rollout.logpRef");
    this.entT = ctx.tensor([B * T], "f32", "rollout.entropy");
    this.klT = ctx.tensor([B * T], "f32", "rollout.klExact");
  }

  /** Upload a sequence batch into the policy (and reference) activations and the target/mask tensors. */
  load(seq: SequenceBatch): void {
    const { ctx } = this;
    for (const a of this.refActs ? [this.acts, this.refActs] : [this.acts]) {
      ctx.upload(a.tokens, seq.tokens);
      ctx.upload(a.positions, seq.positions);
      ctx.upload(a.keyMask, seq.keyMask);
    }
    ctx.upload(this.targets, seq.targets);
    ctx.upload(this.lossMask, seq.lossMask);
  }

  /**
   * Sample completions for `prompts` (B of them) and measure them.
   * @throws RangeError on a prompt count other than B or a prompt longer than P.
   */
  async collect(prompts: number[][], o: RolloutOptions): Promise<Rollout> {
    const { P, S } = this;
    const n = Math.max(1, Math.min(o.maxNewTokens ?? S, S));
    o.progress?.({ stage: "sampling", done: 0, total: n });
    const gen = await this.generator.generate({
      prompts,
      maxNewTokens: n,
      eosId: o.eosId,
      padId: o.padId,
      temperature: o.temperature,
      topK: o.topK,
      seed: o.seed,
      onTokens: o.progress && ((done, total) => o.progress?.({ stage: "sampling", done, total })),
    });
    o.progress?.({ stage: "scoring", done: 0, total: 0 });
    // gen.tokens is [B, n]; the layout's rows are [B, S] (padding past n).
    const rows = n === S ? gen.tokens : new Int32Array(prompts.length * S).fill(o.padId);
    if (n < S)
      for (let b = 0; b < prompts.length; b++) rows.set(gen.tokens.subarray(b * n, (b + 1) * n), b * S);
    const seq = layoutSequences(prompts, rows, gen.lengths, P, S, o.padId);
    const completions = prompts.map((_, b) => Array.from(rows.subarray(b * S, b * S + gen.lengths[b])));
    const samples: RewardSample[] = prompts.map((prompt, b) => ({ prompt, completion: completions[b] }));
    const scoring = Promise.all([o.reward.score(samples), o.gold.score(samples)]);
    // Awaited below, after the measuring: a failure meanwhile is not an unhandled rejection.
    scoring.catch(() => {});
    const m = await this.measure(seq, o.temperature);
    const [reward, gold] = await scoring;
    const tokens = seq.completionMask.reduce((a, v) => a + v, 0);
    this.last = {
      seq,
      prompts,
      completions,
      ended: completions.map((c) => c.at(-1) === o.eosId),
      reward: missingEosPenalised(reward, completions, o.eosId, o.missingEosPenalty ?? 0),
      gold: Float64Array.from(gold),
      ...m,
      tokens,
    };
    return this.last;
  }

  /** Forward passes over a laid-out batch: per-token log-probs, entropy, exact KL and values (completion layout). */
  async measure(
    seq: SequenceBatch,
    tau: number,
  ): Promise<Pick<Rollout, "logpOld" | "logpRef" | "entropy" | "klExact" | "values">> {
    const { ctx } = this;
    this.load(seq);
    const mask = this.lossMask;
    gptForward(ctx, this.policy, this.acts);
    tokenLogprob(ctx, this.logpOld, this.acts.logits, this.targets, { tau, mask });
    entropy(ctx, this.entT, this.acts.logits, { tau, mask });
    if (this.ref && this.refActs) {
      gptForward(ctx, this.ref, this.refActs);
      tokenLogprob(ctx, this.logpRefT, this.refActs.logits, this.targets, { tau, mask });
      exactKl(ctx, this.klT, this.acts.logits, this.refActs.logits, { tau, mask });
    }
    const reads = [
      this.logpOld,
      this.entT,
      this.acts.values,
      ...(this.ref ? [this.logpRefT, this.klT] : []),
    ].map((t) => ctx.read(t));
    const [lo, en, va, lr, kl] = await Promise.all(reads);
    const zero = new Float64Array(seq.B * seq.S);
    const c = (x: ArrayLike<number> | undefined) =>
      x ? maskedCompletion(toCompletion(x, seq), seq.completionMask) : zero;
    return { logpOld: c(lo), entropy: c(en), values: c(va), logpRef: lr ? c(lr) : c(lo), klExact: c(kl) };
  }

  destroy(): void {
    this.generator.destroy();
    this.acts.destroy();
    this.refActs?.destroy();
    for (const t of [this.targets, this.lossMask, this.logpOld, this.logpRefT, this.entT, this.klT])
      t.destroy();
  }
}

/** Zero the masked slots (values and stale data there never reach the math). */
export function maskedCompletion(x: Float64Array, mask: Float32Array): Float64Array {
  for (let i = 0; i < x.length; i++) if (!mask[i]) x[i] = 0;
  return x;
}
