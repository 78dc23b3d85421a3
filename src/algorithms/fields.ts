/**
 * Declarative hyperparameter tables. Each algorithm describes its config once, as a list of fields (meaning,
 * unit/range, default, source, TRL's name): the same table validates configs, documents them (CLI help,
 * tooltips), drives the lab's controls and the URL, and maps to TRL for script export.
 */
import { quoted } from "../util/quote";

interface FieldBase {
  /** The config key, e.g. "beta". */
  key: string;
  /** Symbol or short label for controls, e.g. "β". */
  label: string;
  /** One sentence: what it does, for a student. */
  doc: string;
  /** Where it comes from: paper (and equation) or "implementation". */
  source: string;
  /** TRL's config field name, when TRL has one. */
  trl?: string;
  /**
   * Only used while another setting of the same table has one of these values (SimPO's γ with loss "simpo",
   * the KL target with adaptive β on). A run card greys the control out otherwise.
   */
  usedWhen?: { key: string; values: readonly (string | boolean)[] };
  /**
   * Set once for a run's life (absent: it may change between steps and applies at the next): "shape" sizes the
   * run's GPU buffers and "models" picks the models it holds (setConfig refuses both during a run:
   * {@link patchConfig}); "start" seeds run state before the first step and "unit" sets what run state is
   * measured in: patchConfig cannot tell whether the run has stepped, so the run class's setConfig refuses
   * those itself once it has (as Safe RLHF's does). The run card locks all four with the reason.
   */
  fixed?: FixedKind;
}

/**
 * Settings of one config that are valid one by one but not together (an algorithm's configProblem in the
 * registry: PPO's minibatches above its prompts).
 */
export interface ConfigProblem {
  /** Why, naming the settings ("ppo.numMiniBatches (16) exceeds batchPrompts (8)"). */
  message: string;
  /** The settings involved (a link's check drops them back to their defaults). */
  keys: string[];
}

/** How a setting is fixed once a run has started (see FieldBase.fixed). */
export type FixedKind = "shape" | "models" | "start" | "unit";

/** What a fixed setting sets, in the words of refusals and the run card's lock ("sets the batch shape"). */
export const FIXED_WHAT: Readonly<Record<FixedKind, string>> = {
  shape: "the batch shape",
  models: "which models the run holds",
  start: "the starting value",
  unit: "what the multiplier λ and the limit d are measured in",
};

export interface NumberField extends FieldBase {
  kind: "number" | "int";
  default: number;
  min: number;
  max: number;
  /** Unit or scale hint for display, e.g. "nats", "tokens", "log" (log-scale slider). */
  unit?: string;
}

export interface EnumField extends FieldBase {
  kind: "enum";
  default: string;
  options: readonly string[];
}

export interface BoolField extends FieldBase {
  kind: "bool";
  default: boolean;
}

export type Field = NumberField | EnumField | BoolField;
export type ConfigValues = Record<string, number | string | boolean>;

/** The defaults of a field table as a config object. */
export function defaultsOf(fields: readonly Field[]): ConfigValues {
  return Object.fromEntries(fields.map((f) => [f.key, f.default]));
}

/**
 * A running config with `patch` applied (setConfig): validated like {@link validateConfig}; the fields fixed
 * as "shape" (GPU buffers were sized for them) or "models" (the run holds the models they chose) may not change.
 * @throws RangeError on a bad value, or naming a fixed key that the patch changes.
 */
export function patchConfig<T extends ConfigValues>(
  algo: string,
  fields: readonly Field[],
  current: T,
  patch: ConfigValues,
): T {
  const next = validateConfig<T>(algo, fields, { ...current, ...patch } as Partial<T>);
  for (const f of fields)
    if ((f.fixed === "shape" || f.fixed === "models") && next[f.key] !== current[f.key])
      throw new RangeError(`${algo}.${f.key} sets ${FIXED_WHAT[f.fixed]} and cannot change during a run`);
  return next;
}

/**
 * Fill defaults and check every field's type and range; unknown keys are rejected.
 * @throws RangeError naming the field, its value and the allowed range or options.
 */
