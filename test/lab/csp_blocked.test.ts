/**
 * A site whose Content-Security-Policy refuses WebAssembly (`default-src 'self'`, no 'wasm-unsafe-eval'): a
 * proxy-reward run once said "could not start: no available backend found. ERR: [wasm] RuntimeError: Aborted(
 * CompileError: …). Build with -sASSERTIONS for more info." and advised "Change its settings (e.g. fewer prompts
 * per step)". Now it names the policy and who fixes it, and the card gives no settings advice.
 */
import { describe, expect, it } from "vitest";
import { CSP_WASM_BLOCKED, cspBlocked, explainWasmBlocked } from "../../src/lab/csp_blocked";
import { RewardSourceError } from "../../src/lab/reward_sources";
import { isolatedOnnxLoader, type RmWorkerHandle } from "../../src/lab/rm_isolated";
import { restartHint } from "../../src/ui/lab/run_error";
import { toyModel, V } from "../helpers/toy_rm";

/** onnxruntime-web's words in Chromium under `default-src 'self'` (the hosting reviewer's run card). */
const ORT_UNDER_CSP =
  "no available backend found. ERR: [wasm] RuntimeError: Aborted(CompileError: WebAssembly.instantiate(): Compiling or instantiating WebAssembly module violates the following Content Security policy directive because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"default-src 'self'\".). Build with -sASSERTIONS for more info.";

/** A reward-model worker whose onnxruntime start fails as `message` (as comlink carries it: a plain Error). */
function failingStart(message: string): RmWorkerHandle {
  return {
    api: {
      ready: () => Promise.reject(new Error(message)),
      load: () => Promise.reject(new Error("not reached")),
      run: () => Promise.reject(new Error("not reached")),
    },
    terminate: () => undefined,
    onCrash: () => undefined,
  };
}

const LIMITS = { startMs: 10_000, loadMs: 10_000, runMs: 10_000 };

describe("an error the site's Content-Security-Policy caused", () => {
  it("is told by its words, not by other errors'", () => {
    expect(cspBlocked(ORT_UNDER_CSP)).toBe(true);
    expect(
      cspBlocked("Refused to compile or instantiate WebAssembly module because 'wasm-unsafe-eval' is not"),
    ).toBe(true);
    expect(cspBlocked("step 3 failed: the GPU ran out of memory on this step.")).toBe(false);
    expect(cspBlocked("no available backend found. ERR: [wasm] TypeError: Failed to fetch")).toBe(false);
    expect(cspBlocked(null)).toBe(false);
    const other = new Error("session: bad graph");
    expect(explainWasmBlocked(other)).toBe(other);
  });

  it("a reward model's load names the policy and who fixes it, not onnxruntime's internals", async () => {
    const load = isolatedOnnxLoader(() => failingStart(ORT_UNDER_CSP), LIMITS);
    const e = await load(toyModel(), V, 0).then(
      () => null,
      (x: unknown) => x as Error,
    );
    expect(e).toBeInstanceOf(RewardSourceError);
    expect(e?.message).toBe(
      "onnxruntime's WebAssembly was blocked by the site's Content-Security-Policy: the server must allow 'wasm-unsafe-eval' in script-src (README: Hosting the lab)",
    );
    expect(e?.message).not.toMatch(/ASSERTIONS|no available backend/);
    expect((e?.cause as Error | undefined)?.message).toBe(ORT_UNDER_CSP); // the browser's text, kept for a console
  });

  it("the run card gives no settings advice for it", () => {
    const error = `GRPO proxy could not start: onnxruntime's WebAssembly was ${CSP_WASM_BLOCKED}`;
    const hint = restartHint({ errorKind: "could-not-start", error });
    expect(hint?.text).not.toMatch(/fewer prompts|Change its settings/);
    expect(hint?.text).toMatch(
      /^Not its settings: this site blocks the WebAssembly .* gold reward trains here\.$/,
    );
    expect(hint?.title).toMatch(/allow 'wasm-unsafe-eval'.*README: Hosting the lab/);
    // A step too large still gets the settings advice.
    expect(
      restartHint({ errorKind: "could-not-start", error: "Big GRPO could not start: a batch …" })?.text,
    ).toMatch(/^Change its settings \(e\.g\. fewer prompts per step\)/);
  });
});
