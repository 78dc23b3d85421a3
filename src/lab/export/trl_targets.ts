/**
 * Which TRL config class a run maps to, and its settings as TRL keyword arguments. The field tables' `trl`
 * property names the TRL field; this module adds what a name alone cannot say:
 * - which names each config class accepts (./trl_accepts.ts: a name it lacks would be a TypeError in Python, so
 *   such settings become comments instead);
 * - renames where the tables carry an older or another class's name (RLOO's `rloo_k`, `cliprange`,
 *   `num_ppo_epochs` are `num_generations`, `epsilon`, `num_iterations` in RLOOConfig since TRL 0.23; PPOConfig
 *   calls `max_completion_length` `response_length`);
 * - value changes where TRL counts differently (GRPO/RLOO batches count completions, not prompts);
 * - why a setting has no keyword where the reason is specific (PPO's `valueModel`: PPOTrainer's `value_model`
 *   is a trainer argument and always a separate network).
 * Where TRL computes a mapped setting or the whole trainer differently: ./trl_semantics.ts.
 */
import { type Field, validateConfig } from "../../algorithms/fields";
import type { SettingValue } from "../protocol";
import { ALGORITHMS, type AlgoId } from "../registry";
import { labelsFromGold, RUN_KEYS } from "../settings";
import { TRL_ACCEPTS, type TrlClass } from "./trl_accepts";
import { noteSemantics, trlSemanticsNote } from "./trl_semantics";

export interface TrlTarget {
  /** null: no TRL trainer (best-of-n is a sampling baseline). */
  config: TrlClass | null;
  trainer: string | null;
  /** Said at the top of the script when the lab's algorithm and the TRL trainer differ. */
  note: string | null;
  /**
   * Keywords the trainer needs to run this algorithm that none of the run's settings gives, where TRL's
   * defaults would train another method or fail (SimPO's `cpo_alpha = 0`: CPOTrainer's default 1 adds an NLL
   * term); [] when the settings say it all. Written into the config call, each with its note.
   */
  fixed: readonly { name: string; value: SettingValue; note: string }[];
}

/** Table name → the class's own name. */
const RENAMES: Partial<Record<TrlClass, Record<string, string>>> = {
  PPOConfig: { max_completion_length: "response_length" },
  RLOOConfig: { rloo_k: "num_generations", cliprange: "epsilon", num_ppo_epochs: "num_iterations" },
};

/** Why a setting without a TRL name has none, where there is more to say than "TRL has no such setting". */
const NO_TRL_NAME: Partial<Record<TrlClass, Record<string, string>>> = {
  PPOConfig: {
    // The field's doc (in the comment before this) already says why `whiten_rewards` is another thing.
    whitenAdvantages: "TRL always whitens PPO's advantages",
  },
};

