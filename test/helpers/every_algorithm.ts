/**
 * Every registry algorithm at test size on the nano model (test/helpers/nano_env.ts): the small settings, a
 * fixed offline preference set for DPO's offline mode, and the variants of an algorithm's enum and bool fields.
 */
import type { PreferenceSource } from "../../src/algorithms/dpo";
import type { ConfigValues } from "../../src/algorithms/fields";
import { type ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";

/** Test-sized settings, applied where an algorithm has the field. */
export const SMALL: ConfigValues = {
  batchPrompts: 2,
  batchPairs: 2,
  maxNewTokens: 4,
  numGenerations: 2,
  k: 2,
  n: 2,
  ppoEpochs: 1,
};

/** A fixed offline preference set for DPO's offline mode (tokens of the nano vocabulary, EOS = 0). */
export const PREFS: PreferenceSource = {
  size: 2,
  maxPrompt: 2,
  maxCompletion: 3,
  batch: (_step, n) => {
    const pairs = [
      { prompt: [3, 4], chosen: [7, 7, 0], rejected: [5, 0] },
      { prompt: [9], chosen: [7, 0], rejected: [2, 6, 0] },
    ];
    const ids = Array.from({ length: n }, (_, i) => i % pairs.length);
    return { pairs: ids.map((i) => pairs[i]), ids };
  },
};

/** {@link SMALL}'s settings that algorithm `id` has. */
export function smallConfig(id: (typeof ALGO_IDS)[number]): ConfigValues {
  const fields = ALGORITHMS[id].fields;
  return Object.fromEntries(Object.entries(SMALL).filter(([k]) => fields.some((f) => f.key === k)));
}

/** The small defaults, plus one variant per other option of each enum field and the flip of each bool field. */
export function variants(id: (typeof ALGO_IDS)[number]): ConfigValues[] {
  const base = smallConfig(id);
  const out: ConfigValues[] = [base];
  for (const f of ALGORITHMS[id].fields) {
    if (f.kind === "enum") for (const o of f.options) if (o !== f.default) out.push({ ...base, [f.key]: o });
    if (f.kind === "bool") out.push({ ...base, [f.key]: !f.default });
  }
  return out;
}
