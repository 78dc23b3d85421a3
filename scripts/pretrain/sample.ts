/**
 * Completions of text prompts (`<bos> prompt` → up to maxNewTokens tokens, cut at the first `<eos>` by
 * completionText), two ways:
 * - {@link tfComplete}: the TF.js twin, recomputing the whole sequence every step (no KV cache), sampling on the
 *   CPU with our Rng. Used for the cheap greedy evaluation during arithmetic pretraining.
 * - {@link wgslComplete}: our WGSL engine's KV-cached Generator (src/model/generate.ts) — the lab's own
 *   sampler, used for the final evaluation and for the shipped preference data.
 */
import { type TfGpt, tfGptForward } from "../../cli/bench/tfjs-gpt";
import type { GpuContext } from "../../src/gpu/context";
import { leftPadBatch } from "../../src/model/batch";
import { Generator } from "../../src/model/generate";
import type { GptWeights } from "../../src/model/weights";
import { completionText } from "../../src/tasks/task";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import type { Rng } from "../../src/util/rng";

export interface CompleteOptions {
  maxNewTokens: number;
  /** Argmax decoding (else sampling at `temperature`). */
  greedy: boolean;
  /** τ > 0. Default 1. */
  temperature?: number;
  /** Rows per forward pass / generator batch. Default 64. */
  batch?: number;
}

/** Index of the sampled token from logits row `row` (length V) at τ, or the argmax (lowest id on ties). */
export function pickToken(row: Float32Array, greedy: boolean, tau: number, rng: Rng): number {
  let best = 0;
  for (let v = 1; v < row.length; v++) if (row[v] > row[best]) best = v;
  if (greedy) return best;
  let z = 0;
  const p = Array.from(row, (x) => {
    const e = Math.exp((x - row[best]) / tau);
    z += e;
    return e;
  });
  let u = rng.float() * z;
  for (let v = 0; v < p.length; v++) if ((u -= p[v]) < 0) return v;
  return p.length - 1;
}

/** TF.js twin completions of `prompts` (see the module comment); sampling draws from `rng`. */
export async function tfComplete(
  m: TfGpt,
  tok: Tokenizer,
  prompts: readonly string[],
  o: CompleteOptions,
  rng: Rng,
): Promise<string[]> {
  const out: string[] = [];
  const size = o.batch ?? 64;
  const V = m.config.vocabSize;
  for (let i = 0; i < prompts.length; i += size) {
    const rows = prompts.slice(i, i + size).map((p) => [tok.bosId, ...tok.encode(p)]);
    const gen: number[][] = rows.map(() => []);
    const done = rows.map(() => false);
    for (let s = 0; s < o.maxNewTokens && done.includes(false); s++) {
      const seqs = rows.map((r, b) => [...r, ...gen[b]]);
      const T = Math.max(...seqs.map((q) => q.length));
      const res = tfGptForward(m, leftPadBatch(seqs, T, tok.padId));
      const logits = (await res.logits.data()) as Float32Array;
      for (const t of Object.values(res)) t.dispose();
      seqs.forEach((_, b) => {
        if (done[b]) return;
        const row = logits.subarray((b * T + T - 1) * V, (b * T + T) * V);
        const id = pickToken(row, o.greedy, o.temperature ?? 1, rng);
        gen[b].push(id);
        if (id === tok.eosId) done[b] = true;
      });
    }
    for (const g of gen) out.push(completionText(g, tok).text);
  }
  return out;
}

/**
 * WGSL Generator completions of `prompts` with the parameters `params` (flat, our layout). The generator's
 * RNG is counter-based: batch k uses seed `seed + k`, so the result depends only on (params, prompts, seed,
 * batch size) and the adapter.
 */
export async function wgslComplete(
  ctx: GpuContext,
  w: GptWeights,
  tok: Tokenizer,
  prompts: readonly string[],
  o: CompleteOptions,
  seed: number,
): Promise<string[]> {
  const B = Math.min(o.batch ?? 64, prompts.length);
  const encoded = prompts.map((p) => [tok.bosId, ...tok.encode(p)]);
  const P = Math.max(...encoded.map((e) => e.length));
  const gen = new Generator(ctx, w, B, P, o.maxNewTokens);
  const out: string[] = [];
  try {
    for (let i = 0, k = 0; i < encoded.length; i += B, k++) {
      const chunk = encoded.slice(i, i + B);
      const n = chunk.length;
      while (chunk.length < B) chunk.push(chunk[0]); // fill the last batch; extra rows are dropped
      const g = await gen.generate({
        prompts: chunk,
        maxNewTokens: o.maxNewTokens,
        eosId: tok.eosId,
        padId: tok.padId,
        greedy: o.greedy,
        temperature: o.temperature ?? 1,
        seed: seed + k,
      });
      for (let b = 0; b < n; b++)
        out.push(completionText(g.tokens.subarray(b * g.S, (b + 1) * g.S), tok).text);
    }
  } finally {
    gen.destroy();
  }
  return out;
}
