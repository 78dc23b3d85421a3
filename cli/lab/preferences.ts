/**
 * Load a shipped preference dataset (JSONL, src/tasks/preferences.ts format) as a DPO PreferenceSource;
 * `sampledLength` is the task's generation.maxNewTokens (src/tasks/preferences.ts encodeCompletion).
 */
import { readFile } from "node:fs/promises";
import type { PreferenceSource } from "../../src/algorithms/dpo";
import { preferenceSource } from "../../src/lab/preferences";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";

export async function loadPreferenceFile(
  path: string,
  tok: Tokenizer,
  seed: number,
  sampledLength: number,
): Promise<PreferenceSource> {
  return preferenceSource(await readFile(path, "utf8"), tok, seed, path, sampledLength);
}
