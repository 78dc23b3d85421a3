/**
 * Checkpoints: a model's parameters as safetensors, with the config, the tokenizer reference and free-form
 * training info in the metadata. Works the same in the page (Blob download/upload) and in Node (files).
 */
import { type GPTConfig, validateConfig } from "./config";
import type { AdamWState } from "./optimizer";
import { paramLayout } from "./params";
import {
  decodeSafetensors,
  encodeSafetensors,
  type NamedTensor,
  readSafetensorsHeader,
  SafetensorsError,
  type SafetensorsFile,
} from "./safetensors";

/** Metadata key holding the JSON GPTConfig. */
const CONFIG_KEY = "rlhf_playground.config";
const TOKENIZER_KEY = "rlhf_playground.tokenizer";
const FORMAT_KEY = "format";
/** Metadata key holding the AdamW step counts, JSON {model: t} (Checkpoint.optimizers). */
const ADAMW_T_KEY = "rlhf_playground.adamw_t";

/** The tensor name of an AdamW moment ("m" or "v") of model `model` ("" = the policy). */
const momentName = (model: string, which: "m" | "v") =>
  model ? `adamw.${model}.${which}` : `adamw.${which}`;

export interface Checkpoint {
  config: GPTConfig;
  /** Flat parameters in `paramLayout(config)` order (padding zeros). */
  params: Float32Array;
  /** Tokenizer reference, e.g. "models/sentiment/tokenizer.json" (empty when unknown). */
  tokenizer: string;
  /** Other string metadata (step, task, algorithm, …). */
  info: Record<string, string>;
  /**
   * Other models of the same config trained with this one, by name (PPO's separate value model:
   * "value_model"), each flat in the same layout; stored as tensors "<name>.<parameter>". Absent or {} when none.
   */
  extra?: Record<string, Float32Array>;
  /**
   * AdamW states, by model: "" the policy's (its moments may cover more than the layout: a value head), else an
   * extra model's name. Stored as 1-D tensors "adamw.<model>.m" / ".v" ("adamw.m" / "adamw.v" for the policy)
   * and the step counts t as JSON in the metadata, so that a run saved for a reload resumes exactly as it would
   * have gone on. Absent when none (an exported file: weights only).
   */
  optimizers?: Record<string, AdamWState>;
}

