/**
 * describeComparison (src/kernels/compare.ts) names the two sides it compares: "gpu"/"ref" by default, the
 * caller's names otherwise (a CPU twin against finite differences is not a GPU result).
 */
import { describe, expect, it } from "vitest";
import { compareArrays, describeComparison } from "../../src/kernels/compare";
import { TWIN_VS_FD } from "../helpers/finite_diff";

const tol = { atol: 1e-6, rtol: 0 };

describe("describeComparison", () => {
  it("labels the worst element's values gpu= and ref= by default, or by the caller's names", () => {
    const c = compareArrays([1, 2.5], [1, 2], tol);
    expect(describeComparison("k", c, tol)).toContain("worst [1] gpu=2.5 ref=2 ");
    const fd = describeComparison("twin dx vs FD", c, tol, TWIN_VS_FD);
    expect(fd).toContain("worst [1] twin=2.5 fd=2 ");
    expect(fd).not.toMatch(/gpu=|ref=/);
  });
});