/** The TRL trainer of a run (DPO with the SimPO loss is TRL's CPOTrainer with cpo_alpha = 0). */
export function trlTarget(algo: AlgoId, config: Record<string, SettingValue>): TrlTarget {
  switch (algo) {
    case "ppo":
      return {
        config: "PPOConfig",
        trainer: "PPOTrainer",
        note: null,
        fixed: [
          {
            name: "num_sample_generations",
            value: 0,
            note: "PPOTrainer's periodic sample printing reads an eval set; this script has none",
          },
        ],
      };
    case "grpo":
      return { config: "GRPOConfig", trainer: "GRPOTrainer", note: null, fixed: [] };
    case "rloo":
      return { config: "RLOOConfig", trainer: "RLOOTrainer", note: null, fixed: [] };
    case "reinforce":
      return {
        config: "RLOOConfig",
        trainer: "RLOOTrainer",
        note:
          "TRL has no REINFORCE trainer with a moving-average or a greedy (ReMax) baseline; RLOO (REINFORCE with " +
          "a leave-one-out baseline over 2 samples per prompt, Ahmadian et al. 2024) is its closest relative and " +
          "is used here.",
        fixed: [{ name: "num_generations", value: 2, note: "RLOO needs ≥ 2 samples" }],
      };
    case "dpo":
      return config.lossType === "simpo"
        ? {
            config: "CPOConfig",
            trainer: "CPOTrainer",
            note: "TRL runs SimPO as CPOTrainer with loss_type='simpo' and cpo_alpha=0 (Meng et al. 2024).",
            // loss_type="simpo" comes from the run's lossType setting.
            fixed: [{ name: "cpo_alpha", value: 0, note: "pure SimPO (no NLL term)" }],
          }
        : { config: "DPOConfig", trainer: "DPOTrainer", note: null, fixed: [] };
    case "kto":
      return { config: "KTOConfig", trainer: "KTOTrainer", note: null, fixed: [] };
    case "orpo":
      return {
        config: "ORPOConfig",
        trainer: "ORPOTrainer",
        note: "ORPO's odds-ratio weight λ is TRL's ORPOConfig `beta`; there is no reference model.",
        fixed: [],
      };
    case "expert_iteration":
      return {
        config: "SFTConfig",
        trainer: "SFTTrainer",
        note:
          "TRL has no expert-iteration trainer: this script alternates sampling (K per prompt, the best kept) " +
          "and SFTTrainer on the kept completions, as the lab does each round (Dubois et al. 2023; Yuan et al. 2023).",
        fixed: [],
      };
    case "safe_rlhf":
      return {
        config: "GRPOConfig",
        trainer: "GRPOTrainer",
        note:
          "TRL has no Safe RLHF trainer; the lab runs it on GRPO, and so does this script: the reward function " +
          "returns R − λ·cost and updates the Lagrange multiplier λ after each batch (Dai et al. 2023; with K_P > 0, " +
          "λ also answers each batch's excess cost: Stooke et al. 2020).",
        fixed: [],
      };
    case "bon":
      return {
        config: null,
        trainer: null,
        note: "Best-of-n trains nothing: this script samples n completions per prompt and keeps the best.",
        fixed: [],
      };
    default:
      // A new algorithm in the registry fails to compile here until it has a mapping.
      throw new RangeError(`no TRL mapping for ${algo satisfies never}`);
  }
}

/** One keyword argument of the TRL config. */
export interface TrlArg {
  name: string;
  value: SettingValue;
  /** The lab field it comes from (null: set by the mapping itself, e.g. cpo_alpha). */
  field: Field | null;
  /** Differs from the lab's default. */
  changed: boolean;
  note?: string;
}

/** A lab setting with no keyword in the target class. */
export interface UnmappedSetting {
  field: Field;
  value: SettingValue;
  changed: boolean;
  reason: string;
}

export interface TrlMapping {
  target: TrlTarget;
  /** Every setting (defaults included), as the run uses it. */
  settings: Record<string, SettingValue>;
  args: TrlArg[];
  unmapped: UnmappedSetting[];
  /** Completion tokens the lab sampled: `maxNewTokens`, capped at the start model's room (see trlMapping). */
  completionTokens: number;
}

/** Safe RLHF's own settings: no GRPOConfig field, but the exported reward_fn applies them (trl_bodies.ts). */
const SAFE_RLHF_SCRIPT_KEYS: ReadonlySet<string> = new Set([
  "cost",
  "costLimit",
  "lambdaInit",
  "lambdaLr",
  "lambdaKp",
]);

/**
 * The run's settings as TRL keyword arguments, plus the ones TRL has no field for. `completionRoom`: the
 * completion tokens the start model leaves after the task's longest prompt (src/lab/experiment_change.ts
 * completionRoom); a larger `maxNewTokens` is exported as that room, which is what the lab sampled, with a note.
 * `pairTokens`: the longest completion of offline DPO's pairs, which the lab never cuts (./trl_semantics.ts).
 * @throws RangeError when the settings are invalid.
 */
