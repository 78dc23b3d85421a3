/**
 * What the self-test reports without a GPU: a check's line with its worst element and bound
 * (describeSelfTestResult, which selftest.test.ts prints for each failing check), and the README's counts of
 * checks and kernels against the real case list.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { describeSelfTestResult, type SelfTestResult, selfTestCounts } from "../../src/kernels/selftest";

const failing: SelfTestResult = {
  kernel: "silu",
  shape: "[37×130]",
  n: 4810,
  maxAbsError: 3.1e-3,
  worstIndex: 17,
  worstGpu: 0.52,
  worstRef: 0.5231,
  tolerance: { atol: 1e-6, rtol: 1e-5 },
  ok: false,
  gpuMs: 0.4,
};

describe("self-test report", () => {
  it("describes a failing check by its worst element, error and bound", () => {
    expect(describeSelfTestResult(failing)).toBe(
      "silu [37×130]: FAIL max|err| 3.10e-3 at [17] (gpu=0.52 ref=0.5231), bound 6.23e-6 (atol 1e-6 rtol 1e-5)",
    );
    // A result kept by an older page has no worst values: still its error and tolerance.
    const { worstGpu: _g, worstRef: _r, ...old } = failing;
    expect(describeSelfTestResult(old)).toBe(
      "silu [37×130]: FAIL max|err| 3.10e-3 at [17] (atol 1e-6 rtol 1e-5)",
    );
  });

  it("README quotes the self-test's real counts of checks and kernels", () => {
    const { checks, kernels } = selfTestCounts();
    const readme = readFileSync(resolve(__dirname, "../../README.md"), "utf8");
    expect(readme).toContain(`${checks} small checks of ${kernels}\nkernels`);
    expect(readme).toContain(`${checks}/${checks} checks of ${kernels} kernels match their CPU twins`);
  });
});
