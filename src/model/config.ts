/**
 * GPT model configuration (GPT-2 style decoder; Radford et al. 2019) and presets. Shape letters: B batch,
 * T time (tokens), C channels (nEmbd), V vocabulary, H heads, hs = C/H head size, L layers.
 */

/**
 * Model shape; checked by {@link validateConfig} (RangeError naming the field), which {@link preset} applies.
 */
export interface GPTConfig {
  /** V: vocabulary size (≤ 1024 for the shipped tokenizers). */
  vocabSize: number;
  /** Maximum sequence length (positions 0 … contextLength−1 have learned embeddings). */
  contextLength: number;
  /** L: number of transformer blocks. */
  nLayer: number;
  /** H: attention heads; must divide nEmbd. */
  nHead: number;
  /** C: residual stream width. */
  nEmbd: number;
  /** Tie the LM head to the token embedding (GPT-2 does). Default true. */
  tiedEmbeddings: boolean;
  /** LayerNorm ε. Default 1e-5. */
  lnEps: number;
}

export type PresetName = "nano" | "tiny" | "small";

/**
 * Presets: `nano` for tests (trains in seconds on SwiftShader), `tiny` the lab's default, `small` for real GPUs.
 * The vocabulary is set by the task's tokenizer; 256 here is a placeholder for tests.
 */
export const PRESETS: Record<PresetName, GPTConfig> = {
  nano: {
    vocabSize: 64,
    contextLength: 32,
    nLayer: 2,
    nHead: 2,
    nEmbd: 32,
    tiedEmbeddings: true,
    lnEps: 1e-5,
  },
  tiny: {
    vocabSize: 256,
    contextLength: 128,
    nLayer: 4,
    nHead: 4,
    nEmbd: 128,
    tiedEmbeddings: true,
    lnEps: 1e-5,
  },
  small: {
    vocabSize: 256,
    contextLength: 256,
    nLayer: 6,
    nHead: 8,
    nEmbd: 256,
    tiedEmbeddings: true,
    lnEps: 1e-5,
  },
};

/** A preset with overrides (e.g. the task's vocabulary size). */
export function preset(name: PresetName, overrides: Partial<GPTConfig> = {}): GPTConfig {
  return validateConfig({ ...PRESETS[name], ...overrides });
}

/**
 * Check a config; returns it unchanged.
 * @throws RangeError naming the field when a value is out of range or nEmbd is not divisible by nHead.
 */
export function validateConfig(c: GPTConfig): GPTConfig {
  const positive: (keyof GPTConfig)[] = ["vocabSize", "contextLength", "nLayer", "nHead", "nEmbd"];
  for (const k of positive) {
    const v = c[k] as number;
    if (!Number.isInteger(v) || v < 1)
      throw new RangeError(`GPTConfig.${k} must be a positive integer, got ${v}`);
  }
  if (c.nEmbd % c.nHead !== 0)
    throw new RangeError(`GPTConfig.nEmbd (${c.nEmbd}) must be divisible by nHead (${c.nHead})`);
  if (!(c.lnEps > 0)) throw new RangeError(`GPTConfig.lnEps must be > 0, got ${c.lnEps}`);
  return c;
}
