/**
 * A preference dataset (src/tasks/preferences.ts JSONL format) as a DPO PreferenceSource: the train split's
 * pairs encoded (prompt with BOS; a completion with EOS only if it ended: src/tasks/preferences.ts
 * encodeCompletion), put in gold order (the higher stored gold score as `chosen`, so the file's own flipped
 * labels are undone; DPO labels them again at its flip rate) and served in a seeded order. The pairs are encoded
 * once per experiment (LabResources.prefs); each run takes its own order from its own training seed
 * ({@link SeededPreferences.withSeed}, src/lab/runs.ts LabRuns.create), as its prompts are. Shared by the
 * training worker (which fetches the file) and the CLI (which reads it).
 */
import type { PreferenceSource } from "../algorithms/dpo";
import { shuffledPrompts } from "../algorithms/run";
import { encodeCompletion, PreferenceFormatError, parsePreferencesJsonl } from "../tasks/preferences";
import type { Tokenizer } from "../tokenizer/tokenizer";

/**
 * A preference dataset served in the order of `seed` (the one it was built with), and the same pairs in
 * another seed's order: `withSeed(s)` shares the encoded pairs and shuffles their indices as the prompts of a
 * run on seed `s` are (src/algorithms/run.ts shuffledPrompts), so equal seeds give equal orders.
 */
export interface SeededPreferences extends PreferenceSource {
  withSeed(seed: number): PreferenceSource;
}

/**
 * Parse and encode a preference file's text; `name` (path or URL) appears in errors; `sampledLength` is the
 * length limit the completions were sampled with (the task's generation.maxNewTokens; encodeCompletion).
 * @throws PreferenceFormatError on a malformed line or a file without train pairs.
 */
export function preferenceSource(
  text: string,
  tok: Tokenizer,
  seed: number,
  name: string,
  sampledLength: number,
): SeededPreferences {
  let rows: ReturnType<typeof parsePreferencesJsonl>;
  try {
    rows = parsePreferencesJsonl(text);
  } catch (e) {
    throw new PreferenceFormatError(`${name}: ${e instanceof Error ? e.message : e}`);
  }
  const train = rows.filter((r) => r.split === "train");
  const pairs = train.map((r) => {
    // A tie keeps the file's order; otherwise the gold winner goes first.
    const swap = r.score_chosen < r.score_rejected;
    return {
      prompt: tok.encode(r.prompt, { bos: true }),
      chosen: encodeCompletion(tok, swap ? r.rejected : r.chosen, sampledLength),
      rejected: encodeCompletion(tok, swap ? r.chosen : r.rejected, sampledLength),
    };
  });
  if (!pairs.length) throw new PreferenceFormatError(`${name}: no train pairs`);
  const ties = train.map((r) => r.score_chosen === r.score_rejected);
  const maxPrompt = Math.max(...pairs.map((p) => p.prompt.length));
  const maxCompletion = Math.max(...pairs.map((p) => Math.max(p.chosen.length, p.rejected.length)));
  const ordered = (seed: number): PreferenceSource => {
    // A seeded order over pair indices (the same shuffling as prompts).
    const order = shuffledPrompts(
      pairs.map((_, i) => [i]),
      seed,
    );
    return {
      size: pairs.length,
      maxPrompt,
      maxCompletion,
      batch(step, n) {
        const ids = order.batch(step, n).map((x) => x[0]);
        return { pairs: ids.map((i) => pairs[i]), ids, ties: ids.map((i) => ties[i]) };
      },
    };
  };
  return { ...ordered(seed), withSeed: ordered };
}