export function validateConfig<T extends ConfigValues>(
  algo: string,
  fields: readonly Field[],
  values: Partial<T>,
): T {
  const out: ConfigValues = defaultsOf(fields);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const f = byKey.get(k);
    if (!f)
      throw new RangeError(
        `${algo}: unknown setting ${quoted(k)} (known: ${fields.map((x) => x.key).join(", ")})`,
      );
    if (f.kind === "enum") {
      if (typeof v !== "string" || !f.options.includes(v))
        throw new RangeError(`${algo}.${k} must be one of ${f.options.join(" | ")}, got ${shown(v)}`);
    } else if (f.kind === "bool") {
      if (typeof v !== "boolean") throw new RangeError(`${algo}.${k} must be true or false, got ${shown(v)}`);
    } else {
      if (
        typeof v !== "number" ||
        !Number.isFinite(v) ||
        v < f.min ||
        v > f.max ||
        (f.kind === "int" && !Number.isInteger(v))
      )
        throw new RangeError(
          `${algo}.${k} must be ${f.kind === "int" ? "an integer" : "a number"} in [${f.min}, ${f.max}], got ${shown(v)}`,
        );
    }
    out[k] = v;
  }
  return out as T;
}

/** A value in an error message (util/quote.ts: numbers as JavaScript writes them, the rest as JSON, cut short). */
const shown = (v: unknown) => quoted(v);

/** Parse a CLI `key=value` into the field's type. @throws RangeError for an unknown key or a bad value. */
export function parseSetting(
  algo: string,
  fields: readonly Field[],
  kv: string,
): [string, number | string | boolean] {
  const i = kv.indexOf("=");
  if (i < 1) throw new RangeError(`--set expects key=value, got "${kv}"`);
  const key = kv.slice(0, i);
  const raw = kv.slice(i + 1);
  const f = fields.find((x) => x.key === key);
  if (!f)
    throw new RangeError(`${algo}: unknown setting "${key}" (known: ${fields.map((x) => x.key).join(", ")})`);
  return [key, parseFieldValue(algo, f, raw)];
}

/**
 * A `--set` value as the field's type (`algo` names it in errors): "true"/"false" for a switch, the text for an
 * option (validateConfig checks it), a decimal number otherwise.
 * @throws RangeError for anything else.
 */
export function parseFieldValue(algo: string, f: Field, raw: string): number | string | boolean {
  if (f.kind === "bool") {
    if (raw !== "true" && raw !== "false")
      throw new RangeError(`${algo}.${f.key} must be true or false, got "${raw}"`);
    return raw === "true";
  }
  if (f.kind === "enum") return raw;
  // Decimal notation only: Number() would also read "0x10" as 16, "0b1" as 1 and " " as 0. "Infinity" passes,
  // for validateConfig to name the range it is outside.
  const t = raw.trim();
  if (!DECIMAL_NUMBER.test(t) && !/^[+-]?Infinity$/.test(t))
    throw new RangeError(
      `${algo}.${f.key} must be a number (${f.kind === "int" ? "a whole number such as 8" : "decimal: 0.1, 5, 3e-4"}), got "${raw}"`,
    );
  const x = Number(t);
  // Beyond what a float holds, as the run card says it: 1e-400 read as 0 (lr 0 trained nothing, silently),
  // 1e400 as Infinity ("got Infinity" for what was typed).
  if (DECIMAL_NUMBER.test(t) && !Number.isFinite(x))
    throw new RangeError(`${algo}.${f.key} must be a number in [${f.min}, ${f.max}], got "${raw}"`);
  if (x === 0 && /[1-9]/.test(t.replace(/e.*$/i, "")))
    throw new RangeError(`${algo}.${f.key} ${t} is too small to be told from 0 (give 0 if 0 is meant)`);
  return x;
}

/** A number as people type it: 0.1, .5, -2, 3e-4 (no hex, binary or octal, no separators, no "Infinity"). */
export const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The entropy bonus c_H of PPO's loss L − c_H·mean_t H_t (Schulman et al. 2017 eq. 9), also offered on GRPO
 * (TRL's GRPOConfig.entropy_coef since TRL 1.x, averaged over all tokens; TRL's PPOTrainer has none): it keeps
 * the token distributions wide, against entropy collapse. The token entropies are averaged with the policy
 * loss's own token weights: PPO's token mean; GRPO's loss type (grpo: per sequence, then over sequences; dapo:
 * over all tokens; dr_grpo: divided by N·L_max, N the batch's completions (prompts × G) and L_max the max new
 * tokens).
 */
export const ENTROPY_BONUS_FIELD: Field = {
  key: "entCoef",
  label: "c_H",
  trl: "entropy_coef",
  kind: "number",
  default: 0,
  min: 0,
  max: 1,
  doc: "Entropy bonus: the loss subtracts c_H × the token entropies, averaged like the policy loss (GRPO: by its loss type), rewarding a wide distribution (against entropy collapse).",
  source: "Schulman et al. 2017 eq. 9",
};

