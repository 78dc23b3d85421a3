/** Stage 2's data: the task's shipped preference pairs (JSONL), parsed and tokenised into train and held-out sets. */
import { type EncodedPair, encodePreferencePairs } from "../../rewards/rm_eval";
import type { TaskId } from "../../tasks";
import { parsePreferencesJsonl } from "../../tasks/preferences";
import type { Tokenizer } from "../../tokenizer/tokenizer";
import { errorMessage as message } from "../../util/errors";
import { fetchShipped } from "../shipped_fetch";

/**
 * The file under models/<task>/ whose pairs stage 2 learns: the pairs the task's shipped reward model learnt
 * (public/models/manifest.json; a test keeps them equal). For arithmetic that is rm-preferences.jsonl (9,673
 * train pairs), not the 906 of preferences.jsonl that offline DPO uses: through the TF.js twin of the trainers, the
 * shipped recipe (recipes.ts) reached a held-out gold agreement of 67 % on the larger set and 53 % on the smaller,
 * which it overfits (86 % of its train labels; docs/reward-models.md).
 */
export const RM_PAIRS_FILE: Readonly<Record<TaskId, string>> = {
  arithmetic: "rm-preferences.jsonl",
  sentiment: "preferences.jsonl",
};

/**
 * The train and eval splits of a task's preference file.
 * @param text the file (JSONL, src/tasks/preferences.ts), or null when the task ships none.
 * @param sampledLength the task's generation.maxNewTokens: a completion that filled it was cut, so it gets no
 *   EOS, as the RL runs' samples are scored (src/rewards/rm_eval.ts encodePreferencePairs).
 * @throws Error naming `models/<task>/<RM_PAIRS_FILE>` when there is no file, it does not parse, or a split
 *   is empty.
 */
export function pipelinePairs(
  taskId: TaskId,
  text: string | null,
  tokenizer: Tokenizer,
  sampledLength: number,
): { train: EncodedPair[]; eval: EncodedPair[] } {
  const file = `models/${taskId}/${RM_PAIRS_FILE[taskId]}`;
  if (text === null) throw new Error(`the ${taskId} task ships no preference pairs (${file})`);
  let records: ReturnType<typeof parsePreferencesJsonl>;
  try {
    records = parsePreferencesJsonl(text);
  } catch (e) {
    throw new Error(`${file}: ${message(e)}`);
  }
  const train = encodePreferencePairs(records, tokenizer, sampledLength, "train");
  const held = encodePreferencePairs(records, tokenizer, sampledLength, "eval");
  if (!train.length || !held.length) throw new Error(`${file} needs train and eval pairs`);
  return { train, eval: held };
}

/**
 * The task's shipped preference pairs for the Pipeline's reward model (its {@link RM_PAIRS_FILE}), as text; null
 * when it ships none. `shipped`: the manifest's paths (null: no manifest).
 * @throws Error when a listed file does not come back as itself (src/lab/shipped_fetch.ts).
 */
export async function fetchPipelinePairs(
  taskId: TaskId,
  baseUrl: string,
  shipped: { has(path: string): boolean } | null,
): Promise<string | null> {
  const path = `models/${taskId}/${RM_PAIRS_FILE[taskId]}`;
  const listed = shipped ? shipped.has(path) : null;
  const res = await fetchShipped(
    new URL(path, baseUrl),
    fetch,
    listed,
    "check the connection, then try again",
  );
  return res ? res.text() : null;
}
