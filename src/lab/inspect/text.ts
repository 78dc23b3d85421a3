/** Token ids → text for the inspectors (the worker builds it from the task's tokenizer; tests pass a fake). */

import { promptText } from "../../rewards/task_rewards";
import type { Tokenizer } from "../../tokenizer/tokenizer";

export interface TokenText {
  /** One token as text ("<unk>" when the id is unknown). */
  token(id: number): string;
  /** A prompt as text (without its BOS). */
  prompt(ids: readonly number[]): string;
}

/** The TokenText of a tokenizer. */
export function tokenText(tok: Tokenizer): TokenText {
  return {
    token: (id) => tok.idToToken(id) ?? "<unk>",
    prompt: (ids) => promptText(ids, tok),
  };
}

/** A completion as the concatenation of its tokens' texts (special tokens such as "<eos>" kept). */
export function completionString(ids: readonly number[], text: TokenText): string {
  return ids.map((id) => text.token(id)).join("");
}
