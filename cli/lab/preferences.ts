/**
 * Load a shipped preference dataset (JSONL, src/tasks/preferences.ts format) as DPO's SeededPreferences (each
 * run takes its own seed's order: LabRuns.create);
 * `sampledLength` is the task's generation.maxNewTokens (src/tasks/preferences.ts encodeCompletion).
 */
import { readFile } from "node:fs/promises";
import { preferenceSource, type SeededPreferences } from "../../src/lab/preferences";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";

export async function loadPreferenceFile(
  path: string,
  tok: Tokenizer,
  seed: number,
  sampledLength: number,
): Promise<SeededPreferences> {
  return preferenceSource(await readFile(path, "utf8"), tok, seed, path, sampledLength);
}
