/**
 * Batched generation on the GPU with a KV cache. Prompts are left-padded to a common width P; each step feeds
 * the newest token through the model (T = 1), appends its k/v to the per-layer caches and attends over them,
 * samples the next token on the GPU (seeded counter-based RNG: reproducible for a given seed and adapter) and
 * records it, its log-prob at τ and the row's true length (EOS included) on the GPU. Nothing comes back until
 * the end but a periodic check of whether every row has finished.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { decodeAttention } from "../kernels/decode_attention";
import { fill } from "../kernels/fill";
import { gatherRows } from "../kernels/gather_rows";
import { type GenBuffers, genBookkeep } from "../kernels/gen_bookkeep";
import { kvAppend, kvFill } from "../kernels/kv_append";
import { sample } from "../kernels/sample";
import { GptActivations } from "./activations";
import { leftPadBatch } from "./batch";
import { gptForward, gptForwardWith } from "./forward";
import type { GptWeights } from "./weights";

export interface SamplingOptions {
  /** τ > 0: tokens ~ softmax(logits / τ); log-probs are reported at the same τ. Default 1. */
  temperature?: number;
  /** Keep the k most likely tokens (0 = all). Default 0. */
  topK?: number;
  /** Argmax decoding. Default false. */
  greedy?: boolean;
  /** RNG seed (u32). Default 0. */
  seed?: number;
}

export interface GenerateRequest extends SamplingOptions {
  /** Token ids of each prompt (1 ≤ length ≤ P). */
  prompts: readonly (readonly number[])[];
  /**
   * New tokens per row, an integer in [1, S] for {@link Generator.generate} (S: its slots; P + S ≤ contextLength),
   * which stops early once every row is done (checked every 8 tokens); {@link generateRecompute} uses S =
   * maxNewTokens and always samples all of them.
   */
  maxNewTokens: number;
  /** End-of-sequence token id (an i32): a row is done once it samples it (counted in its length); never if ∉ [0, V). */
  eosId: number;
  /**
   * Padding token id (an i32, a vocabulary id in [0, V) since padded prompt slots are embedded, then masked):
   * left-pads the prompts and fills each row's slots after its EOS, with log-prob 0.
   */
  padId: number;
  /**
   * Progress: called with the tokens sampled so far (of maxNewTokens) once the device has finished them, at
   * each "all done" check (every 8 tokens) that finds rows still sampling; not when they were queued, and never
   * for the last token.
   */
  onTokens?: (done: number, total: number) => void;
}

export interface Generation {
  B: number;
  /** S = the request's maxNewTokens: slots per row. */
  S: number;
  /** [B·S] generated tokens; PAD after each row's EOS. */
  tokens: Int32Array;
  /** [B·S] log π(token) at the sampling temperature over the full vocabulary; 0 after EOS. */
  logp: Float32Array;
  /** [B] true completion lengths, EOS included (S when a row never emitted EOS). */
  lengths: Uint32Array;
  /** [B] prompt lengths. */
  promptLengths: number[];
}

/** Rows checked for "all done" every this many steps (one small async readback). */
const DONE_CHECK_EVERY = 8;

function sampleOpts(r: SamplingOptions & { padId: number }, step: number) {
  return {
    temperature: r.temperature ?? 1,
    topK: r.topK ?? 0,
    greedy: r.greedy ?? false,
    seed: r.seed ?? 0,
    step,
    padId: r.padId,
  };
}

/** A KV-cached generator for B rows, prompts up to P tokens and up to S new tokens (P + S ≤ contextLength). */
export class Generator {
  private readonly prompt: GptActivations;
  private readonly step: GptActivations;
  private readonly kcache: Tensor[] = [];
  private readonly vcache: Tensor[] = [];
  private readonly cacheMask: Tensor;
  private readonly logp: Tensor;
  private readonly buf: GenBuffers;

