/**
 * Node-only tokenizer loading (scripts, tests, the headless CLI). Not imported by page code: it reads files.
 */
import { readFileSync } from "node:fs";
import { parseTokenizer, type Tokenizer, TokenizerError } from "./tokenizer";

/**
 * Read and parse a tokenizer.json file, e.g. "public/models/sentiment/tokenizer.json".
 * @throws TokenizerError if the file is missing, not JSON, or not a usable tokenizer.
 */
export function readTokenizerFile(path: string): Tokenizer {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new TokenizerError(`cannot read ${path}: ${e instanceof Error ? e.message : e}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new TokenizerError(`${path} is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  return parseTokenizer(json);
}
