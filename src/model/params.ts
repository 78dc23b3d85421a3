/**
 * Parameter layout: every parameter lives in one flat f32 buffer (gradients and AdamW moments alike), each tensor
 * at a 64-element (256-byte) aligned offset so it can be bound as a storage-buffer view. Names follow GPT-2's
 * (`h.{l}.attn.c_attn.weight` …) so checkpoints read like Hugging Face ones. Linear weights are [out, in]
 * (y = x·Wᵀ + b). Heads: `value_head` (per-token scalar, PPO) and `reward_head` (scalar at the last real
 * token, reward models) are always present — small, and unused heads get no gradient.
 */
import type { GPTConfig } from "./config";

/** Offsets are multiples of this many f32 elements (256 bytes, WebGPU's minStorageBufferOffsetAlignment). */
export const PARAM_ALIGN = 64;

export interface ParamSpec {
  name: string;
  shape: number[];
  /** Element offset in the flat buffer. */
  offset: number;
  /** AdamW weight decay applies (matrices and embeddings; not biases or LayerNorm). */
  decay: boolean;
  /** Initialisation: normal(0, std), or a constant. */
  init: { kind: "normal"; std: number } | { kind: "const"; value: number };
}

export interface ParamLayout {
  specs: ParamSpec[];
  byName: Map<string, ParamSpec>;
  /** Total elements of the flat buffer (including alignment padding). */
  size: number;
  /** Elements that are real parameters (no padding). */
  count: number;
}

/** The layout of a config's parameters (GPT-2 init: std 0.02, residual projections 0.02/√(2L)). */
export function paramLayout(c: GPTConfig): ParamLayout {
  const C = c.nEmbd;
  const specs: ParamSpec[] = [];
  let offset = 0;
  let count = 0;
  const std = 0.02;
  const residualStd = 0.02 / Math.sqrt(2 * c.nLayer);
  const add = (name: string, shape: number[], decay: boolean, init: ParamSpec["init"]) => {
    specs.push({ name, shape, offset, decay, init });
    const n = shape.reduce((a, b) => a * b, 1);
    count += n;
    offset += Math.ceil(n / PARAM_ALIGN) * PARAM_ALIGN;
  };
  const ones = { kind: "const", value: 1 } as const;
  const zeros = { kind: "const", value: 0 } as const;
  add("wte.weight", [c.vocabSize, C], true, { kind: "normal", std });
  add("wpe.weight", [c.contextLength, C], true, { kind: "normal", std: 0.01 });
  for (let l = 0; l < c.nLayer; l++) {
    const h = `h.${l}`;
    add(`${h}.ln_1.weight`, [C], false, ones);
    add(`${h}.ln_1.bias`, [C], false, zeros);
    add(`${h}.attn.c_attn.weight`, [3 * C, C], true, { kind: "normal", std });
    add(`${h}.attn.c_attn.bias`, [3 * C], false, zeros);
    add(`${h}.attn.c_proj.weight`, [C, C], true, { kind: "normal", std: residualStd });
    add(`${h}.attn.c_proj.bias`, [C], false, zeros);
    add(`${h}.ln_2.weight`, [C], false, ones);
    add(`${h}.ln_2.bias`, [C], false, zeros);
    add(`${h}.mlp.c_fc.weight`, [4 * C, C], true, { kind: "normal", std });
    add(`${h}.mlp.c_fc.bias`, [4 * C], false, zeros);
    add(`${h}.mlp.c_proj.weight`, [C, 4 * C], true, { kind: "normal", std: residualStd });
    add(`${h}.mlp.c_proj.bias`, [C], false, zeros);
  }
  add("ln_f.weight", [C], false, ones);
  add("ln_f.bias", [C], false, zeros);
  if (!c.tiedEmbeddings) add("lm_head.weight", [c.vocabSize, C], true, { kind: "normal", std });
  add("value_head.weight", [1, C], true, { kind: "normal", std });
  add("value_head.bias", [1], false, zeros);
  add("reward_head.weight", [1, C], true, { kind: "normal", std });
  add("reward_head.bias", [1], false, zeros);
  return { specs, byName: new Map(specs.map((s) => [s.name, s])), size: offset, count };
}

/** The spec of `name`. @throws RangeError for an unknown name. */
export function spec(layout: ParamLayout, name: string): ParamSpec {
  const s = layout.byName.get(name);
  if (!s) throw new RangeError(`no parameter named "${name}"`);
  return s;
}

/** Initial values (seeded normal / constants) as one flat array; padding stays 0. */
export function initParams(layout: ParamLayout, normal: () => number): Float32Array {
  const out = new Float32Array(layout.size);
  for (const s of layout.specs) {
    const n = s.shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < n; i++)
      out[s.offset + i] = s.init.kind === "normal" ? s.init.std * normal() : s.init.value;
  }
  return out;
}

/** 1 where weight decay applies, 0 elsewhere (biases, LayerNorm, padding): AdamW's decay mask. */
export function decayMask(layout: ParamLayout): Float32Array {
  const out = new Float32Array(layout.size);
  for (const s of layout.specs)
    if (s.decay) out.fill(1, s.offset, s.offset + s.shape.reduce((a, b) => a * b, 1));
  return out;
}