export function trlMapping(
  algo: AlgoId,
  config: Record<string, SettingValue>,
  completionRoom = Number.POSITIVE_INFINITY,
  pairTokens?: number,
): TrlMapping {
  const fields = ALGORITHMS[algo].fields;
  const settings = validateConfig<Record<string, SettingValue>>(algo, fields, config);
  const requested = settings.maxNewTokens as number;
  // No room at all: a start model the lab refuses for this task (experiment_change.ts); nothing to cap to.
  const completionTokens = completionRoom >= 1 ? Math.min(requested, completionRoom) : requested;
  const own = trlTarget(algo, settings);
  const differs = trlSemanticsNote(algo, settings); // appended to the trainer's own note
  const target = differs ? { ...own, note: own.note ? `${own.note} ${differs}` : differs } : own;
  const args: TrlArg[] = [];
  const unmapped: UnmappedSetting[] = [];
  const cls = target.config;
  for (const f of fields) {
    const value = settings[f.key];
    const changed = value !== f.default;
    if (RUN_KEYS.has(f.key)) {
      unmapped.push({
        field: f,
        value,
        changed,
        reason: labelsFromGold(algo, settings)
          ? "in the lab it only scores the charted samples: the labels come from the gold score, the script's score()"
          : algo === "kto"
            ? "the labels threshold it: the script's score() is this reward"
            : "the script's score() is this reward",
      });
      continue;
    }
    if (algo === "safe_rlhf" && SAFE_RLHF_SCRIPT_KEYS.has(f.key)) {
      unmapped.push({ field: f, value, changed, reason: "the script's reward_fn below implements it" });
      continue;
    }
    if (!cls) {
      unmapped.push({ field: f, value, changed, reason: "no TRL trainer" });
      continue;
    }
    // A setting its run does not use (KTO's flip rate with labels = threshold): not passed, and said so where
    // TRL has no field for it anyway (a TRL field another class has, such as SimPO's γ, keeps that reason).
    const w = f.usedWhen;
    const unused =
      w && !w.values.includes(settings[w.key] as string | boolean)
        ? `not used with ${fields.find((x) => x.key === w.key)?.label ?? w.key} ${String(settings[w.key])}`
        : null;
    if (!f.trl) {
      const reason = unused ?? NO_TRL_NAME[cls]?.[f.key] ?? "TRL has no such setting";
      unmapped.push({ field: f, value, changed, reason });
      continue;
    }
    const name = RENAMES[cls]?.[f.trl] ?? f.trl;
    if (!TRL_ACCEPTS[cls].has(name)) {
      unmapped.push({ field: f, value, changed, reason: `${cls} has no \`${name}\`` });
      continue;
    }
    if (unused) {
      unmapped.push({ field: f, value, changed, reason: unused });
      continue;
    }
    args.push({ name, value, field: f, changed });
  }
  for (const f of target.fixed)
    args.push({ name: f.name, value: f.value, field: null, changed: false, note: f.note });
  adjust(algo, settings, args, unmapped);
  if (cls) args.push(...OPTIMISER_ARGS.map((a) => ({ ...a })));
  const length = args.find((a) => a.field?.key === "maxNewTokens");
  if (length && completionTokens < requested) {
    length.value = completionTokens;
    length.note = `The run asked for ${requested}; the start model's context left ${completionTokens} after the longest prompt`;
  }
  noteSemantics(algo, settings, args, pairTokens);
  return { target, settings, args, unmapped, completionTokens };
}

/**
 * The lab's optimiser where TRL's defaults differ (src/kernels/adamw.ts: AdamW β2 = 0.95, after GPT-3 and
 * nanoGPT; a constant learning rate, where transformers' Trainer decays it linearly to 0 by default).
 */
