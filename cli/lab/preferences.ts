/** Load a shipped preference dataset (JSONL, src/tasks/preferences.ts format) as a DPO PreferenceSource. */
import { readFile } from "node:fs/promises";
import type { PreferenceSource } from "../../src/algorithms/dpo";
import { shuffledPrompts } from "../../src/algorithms/run";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";

export async function loadPreferenceFile(
  path: string,
  tok: Tokenizer,
  seed: number,
): Promise<PreferenceSource> {
  const lines = (await readFile(path, "utf8")).split("\n").filter((l) => l.trim());
  const rows = lines
    .map((l, i) => {
      try {
        return JSON.parse(l) as { prompt: string; chosen: string; rejected: string; split?: string };
      } catch (e) {
        throw new RangeError(`${path}:${i + 1}: not JSON (${e})`);
      }
    })
    .filter((r) => (r.split ?? "train") === "train");
  const pairs = rows.map((r) => ({
    prompt: tok.encode(r.prompt, { bos: true }),
    chosen: tok.encode(r.chosen, { eos: true }),
    rejected: tok.encode(r.rejected, { eos: true }),
  }));
  if (!pairs.length) throw new RangeError(`${path}: no train pairs`);
  // A seeded order over pair indices, shared logic with prompts.
  const order = shuffledPrompts(
    pairs.map((_, i) => [i]),
    seed,
  );
  return {
    size: pairs.length,
    maxPrompt: Math.max(...pairs.map((p) => p.prompt.length)),
    maxCompletion: Math.max(...pairs.map((p) => Math.max(p.chosen.length, p.rejected.length))),
    batch(step, n) {
      const ids = order.batch(step, n).map((x) => x[0]);
      return { pairs: ids.map((i) => pairs[i]), ids };
    },
  };
}