/**
 * TRL's `missing_eos_penalty` (PPOConfig's; TRL's RLOOConfig has none, so on RLOO and REINFORCE the knob is the
 * lab's own and the exported script lists it unmapped): subtracted from the run's reward of a completion cut at
 * the length limit without EOS, before advantages (the `reward` metric includes it; the gold does not). A proxy
 * trained on ended completions can reward never stopping (the shipped arithmetic proxy: a right answer without
 * EOS 0.712, with it 0.257; docs/reward-models.md); this knob is TRL's answer. Default 0 (off).
 */
export const MISSING_EOS_PENALTY_FIELD: Field = {
  key: "missingEosPenalty",
  label: "no-EOS penalty",
  trl: "missing_eos_penalty",
  kind: "number",
  default: 0,
  min: 0,
  max: 5,
  doc: "Subtracted from the reward of a completion cut at the length limit without EOS (0: off); the gold is not changed. TRL's answer to a reward model that pays for never stopping.",
  source: "TRL (PPOConfig: missing_eos_penalty)",
};

/**
 * The pair learners' batch (DPO, ORPO): preference pairs per step, TRL's per-device batch size. `doc` says
 * where the pairs come from for the algorithm.
 */
export function pairsPerStepField(doc: string): NumberField {
  return {
    key: "batchPairs",
    label: "pairs/step",
    fixed: "shape",
    kind: "int",
    default: 8,
    min: 1,
    max: 256,
    doc,
    source: "implementation",
    trl: "per_device_train_batch_size",
  };
}

/**
 * The simulated annotator's flip rate in [0, 0.5], default 0.25 (DPO, ORPO, KTO: AlpacaFarm's noisy
 * annotators, Dubois et al. 2023). `doc` says which labels it flips for the algorithm.
 */
export function flipRateField(doc: string): NumberField {
  return {
    key: "flipRate",
    label: "flip rate",
    kind: "number",
    default: 0.25,
    min: 0,
    max: 0.5,
    doc,
    source: "Dubois et al. 2023 (AlpacaFarm)",
  };
}

/** Fields shared by every online algorithm (sampling and optimisation). */
export const COMMON_FIELDS: readonly Field[] = [
  {
    key: "lr",
    label: "lr",
    kind: "number",
    default: 1e-4,
    min: 0,
    max: 1,
    unit: "log",
    doc: "AdamW learning rate.",
    source: "Loshchilov & Hutter 2019",
    trl: "learning_rate",
  },
  {
    key: "batchPrompts",
    label: "prompts/step",
    fixed: "shape",
    kind: "int",
    default: 8,
    min: 1,
    max: 256,
    doc: "Prompts sampled per step (each gives several completions where the algorithm samples a group: G, best-of-n's n, expert iteration's k).",
    source: "implementation",
    trl: "per_device_train_batch_size",
  },
  {
    key: "maxNewTokens",
    label: "max tokens",
    fixed: "shape",
    kind: "int",
    default: 24,
    min: 1,
    max: 256,
    unit: "tokens",
    doc: "Completion length limit; a completion ends at EOS or here. Capped at the model's context minus the prompt length (the arithmetic model: 9).",
    source: "implementation",
    trl: "max_completion_length",
  },
  {
    key: "temperature",
    label: "τ",
    kind: "number",
    default: 1,
    min: 0.05,
    max: 5,
    doc: "Sampling temperature; every log-prob, KL and entropy uses logits/τ.",
    source: "spec: Notation",
    trl: "temperature",
  },
  {
    key: "topK",
    label: "top-k",
    kind: "int",
    default: 0,
    min: 0,
    max: 1024,
    doc: "Sample only among the k most likely tokens (0 = all). Log-probs, entropy and KL stay those of the whole distribution at τ (as TRL computes them), so with k > 0 they no longer describe the sampler: k1 is no longer unbiased.",
    source: "implementation",
    trl: "top_k",
  },
  {
    key: "maxGradNorm",
    label: "clip ‖g‖",
    kind: "number",
    default: 1,
    min: 0,
    max: 100,
    doc: "Global gradient-norm clipping threshold (0 = off).",
    source: "Pascanu et al. 2013",
    trl: "max_grad_norm",
  },
  {
    key: "weightDecay",
    label: "wd",
    kind: "number",
    default: 0,
    min: 0,
    max: 1,
    doc: "AdamW decoupled weight decay.",
    source: "Loshchilov & Hutter 2019",
    trl: "weight_decay",
  },
];