const OPTIMISER_ARGS: readonly TrlArg[] = [
  {
    name: "adam_beta2",
    value: 0.95,
    field: null,
    changed: false,
    note: "the lab's AdamW (TRL's default 0.999)",
  },
  {
    name: "lr_scheduler_type",
    value: "constant",
    field: null,
    changed: false,
    note: "the lab keeps lr constant (TRL's default decays it linearly to 0)",
  },
];

/** Where TRL counts differently from the lab, or needs a setting the lab implies. */
function adjust(
  algo: AlgoId,
  settings: Record<string, SettingValue>,
  args: TrlArg[],
  unmapped: UnmappedSetting[],
): void {
  const arg = (name: string) => args.find((a) => a.name === name);
  if (algo === "reinforce") {
    const i = unmapped.findIndex((u) => u.field.key === "beta");
    if (i >= 0) {
      const [u] = unmapped.splice(i, 1);
      args.push({
        name: "beta",
        value: u.value,
        field: u.field,
        changed: u.changed,
        note: "KL penalty, as in RLOO",
      });
    }
  }
  if (algo === "expert_iteration") {
    const i = unmapped.findIndex((u) => u.field.key === "sftSteps");
    if (i >= 0) {
      const [u] = unmapped.splice(i, 1);
      args.push({ name: "max_steps", value: u.value, field: u.field, changed: u.changed });
    }
    const batch = arg("per_device_train_batch_size");
    // trl_bodies.ts expertIterationBody: each round trains on all its kept completions in one batch.
    if (batch)
      batch.note = "Set below to the round's kept completions: the lab trains on all of them in one batch";
  }
  if (algo === "grpo" || algo === "rloo" || algo === "reinforce" || algo === "safe_rlhf") {
    const batch = arg("per_device_train_batch_size");
    const g = arg("num_generations");
    if (batch && g) {
      batch.value = (batch.value as number) * (g.value as number);
      batch.note = `TRL counts completions: ${settings.batchPrompts} prompts × ${g.value} samples = ${batch.value}`;
    }
  }
  const high = arg("epsilon_high");
  if (high && high.value === 0) {
    // The lab's 0 means "follow ε" (src/algorithms/grpo.ts upperClip), as TRL's None does: say it with a number.
    high.value = settings.epsilon;
    high.note = "the lab's 0: the upper clip follows ε";
  }
  if (algo === "kto") {
    // KTOTrainer counts examples; a lab step labels two samples of each prompt (src/algorithms/kto.ts).
    const batch = arg("per_device_train_batch_size");
    if (batch) {
      batch.value = (batch.value as number) * 2;
      batch.note = `TRL counts examples: ${settings.batchPrompts} prompts × 2 samples = ${batch.value}`;
    }
  }
  if (algo === "ppo" && (settings.numMiniBatches as number) > 1) {
    // PPOTrainer's rollout is per_device_train_batch_size × gradient_accumulation_steps prompts, cut into
    // num_mini_batches minibatches (since TRL 0.14; it was × num_mini_batches before), as the lab's step is.
    // TRL raises at start-up unless they divide (exact_div): the nearest count below that does.
    const batch = arg("per_device_train_batch_size");
    const mini = arg("num_mini_batches");
    const k = settings.numMiniBatches as number;
    const n = batch?.value as number;
    if (batch && mini && n % k !== 0) {
      let d = k;
      while (n % d !== 0) d--;
      mini.value = d;
      mini.note = `The lab split its ${n} prompts into ${k} minibatches of unequal size; TRL needs ${n} divisible by num_mini_batches, so ${d} here`;
    }
  }
  if (algo === "ppo") {
    const u = unmapped.find((x) => x.field.key === "valueModel");
    if (u)
      u.reason =
        settings.valueModel === "separate"
          ? "PPOTrainer takes the separate value model as its `value_model` argument (below)"
          : "PPOTrainer always trains a separate `value_model` (below); a value head sharing the policy's trunk is not offered";
  }
}
