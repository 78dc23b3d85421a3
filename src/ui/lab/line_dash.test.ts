import { describe, expect, it } from "vitest";
import { lineDash } from "./line_dash";

describe("line patterns", () => {
  it("solid runs, dashed gold, and dotted runs whose colour another run has too (all four differ)", () => {
    const all = [{}, { dashed: true }, { dotted: true }, { dashed: true, dotted: true }].map(lineDash);
    expect(all[0]).toBeUndefined();
    expect(all[1]).toBe("5 4");
    expect(new Set(all).size).toBe(4);
  });
});
