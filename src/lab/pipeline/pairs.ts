/** Stage 2's data: the task's shipped preference pairs (JSONL), parsed and tokenised into train and held-out sets. */
import { type EncodedPair, encodePreferencePairs } from "../../rewards/rm_eval";
import { parsePreferencesJsonl } from "../../tasks/preferences";
import type { Tokenizer } from "../../tokenizer/tokenizer";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The train and eval splits of a task's preference file.
 * @param text the file (JSONL, src/tasks/preferences.ts), or null when the task ships none.
 * @param sampledLength the task's generation.maxNewTokens: a completion that filled it was cut, so it gets no
 *   EOS, as the RL runs' samples are scored (src/rewards/rm_eval.ts encodePreferencePairs).
 * @throws Error naming `models/<task>/preferences.jsonl` when there is no file, it does not parse, or a split
 *   is empty.
 */
export function pipelinePairs(
  taskId: string,
  text: string | null,
  tokenizer: Tokenizer,
  sampledLength: number,
): { train: EncodedPair[]; eval: EncodedPair[] } {
  const file = `models/${taskId}/preferences.jsonl`;
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