  constructor(
    readonly ctx: GpuContext,
    readonly w: GptWeights,
    readonly B: number,
    readonly P: number,
    readonly S: number,
  ) {
    const cfg = w.config;
    if (P + S > cfg.contextLength)
      throw new RangeError(`prompt ${P} + new tokens ${S} exceed the context length ${cfg.contextLength}`);
    const hs = cfg.nEmbd / cfg.nHead;
    this.prompt = new GptActivations(ctx, cfg, B, P);
    this.step = new GptActivations(ctx, cfg, B, 1);
    for (let l = 0; l < cfg.nLayer; l++) {
      this.kcache.push(ctx.tensor([B, cfg.nHead, P + S, hs], "f32", `h.${l}.kcache`));
      this.vcache.push(ctx.tensor([B, cfg.nHead, P + S, hs], "f32", `h.${l}.vcache`));
    }
    this.cacheMask = ctx.tensor([B, P + S], "f32", "cache.mask");
    this.logp = ctx.tensor([B], "f32", "gen.logp");
    this.buf = {
      done: ctx.tensor([B], "u32", "gen.done"),
      lengths: ctx.tensor([B], "u32", "gen.lengths"),
      outTokens: ctx.tensor([B, S], "i32", "gen.tokens"),
      outLogp: ctx.tensor([B, S], "f32", "gen.logp.all"),
    };
  }

  /**
   * Generate up to S tokens per prompt.
   * @throws RangeError if the batch size, a prompt length or maxNewTokens does not fit this generator, or eosId or
   *   padId is not an i32.
   */
  async generate(r: GenerateRequest): Promise<Generation> {
    const { ctx, B, P, S } = this;
    if (r.prompts.length !== B)
      throw new RangeError(`generator holds ${B} rows, got ${r.prompts.length} prompts`);
    if (r.maxNewTokens < 1 || r.maxNewTokens > S)
      throw new RangeError(`maxNewTokens must be in [1, ${S}], got ${r.maxNewTokens}`);
    const batch = leftPadBatch(r.prompts, P, r.padId);
    const promptLengths = r.prompts.map((p) => p.length);
    ctx.upload(this.prompt.tokens, batch.tokens);
    ctx.upload(this.prompt.positions, batch.positions);
    ctx.upload(this.prompt.keyMask, batch.keyMask);
    const mask = new Float32Array(B * (P + S)).fill(1);
    for (let b = 0; b < B; b++) mask.set(batch.keyMask.subarray(b * P, (b + 1) * P), b * (P + S));
    ctx.upload(this.cacheMask, mask);
    fill(ctx, this.buf.done, 0);
    fill(ctx, this.buf.lengths, 0);

    // Prefill: the whole prompt, caches filled from every layer's qkv, first token from the last position.
    gptForward(ctx, this.w, this.prompt);
    this.prompt.layers.forEach((a, l) => {
      kvFill(ctx, this.kcache[l], this.vcache[l], a.qkv);
    });
    const V = this.w.config.vocabSize;
    gatherRows(ctx, this.step.logits, this.prompt.logits, { cols: V, stride: P, offset: P - 1 });
    let steps = 0;
    for (let s = 0; s < r.maxNewTokens; s++) {
      if (s > 0) this.decode(s, promptLengths);
      sample(ctx, this.step.tokens, this.logp, this.step.logits, this.buf.done, sampleOpts(r, P + s));
      genBookkeep(ctx, this.buf, this.step.tokens, this.logp, s, r.eosId, r.padId);
      steps = s + 1;
      if (steps % DONE_CHECK_EVERY === 0 && steps < r.maxNewTokens) {
        const done = await ctx.read(this.buf.done);
        if (done.every((d) => d)) break;
        r.onTokens?.(steps, r.maxNewTokens);
      }
    }
    const [allTokens, allLogp, lengths] = await Promise.all([
      ctx.read(this.buf.outTokens),
      ctx.read(this.buf.outLogp),
      ctx.read(this.buf.lengths),
    ]);
    // Keep the first maxNewTokens slots of each row; slots never reached (early stop) become padding.
    const n = r.maxNewTokens;
    const tokens = new Int32Array(B * n).fill(r.padId);
    const logp = new Float32Array(B * n);
    for (let b = 0; b < B; b++)
      for (let s = 0; s < steps; s++) {
        tokens[b * n + s] = allTokens[b * S + s];
        logp[b * n + s] = allLogp[b * S + s];
      }
    return { B, S: n, tokens, logp, lengths: lengths as Uint32Array, promptLengths };
  }

