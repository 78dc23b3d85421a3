/**
 * A site whose Content-Security-Policy keeps the lab from working (a strict `default-src 'self'`): the errors
 * the browser gives name the policy ("… violates the following Content Security policy directive because
 * 'unsafe-eval' is not an allowed source of script …", through onnxruntime-web's "no available backend found.
 * ERR: [wasm] RuntimeError: Aborted(CompileError: …). Build with -sASSERTIONS"), and are worded here for the
 * person who can change it. Nothing in the lab's settings changes them.
 */
import { errorMessage } from "../util/errors";
import { RewardSourceError } from "./reward_source_error";

/** What ends an error the site's policy caused: who fixes it, and how. */
export const CSP_WASM_BLOCKED =
  "blocked by the site's Content-Security-Policy: the server must allow 'wasm-unsafe-eval' in script-src (README: Hosting the lab)";

/** Whether `text` (an error's message) says a Content Security Policy refused something (or is our wording of it). */
export function cspBlocked(text: string | null | undefined): boolean {
  return !!text && /content[- ]security[- ]policy|'(?:wasm-)?unsafe-eval'/i.test(text);
}

/**
 * `e` as the lab says it when the site's policy refused onnxruntime-web's WebAssembly: a RewardSourceError
 * "onnxruntime's WebAssembly was blocked by the site's Content-Security-Policy: …" (the browser's text is its
 * `cause`); any other error unchanged.
 */
export function explainWasmBlocked(e: unknown): unknown {
  if (!cspBlocked(errorMessage(e))) return e;
  return new RewardSourceError(`onnxruntime's WebAssembly was ${CSP_WASM_BLOCKED}`, { cause: e });
}
