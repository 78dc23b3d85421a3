/**
 * Settings a run changed after its last step (RunState.untrained in the page): its weights were trained with
 * the old values, the run's settings already hold the new ones. Exports list them, so a file does not credit
 * new settings to weights trained with others.
 */
import type { SettingValue } from "../protocol";
import { ALGORITHMS, type AlgoId } from "../registry";
import { formatSetting } from "../run_slot";

export interface UntrainedChange {
  key: string;
  label: string;
  /** The value the trained steps used. */
  trained: SettingValue;
  /** The value the next step will use (the run's setting now). */
  next: SettingValue;
}

/**
 * The changes, defaults resolved (null in `untrained` is the field's default), unchanged ones dropped, in
 * the algorithm's field order.
 */
export function untrainedChanges(
  algo: AlgoId,
  config: Record<string, SettingValue>,
  untrained: Record<string, SettingValue | null> | undefined,
): UntrainedChange[] {
  if (!untrained) return [];
  return ALGORITHMS[algo].fields.flatMap((f) => {
    if (!(f.key in untrained)) return [];
    const trained = untrained[f.key] ?? f.default;
    const next = config[f.key] ?? f.default;
    return trained === next ? [] : [{ key: f.key, label: f.label, trained, next }];
  });
}

/** "β 0.05 → 0.1, epochs 4 → 2". */
export function untrainedText(changes: readonly UntrainedChange[]): string {
  return changes.map((c) => `${c.label} ${formatSetting(c.trained)} → ${formatSetting(c.next)}`).join(", ");
}
