/**
 * What a run's exported safetensors carry besides its weights (./runs.ts writes and reads them): its scalar state
 * under {@link RUN_STATE_KEY} and the settings its weights last trained with, each JSON in the file's metadata.
 */
import type { SettingValue } from "./protocol";

/** Metadata key of a run's scalar state (JSON) in its exported safetensors. */
export const RUN_STATE_KEY = "run_state";

/**
 * A run's scalar state from its checkpoint metadata (JSON of finite numbers by name).
 * @throws RangeError when the text is not such an object.
 */
export function parseRunState(text: string): Record<string, number> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new RangeError(`the checkpoint's ${RUN_STATE_KEY} is not JSON`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw new RangeError(`the checkpoint's ${RUN_STATE_KEY} is not an object`);
  for (const [k, x] of Object.entries(v))
    if (typeof x !== "number" || !Number.isFinite(x))
      throw new RangeError(`the checkpoint's ${RUN_STATE_KEY}.${k} is not a finite number`);
  return v as Record<string, number>;
}

/** `o`'s entries sorted by key (code-unit order): the same settings give the same JSON. */
export const sortedEntries = (o: Record<string, SettingValue>) =>
  Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A file's `settings` metadata (JSON of setting values by name); null when absent or not such an object. */
export function parseSettings(text: string | undefined): Record<string, SettingValue> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== "object" || Array.isArray(v)) return null;
    const ok = Object.values(v).every((x) => ["number", "string", "boolean"].includes(typeof x));
    return ok ? (v as Record<string, SettingValue>) : null;
  } catch {
    return null;
  }
}
