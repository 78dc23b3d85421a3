import { afterEach, describe, expect, it, vi } from "vitest";
import { throttleDawnPolling } from "../../src/gpu/node_poll";

/** The process's own setImmediate (another test file in this worker may have throttled it already). */
const original =
  (globalThis.setImmediate as unknown as { [k: symbol]: typeof setImmediate })[
    Symbol.for("rlhf-playground.setImmediate.original")
  ] ?? globalThis.setImmediate;

describe("throttleDawnPolling", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    throttleDawnPolling(); // as the GPU helpers leave it
  });

  it("sends native callbacks (dawn.node's tick) through setTimeout and leaves JS callbacks alone", async () => {
    throttleDawnPolling(5);
    const timeout = vi.spyOn(globalThis, "setTimeout");
    // A promise's resolve function is native, like dawn.node's tick.
    const viaNative = new Promise<void>((resolve) => {
      setImmediate(resolve);
    });
    expect(timeout).toHaveBeenCalledTimes(1);
    expect(timeout.mock.calls[0][1]).toBe(5);
    await viaNative;
    const viaJs = new Promise<void>((resolve) => {
      setImmediate(() => resolve());
    });
    expect(timeout).toHaveBeenCalledTimes(1);
    await viaJs;
    // promisify(setImmediate) keeps working (its custom form hangs on the original).
    const { promisify } = await import("node:util");
    await expect(promisify(setImmediate)("x")).resolves.toBe("x");
  });

  it("ms = 0 restores the original setImmediate; a bad interval throws", () => {
    throttleDawnPolling(3);
    expect(globalThis.setImmediate).not.toBe(original);
    throttleDawnPolling(0);
    expect(globalThis.setImmediate).toBe(original);
    // Installing twice wraps the original, not the first wrapper.
    throttleDawnPolling(2);
    throttleDawnPolling(2);
    const w = globalThis.setImmediate as unknown as { [k: symbol]: typeof setImmediate };
    expect(w[Symbol.for("rlhf-playground.setImmediate.original")]).toBe(original);
    expect(() => throttleDawnPolling(-1)).toThrow(RangeError);
    expect(() => throttleDawnPolling(Number.NaN)).toThrow(/≥ 0/);
  });
});
