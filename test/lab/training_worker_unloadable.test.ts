/**
 * The training worker's script does not load (a page left open while the lab was redeployed asks for a worker
 * file the server no longer has; or no network): the lab's start fails saying so and what to do, in the same
 * words as a reward-model worker's (src/lab/worker_script.ts), not "its script failed to load".
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SCRIPT_NOT_LOADED } from "../../src/lab/ort_loader";
import { spawnTrainingWorker } from "../../src/ui/client_worker";

/** A Worker whose module script 404s: it fires a bare "error" Event, as Chrome does, and never answers. */
class UnloadableWorker extends EventTarget {
  constructor(readonly url: URL) {
    super();
    setTimeout(() => this.dispatchEvent(new Event("error")), 10);
  }
  postMessage(): void {}
  terminate(): void {}
}

afterEach(() => vi.unstubAllGlobals());

describe("a training worker whose script does not load", () => {
  it("says the lab was updated on its server or the network is down, and to reload", async () => {
    vi.stubGlobal("Worker", UnloadableWorker);
    const { died } = spawnTrainingWorker();
    const e = await died.catch((x: unknown) => x);
    expect((e as Error).message).toBe(`the training worker stopped: ${SCRIPT_NOT_LOADED}`);
    expect((e as Error).message).toMatch(/updated on its server since this page opened.*reload the page$/);
  });

  it("a script that threw at top level keeps its own message", async () => {
    class Throwing extends UnloadableWorker {
      override dispatchEvent(): boolean {
        return super.dispatchEvent(Object.assign(new Event("error"), { message: "Uncaught SyntaxError: x" }));
      }
    }
    vi.stubGlobal("Worker", Throwing);
    const e = await spawnTrainingWorker().died.catch((x: unknown) => x);
    expect((e as Error).message).toBe("the training worker stopped: Uncaught SyntaxError: x");
  });
});
