/**
 * The autotune's timer on a fast GPU (src/kernels/autotune.ts): GPU timestamps are quantized (100 µs in Chrome and
 * Dawn), so a kernel shorter than that reads 0 or one quantum. A fake context whose clock is quantized stands in
 * for one: a single call must be timed over repeats, and the per-call time must come out near the true one.
 */
import { describe, expect, it } from "vitest";
import { timePerCall } from "../../src/kernels/autotune";

/** A context whose `time` reports `perCall` ms for each call `record` makes, rounded down to `quantum` ms. */
function quantizedClock(perCall: number, quantum = 0.1) {
  let calls = 0;
  const ctx = {
    time: async (record: () => void) => {
      const before = calls;
      record();
      const ms = Math.floor(((calls - before) * perCall) / quantum) * quantum;
      return { ms, source: "timestamp-query" as const };
    },
  };
  return { ctx, call: () => calls++, count: () => calls };
}

describe("autotune timing", () => {
  it("times a kernel shorter than the clock's quantum over repeats", async () => {
    for (const perCall of [0.06, 0.03, 0.2]) {
      const c = quantizedClock(perCall);
      const ms = await timePerCall(c.ctx, c.call);
      console.log(`true ${perCall} ms/call, timed ${ms.toFixed(4)} ms/call after ${c.count()} calls`);
      expect(ms).toBeGreaterThan(0);
      // At least 10 calls share one reading (one quantum, 0.1 ms): within 0.01 ms of the truth.
      expect(Math.abs(ms - perCall)).toBeLessThanOrEqual(0.01);
    }
  });

  it("keeps the two variants' order when both read 0 alone (the H200's coin toss)", async () => {
    const fast = quantizedClock(0.05);
    const slow = quantizedClock(0.08);
    expect(await timePerCall(fast.ctx, fast.call)).toBeLessThan(await timePerCall(slow.ctx, slow.call));
  });

  it("times a slow kernel once (three readings), as on a software adapter", async () => {
    const c = quantizedClock(80, 0.001);
    expect(await timePerCall(c.ctx, c.call)).toBeCloseTo(80, 6);
    expect(c.count()).toBe(3);
  });
});
