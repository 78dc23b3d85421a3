/** The inspector tests' token text (test/lab/inspect*.test.ts). */
import type { TokenText } from "../../src/lab/inspect/text";

/** Token id i is the letter 'a' + i; prompts are their ids joined by commas. */
export const TEXT: TokenText = {
  token: (id) => String.fromCharCode(97 + id),
  prompt: (ids) => ids.join(","),
};
