/**
 * A reward-model worker whose script does not load (a page opened before the lab was updated on its server asks
 * for a file the server no longer has; or no network): the load fails saying so and what to do, not "an error
 * outside any call" (the upgrade reviewer's old tab).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SCRIPT_NOT_LOADED, workerOnnxLoader } from "../../src/lab/ort_loader";
import { OnnxRewardModelError } from "../../src/rewards/onnx_rm_error";
import { toyModel, V } from "../helpers/toy_rm";

/** A Worker whose module script 404s: it fires a bare "error" Event, as Chrome does, and never answers. */
class UnloadableWorker extends EventTarget {
  static made = 0;
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    super();
    UnloadableWorker.made++;
    setTimeout(() => this.dispatchEvent(new Event("error")), 10);
  }
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

afterEach(() => vi.unstubAllGlobals());

describe("a reward-model worker that does not load", () => {
  it("fails the load, naming the likely causes and a reload", async () => {
    vi.stubGlobal("Worker", UnloadableWorker);
    const e = await workerOnnxLoader(toyModel(), V, 0).then(
      () => null,
      (x: unknown) => x,
    );
    expect(UnloadableWorker.made).toBe(1);
    expect(e).toBeInstanceOf(OnnxRewardModelError);
    expect((e as Error).message).toBe(
      `runtime: the reward model failed: its worker stopped (${SCRIPT_NOT_LOADED})`,
    );
    expect(SCRIPT_NOT_LOADED).toMatch(/updated on its server.*network is down; reload the page$/);
  });
});
