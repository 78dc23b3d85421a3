/** The page-top warning of a failed self-test (./SelfTestWarning.tsx): said only when a check disagrees. */
import { describe, expect, it } from "vitest";
import { selfTestWarning } from "./self_test_warning";

describe("self-test warning", () => {
  it("names how many checks disagree and which kernels, once each, at most four", () => {
    const ok = (kernel: string) => ({ kernel, ok: true });
    const bad = (kernel: string) => ({ kernel, ok: false });
    expect(selfTestWarning([ok("a"), ok("b")])).toBeNull();
    expect(selfTestWarning([])).toBeNull();
    expect(selfTestWarning([bad("matmul (A·B) · tiled"), bad("matmul (A·B) · tiled"), ok("gelu")])).toBe(
      "2 of 3 kernel checks disagree with their CPU twins on this adapter (matmul (A·B) · tiled)",
    );
    expect(selfTestWarning(["a", "b", "c", "d", "e", "f"].map(bad))).toBe(
      "6 of 6 kernel checks disagree with their CPU twins on this adapter (a, b, c, d, and 2 more)",
    );
  });
});
