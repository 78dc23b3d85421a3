import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { measureMatmulThroughput } from "../../src/kernels/throughput";
import { testGpu } from "../helpers/gpu";

describe("matmul throughput (performance card)", () => {
  let ctx: GpuContext;
  beforeAll(async () => {
    ctx = await testGpu();
  });
  afterAll(() => ctx?.destroy());

  it("reports GFLOP/s = 2·n³·reps / time, growing the batch until it lasts minMs or hits maxReps", async () => {
    const t = await measureMatmulThroughput(ctx, { n: 64, minMs: 1e9, maxReps: 8 });
    expect(t.n).toBe(64);
    expect(t.reps).toBe(8); // minMs is never reached: 2 → 8 (capped)
    expect(t.ms).toBeGreaterThan(0);
    expect(t.gflops).toBeCloseTo((2 * 64 ** 3 * 8) / (t.ms * 1e6), 9);
    expect(["timestamp-query", "wall-clock"]).toContain(t.source);
    const quick = await measureMatmulThroughput(ctx, { n: 32, minMs: 0 });
    expect(quick.reps).toBe(2);
    await expect(measureMatmulThroughput(ctx, { n: 0 })).rejects.toThrow(/n must be ≥ 1/);
  });

  it("times the batch `samples` times and reports the median (one sample swung ~5× between page loads)", async () => {
    const timings = [90, 10, 40]; // the first batch is long enough; two more (median 40, mean 46.7, first 90)
    const time = vi.spyOn(ctx, "time").mockImplementation(async (record) => {
      record();
      return { ms: timings.shift() ?? Number.NaN, source: "wall-clock" };
    });
    try {
      const t = await measureMatmulThroughput(ctx, { n: 16, minMs: 20, samples: 3 });
      expect(time).toHaveBeenCalledTimes(3);
      expect([t.reps, t.ms, t.samples]).toEqual([2, 40, 3]);
      expect(t.gflops).toBeCloseTo((2 * 16 ** 3 * 2) / (40 * 1e6), 12);
    } finally {
      time.mockRestore();
    }
  });
});
