/**
 * Sampling throughput: the KV-cached `Generator` vs `generateRecompute` (the full forward pass over prompt +
 * tokens so far at every step, reading each new token back), src/model/generate.ts. Same model, prompts, seed
 * and number of new tokens; EOS is set to an id no row can emit, so every row runs all S steps. Each call ends by
 * reading its tokens back (the sync point of the wall clock).
 */
import type { GpuContext } from "../../src/gpu/context";
import { type PresetName, preset } from "../../src/model/config";
import { type GenerateRequest, Generator, generateRecompute } from "../../src/model/generate";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";

export interface SamplingRow {
  model: PresetName;
  B: number;
  /** Prompt width (left-padded). */
  P: number;
  /** New tokens per row. */
  S: number;
  /** Wall-clock ms per generate call (prefill included). */
  ms: { cached: number; recompute: number };
  /** B·S new tokens per second. */
  tokensPerS: { cached: number; recompute: number };
  /** cached / recompute tokens/s. */
  ratio: number;
}

/** Warm-up calls generate this many tokens (pipelines compile on the first step of each shape family). */
const WARMUP_TOKENS = 2;

async function timeCalls(
  call: (maxNewTokens: number) => Promise<unknown>,
  S: number,
  reps: number,
): Promise<number> {
  await call(Math.min(S, WARMUP_TOKENS));
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) await call(S);
  return (performance.now() - t0) / reps;
}

/** Time KV-cached vs recomputing generation of S tokens for B prompts of 1…P tokens. */
export async function benchSampling(
  ctx: GpuContext,
  o: { model: PresetName; B: number; P: number; S: number; reps: number },
): Promise<SamplingRow> {
  const config = preset(o.model);
  const rng = new Rng(1);
  const w = new GptWeights(
    ctx,
    config,
    initParams(paramLayout(config), () => rng.normal()),
  );
  const prompts = Array.from({ length: o.B }, (_, b) =>
    Array.from({ length: o.P - (b % o.P) }, () => rng.int(1, config.vocabSize - 1)),
  );
  const request = (maxNewTokens: number): GenerateRequest => ({
    prompts,
    maxNewTokens,
    eosId: -1, // never sampled: no early stop
    padId: 0,
    temperature: 1,
    seed: 7,
  });
  const gen = new Generator(ctx, w, o.B, o.P, o.S);
  const cached = await timeCalls((n) => gen.generate(request(n)), o.S, o.reps);
  gen.destroy();
  const recompute = await timeCalls((n) => generateRecompute(ctx, w, request(n), o.P), o.S, o.reps);
  w.destroy();
  const tokens = o.B * o.S;
  return {
    model: o.model,
    B: o.B,
    P: o.P,
    S: o.S,
    ms: { cached, recompute },
    tokensPerS: { cached: (tokens * 1000) / cached, recompute: (tokens * 1000) / recompute },
    ratio: recompute / cached,
  };
}
