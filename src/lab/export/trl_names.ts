/**
 * What TRL calls each setting of a run, for the knob tooltips and the explain panel: the same mapping the TRL
 * script export uses (trl_targets.ts trlMapping), so a tooltip names the keyword of the class the run maps to
 * (PPOConfig's `response_length`, SimPO's CPOConfig), TRL's unit where it counts otherwise (GRPO's batch in
 * completions), the TRL versions that have it (GRPOConfig's `entropy_coef`: TRL 1.x), or why there is none
 * (DPOConfig has no `temperature`).
 */
import type { SettingValue } from "../protocol";
import type { AlgoId } from "../registry";
import { trlMapping } from "./trl_targets";
import { TRL_VERSIONED } from "./trl_versions";

/** Backticks are Markdown for the script's comments, and "below" points into the script: a tooltip has neither. */
const plain = (s: string) => s.replaceAll("`", "").replaceAll(" below", "");

/**
 * Field key → "GRPOConfig per_device_train_batch_size (TRL counts completions: 4 prompts × 8 samples)" or
 * "none: DPOConfig has no temperature". Empty when the settings are invalid (the tooltip falls back to the
 * field table's name).
 */
export function trlNames(algo: AlgoId, config: Record<string, SettingValue>): Record<string, string> {
  let m: ReturnType<typeof trlMapping>;
  try {
    m = trlMapping(algo, config);
  } catch {
    return {};
  }
  const cls = m.target.config;
  const out: Record<string, string> = {};
  for (const a of m.args) {
    if (!a.field) continue;
    const notes = [a.note, cls && TRL_VERSIONED[cls]?.[a.name]?.has].filter(Boolean).join("; ");
    out[a.field.key] = plain(`${cls} ${a.name}${notes ? ` (${notes})` : ""}`);
  }
  for (const u of m.unmapped) out[u.field.key] = plain(`none: ${u.reason}`);
  return out;
}
