/**
 * Checkpoints: a model's parameters as safetensors, with the config, the tokenizer reference and free-form
 * training info in the metadata. Works the same in the page (Blob download/upload) and in Node (files).
 */
import { type GPTConfig, validateConfig } from "./config";
import { paramLayout } from "./params";
import { decodeSafetensors, encodeSafetensors, type NamedTensor, SafetensorsError } from "./safetensors";

/** Metadata key holding the JSON GPTConfig. */
const CONFIG_KEY = "rlhf_playground.config";
const TOKENIZER_KEY = "rlhf_playground.tokenizer";
const FORMAT_KEY = "format";

export interface Checkpoint {
  config: GPTConfig;
  /** Flat parameters in `paramLayout(config)` order (padding zeros). */
  params: Float32Array;
  /** Tokenizer reference, e.g. "models/sentiment/tokenizer.json" (empty when unknown). */
  tokenizer: string;
  /** Other string metadata (step, task, algorithm, …). */
  info: Record<string, string>;
}

/** Serialise a checkpoint to safetensors bytes. */
export function saveCheckpoint(ck: Checkpoint): Uint8Array {
  const layout = paramLayout(ck.config);
  if (ck.params.length !== layout.size)
    throw new RangeError(`params have ${ck.params.length} values, layout needs ${layout.size}`);
  const tensors: NamedTensor[] = layout.specs.map((s) => {
    const n = s.shape.reduce((a, b) => a * b, 1);
    return { name: s.name, shape: s.shape, data: ck.params.slice(s.offset, s.offset + n) };
  });
  return encodeSafetensors(tensors, {
    ...ck.info,
    [FORMAT_KEY]: "pt",
    [CONFIG_KEY]: JSON.stringify(ck.config),
    [TOKENIZER_KEY]: ck.tokenizer,
  });
}

/**
 * Read a checkpoint written by {@link saveCheckpoint}.
 * @throws {SafetensorsError} on a corrupt file, a missing/invalid config, or a missing or mis-shaped tensor.
 */
export function loadCheckpoint(bytes: Uint8Array): Checkpoint {
  const file = decodeSafetensors(bytes);
  const raw = file.metadata[CONFIG_KEY];
  if (!raw) throw new SafetensorsError(`not an RLHF Playground checkpoint: metadata has no "${CONFIG_KEY}"`);
  let config: GPTConfig;
  try {
    config = validateConfig(JSON.parse(raw));
  } catch (e) {
    throw new SafetensorsError(`checkpoint config is invalid: ${e instanceof Error ? e.message : e}`);
  }
  const layout = paramLayout(config);
  const params = new Float32Array(layout.size);
  for (const s of layout.specs) {
    const t = file.tensors.get(s.name);
    if (!t) throw new SafetensorsError(`checkpoint is missing tensor "${s.name}"`);
    if (t.shape.join(",") !== s.shape.join(","))
      throw new SafetensorsError(`tensor "${s.name}" has shape [${t.shape}], expected [${s.shape}]`);
    params.set(t.data, s.offset);
  }
  const info = { ...file.metadata };
  delete info[CONFIG_KEY];
  delete info[TOKENIZER_KEY];
  delete info[FORMAT_KEY];
  return { config, params, tokenizer: file.metadata[TOKENIZER_KEY] ?? "", info };
}
