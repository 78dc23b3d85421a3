/**
 * KV-cached sampling with the TF.js twin's weights (the math of cli/bench/tfjs-gpt.ts: pre-LN blocks, GELU tanh,
 * causal attention over real keys, tied or untied head), for building preference data on a CPU: each new token
 * costs one position per row instead of re-running the whole sequence. Prompts are left-padded to P; position
 * ids count real tokens; a key is visible when it is real and not in the future. Sampling happens on the CPU
 * from the last position's logits with our Rng (τ, or argmax), as tfComplete does.
 * Shapes: B rows, T new positions this call (P for the prefill, 1 per decode step), L keys so far, C, H, hs.
 */
import type { Tensor, Tensor2D, Tensor4D } from "@tensorflow/tfjs-core";
import type { TfGpt } from "../../cli/bench/tfjs-gpt";
import { leftPadBatch } from "../../src/model/batch";
import { completionText } from "../../src/tasks/task";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import type { Rng } from "../../src/util/rng";
import { type CompleteOptions, pickToken } from "./sample";

const MASKED_SCORE = -1e9;

/** Logits [B·T, V] of T new positions per row, appending their keys/values to `cache` (per layer [B, H, L, hs]). */
function step(
  m: TfGpt,
  tokens: Int32Array,
  positions: Int32Array,
  keyBias: Tensor4D,
  B: number,
  T: number,
  cache: { k: Tensor4D[]; v: Tensor4D[] },
): Tensor2D {
  const { tf, config: cfg } = m;
  const C = cfg.nEmbd;
  const H = cfg.nHead;
  const hs = C / H;
  const p = (name: string): Tensor => m.vars.get(name)!;
  const linear = (x: Tensor2D, w: string, b: string | null): Tensor2D => {
    const y: Tensor2D = tf.matMul(x, p(w), false, true);
    return b ? tf.add<Tensor2D>(y, p(b)) : y;
  };
  const layerNorm = (x: Tensor2D, w: string, b: string): Tensor2D => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, cfg.lnEps))), p(w)), p(b));
  };
  const gelu = (x: Tensor2D): Tensor2D => {
    const inner = tf.mul(tf.add(x, tf.mul(tf.pow(x, 3), 0.044715)), Math.sqrt(2 / Math.PI));
    return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
  };
  const heads = (x: Tensor2D): Tensor4D => tf.transpose(tf.reshape(x, [B, T, H, hs]), [0, 2, 1, 3]);
  return tf.tidy(() => {
    let x: Tensor2D = tf.add(
      tf.gather(p("wte.weight"), tf.tensor1d(tokens, "int32")),
      tf.gather(p("wpe.weight"), tf.tensor1d(positions, "int32")),
    );
    for (let l = 0; l < cfg.nLayer; l++) {
      const h = `h.${l}`;
      const qkv = linear(
        layerNorm(x, `${h}.ln_1.weight`, `${h}.ln_1.bias`),
        `${h}.attn.c_attn.weight`,
        `${h}.attn.c_attn.bias`,
      );
      const [q, k, v] = tf.split(qkv, 3, 1).map((t) => heads(t as Tensor2D));
      const K = cache.k[l] ? tf.concat([cache.k[l], k], 2) : k;
      const V = cache.v[l] ? tf.concat([cache.v[l], v], 2) : v;
      cache.k[l]?.dispose();
      cache.v[l]?.dispose();
      cache.k[l] = tf.keep(K) as Tensor4D;
      cache.v[l] = tf.keep(V) as Tensor4D;
      const scores = tf.add(tf.div(tf.matMul(q, K, false, true), Math.sqrt(hs)), keyBias);
      const att = tf.reshape(tf.transpose(tf.matMul(tf.softmax(scores), V), [0, 2, 1, 3]), [
        B * T,
        C,
      ]) as Tensor2D;
      x = tf.add(x, linear(att, `${h}.attn.c_proj.weight`, `${h}.attn.c_proj.bias`));
      const fc = gelu(
        linear(
          layerNorm(x, `${h}.ln_2.weight`, `${h}.ln_2.bias`),
          `${h}.mlp.c_fc.weight`,
          `${h}.mlp.c_fc.bias`,
        ),
      );
      x = tf.add(x, linear(fc, `${h}.mlp.c_proj.weight`, `${h}.mlp.c_proj.bias`));
    }
    return linear(
      layerNorm(x, "ln_f.weight", "ln_f.bias"),
      cfg.tiedEmbeddings ? "wte.weight" : "lm_head.weight",
      null,
    );
  });
}

/** Completions of `prompts` (`<bos> prompt` → up to maxNewTokens, cut at `<eos>`), KV-cached; draws from `rng`. */
export async function tfCompleteCached(
  m: TfGpt,
  tok: Tokenizer,
  prompts: readonly string[],
  o: CompleteOptions,
  rng: Rng,
): Promise<string[]> {
  const { tf } = m;
  const V = m.config.vocabSize;
  const size = o.batch ?? 64;
  const out: string[] = [];
  for (let i = 0; i < prompts.length; i += size) {
    const rows = prompts.slice(i, i + size).map((p) => [tok.bosId, ...tok.encode(p)]);
    const B = rows.length;
    const P = Math.max(...rows.map((r) => r.length));
    const batch = leftPadBatch(rows, P, tok.padId);
    const real: number[][] = rows.map((_, b) => Array.from(batch.keyMask.subarray(b * P, (b + 1) * P)));
    const cache = { k: [] as Tensor4D[], v: [] as Tensor4D[] };
    // Prefill: query t sees key u ≤ t when u is real.
    const bias = new Float32Array(B * P * P).fill(MASKED_SCORE);
    for (let b = 0; b < B; b++)
      for (let t = 0; t < P; t++) for (let u = 0; u <= t; u++) if (real[b][u]) bias[(b * P + t) * P + u] = 0;
    let keyBias = tf.tensor4d(bias, [B, 1, P, P]);
    let logits = step(m, batch.tokens, batch.positions, keyBias, B, P, cache);
    let last = (await logits.data()) as Float32Array;
    let T = P;
    const gen: number[][] = rows.map(() => []);
    const done = rows.map(() => false);
    for (let s = 0; s < o.maxNewTokens; s++) {
      const next = new Int32Array(B);
      for (let b = 0; b < B; b++) {
        next[b] = done[b]
          ? tok.padId
          : pickToken(last.subarray((b * T + T - 1) * V, (b * T + T) * V), o.greedy, o.temperature ?? 1, rng);
        if (!done[b]) {
          gen[b].push(next[b]);
          if (next[b] === tok.eosId) done[b] = true;
        }
      }
      logits.dispose();
      keyBias.dispose();
      if (!done.includes(false) || s === o.maxNewTokens - 1) break;
      for (const r of real) r.push(1);
      const L = real[0].length;
      keyBias = tf.tensor4d(
        Float32Array.from(real.flat(), (k) => (k ? 0 : MASKED_SCORE)),
        [B, 1, 1, L],
      );
      const positions = Int32Array.from(rows, (r, b) => r.length + gen[b].length - 1);
      logits = step(m, next, positions, keyBias, B, 1, cache);
      last = (await logits.data()) as Float32Array;
      T = 1;
    }
    for (const t of [...cache.k, ...cache.v]) t.dispose();
    for (const g of gen) out.push(completionText(g, tok).text);
  }
  return out;
}
