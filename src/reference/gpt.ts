/**
 * CPU twin of the whole GPT forward pass, in float64 plain loops, written independently of the per-kernel twins:
 * the reference for whole-model logits and (through finite differences) for whole-model gradients.
 * Shapes: tokens/positions/keyMask [B·T]; logits [B·T·V]; values [B·T]; hidden (final LayerNorm output) [B·T·C].
 */
import type { GPTConfig } from "../model/config";
import { type ParamLayout, spec } from "../model/params";

export interface RefBatch {
  B: number;
  T: number;
  tokens: ArrayLike<number>;
  positions: ArrayLike<number>;
  /** 1 = real token, 0 = padding (padding keys are never attended to). */
  keyMask: ArrayLike<number>;
}

export interface RefOutput {
  logits: Float64Array;
  values: Float64Array;
  hidden: Float64Array;
}

function layerNorm(
  x: Float64Array,
  N: number,
  C: number,
  w: Float64Array,
  b: Float64Array,
  eps: number,
): Float64Array {
  const out = new Float64Array(N * C);
  for (let n = 0; n < N; n++) {
    let mean = 0;
    for (let c = 0; c < C; c++) mean += x[n * C + c];
    mean /= C;
    let v = 0;
    for (let c = 0; c < C; c++) v += (x[n * C + c] - mean) ** 2;
    const rstd = 1 / Math.sqrt(v / C + eps);
    for (let c = 0; c < C; c++) out[n * C + c] = (x[n * C + c] - mean) * rstd * w[c] + b[c];
  }
  return out;
}

/** y [N, O] = x [N, I] · Wᵀ + b with W [O, I]. */
function linear(
  x: Float64Array,
  N: number,
  I: number,
  W: Float64Array,
  O: number,
  b: Float64Array | null,
): Float64Array {
  const y = new Float64Array(N * O);
  for (let n = 0; n < N; n++)
    for (let o = 0; o < O; o++) {
      let acc = b ? b[o] : 0;
      for (let i = 0; i < I; i++) acc += x[n * I + i] * W[o * I + i];
      y[n * O + o] = acc;
    }
  return y;
}

function gelu(x: number): number {
  return 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
}

/** The float64 forward pass of `params` (flat, laid out by `layout`). */
export function gptForwardRef(
  cfg: GPTConfig,
  layout: ParamLayout,
  params: ArrayLike<number>,
  batch: RefBatch,
): RefOutput {
  const { B, T } = batch;
  const C = cfg.nEmbd;
  const H = cfg.nHead;
  const hs = C / H;
  const V = cfg.vocabSize;
  const N = B * T;
  const p = (name: string) => {
    const s = spec(layout, name);
    const n = s.shape.reduce((a, b) => a * b, 1);
    return Float64Array.from({ length: n }, (_, i) => params[s.offset + i]);
  };
  const wte = p("wte.weight");
  const wpe = p("wpe.weight");
  let x = new Float64Array(N * C);
  for (let n = 0; n < N; n++) {
    const tok = batch.tokens[n];
    const pos = batch.positions[n];
    for (let c = 0; c < C; c++) x[n * C + c] = wte[tok * C + c] + wpe[pos * C + c];
  }
  for (let l = 0; l < cfg.nLayer; l++) {
    const h = `h.${l}`;
    const ln1 = layerNorm(x, N, C, p(`${h}.ln_1.weight`), p(`${h}.ln_1.bias`), cfg.lnEps);
    const qkv = linear(ln1, N, C, p(`${h}.attn.c_attn.weight`), 3 * C, p(`${h}.attn.c_attn.bias`));
    const att = new Float64Array(N * C);
    for (let b = 0; b < B; b++)
      for (let hh = 0; hh < H; hh++)
        for (let t = 0; t < T; t++) {
          const q = (b * T + t) * 3 * C + hh * hs;
          const scores: number[] = [];
          const keys: number[] = [];
          for (let t2 = 0; t2 <= t; t2++) {
            if (!batch.keyMask[b * T + t2]) continue;
            const k = (b * T + t2) * 3 * C + C + hh * hs;
            let s = 0;
            for (let i = 0; i < hs; i++) s += qkv[q + i] * qkv[k + i];
            scores.push(s / Math.sqrt(hs));
            keys.push(t2);
          }
          if (!keys.length) continue;
          const m = Math.max(...scores);
          const e = scores.map((s) => Math.exp(s - m));
          const z = e.reduce((a, v) => a + v, 0);
          for (let j = 0; j < keys.length; j++) {
            const v = (b * T + keys[j]) * 3 * C + 2 * C + hh * hs;
            for (let i = 0; i < hs; i++) att[(b * T + t) * C + hh * hs + i] += (e[j] / z) * qkv[v + i];
          }
        }
    const proj = linear(att, N, C, p(`${h}.attn.c_proj.weight`), C, p(`${h}.attn.c_proj.bias`));
    x = x.map((v, i) => v + proj[i]);
    const ln2 = layerNorm(x, N, C, p(`${h}.ln_2.weight`), p(`${h}.ln_2.bias`), cfg.lnEps);
    const fc = linear(ln2, N, C, p(`${h}.mlp.c_fc.weight`), 4 * C, p(`${h}.mlp.c_fc.bias`)).map(gelu);
    const out = linear(fc, N, 4 * C, p(`${h}.mlp.c_proj.weight`), C, p(`${h}.mlp.c_proj.bias`));
    x = x.map((v, i) => v + out[i]);
  }
  const hidden = layerNorm(x, N, C, p("ln_f.weight"), p("ln_f.bias"), cfg.lnEps);
  const head = cfg.tiedEmbeddings ? wte : p("lm_head.weight");
  const logits = linear(hidden, N, C, head, V, null);
  const values = linear(hidden, N, C, p("value_head.weight"), 1, p("value_head.bias"));
  return { logits, values, hidden };
}

/**
 * Mean token cross-entropy of `targets` (−1 = ignore) under the logits: the SFT / pretraining loss, float64.
 * Used with finite differences to check the GPU's whole-model gradients.
 */
export function crossEntropyRef(logits: Float64Array, targets: ArrayLike<number>, V: number): number {
  let loss = 0;
  let count = 0;
  for (let n = 0; n < targets.length; n++) {
    const y = targets[n];
    if (y < 0) continue;
    let m = Number.NEGATIVE_INFINITY;
    for (let v = 0; v < V; v++) m = Math.max(m, logits[n * V + v]);
    let z = 0;
    for (let v = 0; v < V; v++) z += Math.exp(logits[n * V + v] - m);
    loss += -(logits[n * V + y] - m - Math.log(z));
    count++;
  }
  return count ? loss / count : 0;
}
