/**
 * The kernel self-test (src/kernels/selftest.ts) on this adapter: every case passes, and each matmul case runs
 * once per variant — the page's default variant is not the one training uses when the worker's timing picks the
 * other, and a broken variant must show (it once passed "23/23" while training on a kernel never checked).
 */
import { describe, expect, it, vi } from "vitest";
import { MATMUL_VARIANTS, matmulVariant, setMatmulVariant } from "../../src/kernels/matmul";
import { describeSelfTestResult, runSelfTest, selfTestSummary } from "../../src/kernels/selftest";
import { testGpu } from "../helpers/gpu";

describe("kernel self-test", () => {
  it("checks every matmul case on each variant, and leaves the context's choice as it was", async () => {
    const ctx = await testGpu();
    const before = matmulVariant(ctx);
    // Which matmul shader each case dispatched: a case named "· tiled" must run the tiled one.
    const ran: string[] = [];
    const dispatch = ctx.dispatch.bind(ctx);
    const spy = vi.spyOn(ctx, "dispatch").mockImplementation((k, o) => {
      if (k.name.startsWith("matmul")) ran.push(k.name);
      dispatch(k, o);
    });
    const seen: string[][] = [];
    const results = await runSelfTest(ctx, () => seen.push(ran.splice(0)));
    spy.mockRestore();
    results.forEach((r, i) => {
      if (r.kernel.startsWith("matmul "))
        expect(new Set(seen[i]), r.kernel).toEqual(
          new Set([r.kernel.endsWith(" · tiled") ? "matmul" : "matmul_regtile"]),
        );
    });
    // Each failing check with its worst error and bound, not only its name.
    expect(results.filter((r) => !r.ok).map(describeSelfTestResult)).toEqual([]);
    const matmuls = results.filter((r) => r.kernel.startsWith("matmul "));
    expect(matmuls.length).toBeGreaterThanOrEqual(8);
    for (const v of MATMUL_VARIANTS) {
      const mine = matmuls.filter((r) => r.kernel.endsWith(` · ${v}`));
      expect(mine.length, v).toBe(matmuls.length / MATMUL_VARIANTS.length);
    }
    expect(matmulVariant(ctx)).toBe(before);
    expect(selfTestSummary(results)).toMatch(/^(\d+)\/\1 checks of \d+ kernels match their CPU twins$/);
    // The RL losses with their gradient outputs, and generation, are checked too (selftest_rl.ts, selftest_gen.ts).
    const kernels = results.map((r) => r.kernel);
    for (const k of [
      "policy_loss (terms)",
      "policy_loss (dlogp)",
      "value_loss (dvalues)",
      "dpo_loss (grad)",
      "bt_loss (drewards)",
      "exact_kl_backward (dpolicy)",
      "sequence_logprob_backward (mean)",
    ])
      expect(kernels, k).toContain(k);
    const names = new Set(kernels.map((k) => k.replace(/ \(.*$/, "")));
    for (const k of ["exact_kl", "sequence_logprob", "softmax", "sample", "kv_append", "decode_attention"])
      expect(names.has(k), k).toBe(true);
    for (const k of ["gather_rows", "gen_bookkeep"]) expect(names.has(k), k).toBe(true);
    // A context whose timing picked the other variant: the self-test still checks both.
    const other = MATMUL_VARIANTS.find((v) => v !== before) ?? before;
    setMatmulVariant(ctx, other);
    try {
      const again = await runSelfTest(ctx);
      expect(again.map((r) => r.kernel)).toEqual(results.map((r) => r.kernel));
      expect(matmulVariant(ctx)).toBe(other);
    } finally {
      setMatmulVariant(ctx, before);
    }
  });
});