/** A name an extra model may have: letters, digits and _ (it prefixes its tensors' names). */
const EXTRA_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Serialise a checkpoint to safetensors bytes (F32; see {@link encodeSafetensors}).
 * @throws RangeError if `params` or an extra model's flat array does not have `paramLayout(config).size` values,
 *   an extra or optimizer model name is not [a-z][a-z0-9_]* ("" is allowed for the policy's optimizer), or an
 *   optimizer's m and v differ in length.
 */
export function saveCheckpoint(ck: Checkpoint): Uint8Array {
  const layout = paramLayout(ck.config);
  if (ck.params.length !== layout.size)
    throw new RangeError(`params have ${ck.params.length} values, layout needs ${layout.size}`);
  const named = (prefix: string, flat: Float32Array): NamedTensor[] =>
    layout.specs.map((s) => {
      const n = s.shape.reduce((a, b) => a * b, 1);
      return { name: prefix + s.name, shape: s.shape, data: flat.slice(s.offset, s.offset + n) };
    });
  const tensors = named("", ck.params);
  for (const [name, flat] of Object.entries(ck.extra ?? {})) {
    if (!EXTRA_NAME.test(name))
      throw new RangeError(`extra model name ${JSON.stringify(name)} is not [a-z][a-z0-9_]*`);
    if (flat.length !== layout.size)
      throw new RangeError(`extra model ${name} has ${flat.length} values, layout needs ${layout.size}`);
    tensors.push(...named(`${name}.`, flat));
  }
  const steps: Record<string, number> = {};
  for (const [model, s] of Object.entries(ck.optimizers ?? {})) {
    if (model && !EXTRA_NAME.test(model))
      throw new RangeError(`optimizer model name ${JSON.stringify(model)} is not "" or [a-z][a-z0-9_]*`);
    if (s.m.length !== s.v.length) throw new RangeError(`AdamW moments of "${model}" differ in length`);
    tensors.push({ name: momentName(model, "m"), shape: [s.m.length], data: s.m });
    tensors.push({ name: momentName(model, "v"), shape: [s.v.length], data: s.v });
    steps[model] = s.t;
  }
  return encodeSafetensors(tensors, {
    ...ck.info,
    ...(ck.optimizers && Object.keys(ck.optimizers).length > 0 && { [ADAMW_T_KEY]: JSON.stringify(steps) }),
    [FORMAT_KEY]: "pt",
    [CONFIG_KEY]: JSON.stringify(ck.config),
    [TOKENIZER_KEY]: ck.tokenizer,
  });
}

/**
 * Read a checkpoint written by {@link saveCheckpoint}, with its extra models (a tensor "<name>.<parameter>" for
 * every parameter of the layout; other tensors are ignored).
 * @throws {SafetensorsError} on a corrupt file, a missing/invalid config (found from the header, before any
 * tensor is decoded: a large model from another tool is refused at once), a missing or mis-shaped tensor (of
 * the model, or of an extra model whose "<name>.wte.weight" is there), or a NaN or ±∞ in one (the weights of a
 * run that diverged, or a value beyond f32's range in an F64 file): such weights would fail at every step.
 */
export function loadCheckpoint(bytes: Uint8Array): Checkpoint {
  const header = readSafetensorsHeader(bytes);
  const raw = header.metadata[CONFIG_KEY];
  if (!raw) throw new SafetensorsError(`not an RLHF Playground checkpoint: metadata has no "${CONFIG_KEY}"`);
  let config: GPTConfig;
  try {
    config = validateConfig(JSON.parse(raw));
  } catch (e) {
    throw new SafetensorsError(`checkpoint config is invalid: ${e instanceof Error ? e.message : e}`);
  }
  const file = decodeSafetensors(bytes, header);
  const layout = paramLayout(config);
  const read = (prefix: string) => {
    const flat = new Float32Array(layout.size);
    for (const s of layout.specs) {
      const name = prefix + s.name;
      const t = file.tensors.get(name);
      if (!t) throw new SafetensorsError(`checkpoint is missing tensor "${name}"`);
      if (t.shape.join(",") !== s.shape.join(","))
        throw new SafetensorsError(`tensor "${name}" has shape [${t.shape}], expected [${s.shape}]`);
      const bad = t.data.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0)
        throw new SafetensorsError(
          `tensor "${name}" holds ${t.data[bad]} at index ${bad}: weights must be finite (a run that diverged?)`,
        );
      flat.set(t.data, s.offset);
    }
    return flat;
  };
  const params = read("");
  const first = layout.specs[0].name;
  const extra: Record<string, Float32Array> = {};
  for (const name of file.tensors.keys()) {
    const prefix = name.endsWith(`.${first}`) ? name.slice(0, -first.length - 1) : "";
    if (EXTRA_NAME.test(prefix)) extra[prefix] = read(`${prefix}.`);
  }
  const optimizers = readOptimizers(file, file.metadata[ADAMW_T_KEY]);
  const info = { ...file.metadata };
  delete info[CONFIG_KEY];
  delete info[TOKENIZER_KEY];
  delete info[FORMAT_KEY];
  delete info[ADAMW_T_KEY];
  return {
    config,
    params,
    tokenizer: file.metadata[TOKENIZER_KEY] ?? "",
    info,
    extra,
    ...(optimizers && { optimizers }),
  };
}

/**
 * The AdamW states a checkpoint holds (null when none: its metadata names no step counts).
 * @throws {SafetensorsError} when the step counts are not JSON of whole numbers ≥ 0, or a model's moments are
 *   missing, of different lengths, or not finite.
 */
function readOptimizers(file: SafetensorsFile, raw: string | undefined): Record<string, AdamWState> | null {
  if (raw === undefined) return null;
  let steps: unknown;
  try {
    steps = JSON.parse(raw);
  } catch {
    throw new SafetensorsError(`checkpoint metadata "${ADAMW_T_KEY}" is not JSON`);
  }
  if (typeof steps !== "object" || steps === null || Array.isArray(steps))
    throw new SafetensorsError(`checkpoint metadata "${ADAMW_T_KEY}" is not an object`);
  const out: Record<string, AdamWState> = {};
  for (const [model, t] of Object.entries(steps)) {
    if (!Number.isInteger(t) || (t as number) < 0)
      throw new SafetensorsError(`AdamW step count of "${model}" is not a whole number ≥ 0`);
    const [m, v] = (["m", "v"] as const).map((w) => {
      const x = file.tensors.get(momentName(model, w));
      if (!x) throw new SafetensorsError(`checkpoint is missing tensor "${momentName(model, w)}"`);
      if (!x.data.every(Number.isFinite))
        throw new SafetensorsError(`tensor "${momentName(model, w)}" holds a non-finite value`);
      return x.data;
    });
    if (m.length !== v.length) throw new SafetensorsError(`AdamW moments of "${model}" differ in length`);
    out[model] = { t: t as number, m, v };
  }
  return out;
}