  /** Feed the token sampled at step s−1 (slot P+s−1) through the model with the KV cache. */
  private decode(s: number, promptLengths: number[]): void {
    const { ctx, B, P } = this;
    ctx.upload(
      this.step.positions,
      Int32Array.from({ length: B }, (_, b) => promptLengths[b] + s - 1),
    );
    const L = P + s;
    gptForwardWith(ctx, this.w, this.step, (l, a) => {
      kvAppend(ctx, this.kcache[l], this.vcache[l], a.qkv, L);
      decodeAttention(ctx, a.att, a.qkv, this.kcache[l], this.vcache[l], this.cacheMask, L);
    });
  }

  destroy(): void {
    this.prompt.destroy();
    this.step.destroy();
    for (const t of [...this.kcache, ...this.vcache, this.cacheMask, this.logp, ...Object.values(this.buf)])
      t.destroy();
  }
}

/**
 * The same sampling without a cache: every step re-runs the full forward pass over prompt + tokens so far and
 * samples from the last position with the same (seed, step) counters. The reference for the KV-cache test and
 * the baseline of the benchmark; reads the new tokens back every step.
 */
export async function generateRecompute(
  ctx: GpuContext,
  w: GptWeights,
  r: GenerateRequest,
  P: number,
): Promise<Generation> {
  const B = r.prompts.length;
  const S = r.maxNewTokens;
  const V = w.config.vocabSize;
  const promptLengths = r.prompts.map((p) => p.length);
  const prompt = leftPadBatch(r.prompts, P, r.padId);
  const generated: number[][] = r.prompts.map(() => []);
  const logits = ctx.tensor([B, V], "f32", "recompute.logits");
  const tok = ctx.tensor([B], "i32", "recompute.token");
  const lp = ctx.tensor([B], "f32", "recompute.logp");
  const buf: GenBuffers = {
    done: ctx.tensor([B], "u32", "recompute.done"),
    lengths: ctx.tensor([B], "u32", "recompute.lengths"),
    outTokens: ctx.tensor([B, S], "i32", "recompute.tokens"),
    outLogp: ctx.tensor([B, S], "f32", "recompute.logp.all"),
  };
  for (let s = 0; s < S; s++) {
    const T = P + s;
    const acts = new GptActivations(ctx, w.config, B, T);
    const tokens = new Int32Array(B * T);
    const positions = new Int32Array(B * T);
    const keyMask = new Float32Array(B * T);
    for (let b = 0; b < B; b++) {
      tokens.set(prompt.tokens.subarray(b * P, (b + 1) * P), b * T);
      positions.set(prompt.positions.subarray(b * P, (b + 1) * P), b * T);
      keyMask.set(prompt.keyMask.subarray(b * P, (b + 1) * P), b * T);
      for (let j = 0; j < s; j++) {
        tokens[b * T + P + j] = generated[b][j];
        positions[b * T + P + j] = promptLengths[b] + j;
        keyMask[b * T + P + j] = 1;
      }
    }
    ctx.upload(acts.tokens, tokens);
    ctx.upload(acts.positions, positions);
    ctx.upload(acts.keyMask, keyMask);
    gptForward(ctx, w, acts);
    gatherRows(ctx, logits, acts.logits, { cols: V, stride: T, offset: T - 1 });
    sample(ctx, tok, lp, logits, buf.done, sampleOpts(r, P + s));
    genBookkeep(ctx, buf, tok, lp, s, r.eosId, r.padId);
    const t = await ctx.read(tok);
    for (let b = 0; b < B; b++) generated[b].push(t[b]);
    acts.destroy();
  }
  const [tokens, logp, lengths] = await Promise.all([
    ctx.read(buf.outTokens),
    ctx.read(buf.outLogp),
    ctx.read(buf.lengths),
  ]);
  for (const t of [logits, tok, lp, ...Object.values(buf)]) t.destroy();
  return {
    B,
    S,
    tokens: tokens as Int32Array,
    logp: logp as Float32Array,
    lengths: lengths as Uint32Array,
    promptLengths,
  };
}
