import { beforeEach, describe, expect, it } from "vitest";
import { colourMap, RUN_COLOURS, resetColours } from "./palette";

const ids = (...xs: string[]) => xs.map((id) => ({ id }));

describe("run colours", () => {
  beforeEach(resetColours);

  it("a fresh page colours runs in order", () => {
    expect(colourMap(ids("a", "b", "c"))).toEqual({
      a: "var(--run-0)",
      b: "var(--run-1)",
      c: "var(--run-2)",
    });
  });

  it("removing a run repaints no other run; a new run takes the lowest free colour", () => {
    colourMap(ids("a", "b", "c"));
    expect(colourMap(ids("a", "c"))).toEqual({ a: "var(--run-0)", c: "var(--run-2)" });
    expect(colourMap(ids("a", "c", "d"))).toEqual({
      a: "var(--run-0)",
      c: "var(--run-2)",
      d: "var(--run-1)",
    });
    // Reordering keeps colours too.
    expect(colourMap(ids("d", "c", "a"))).toEqual({
      a: "var(--run-0)",
      c: "var(--run-2)",
      d: "var(--run-1)",
    });
  });

  it("more runs than colours wrap around the palette", () => {
    const many = ids(...Array.from({ length: RUN_COLOURS + 2 }, (_, i) => `r${i}`));
    const m = colourMap(many);
    expect(m.r0).toBe("var(--run-0)");
    expect(m[`r${RUN_COLOURS}`]).toBe("var(--run-0)");
    expect(m[`r${RUN_COLOURS + 1}`]).toBe("var(--run-1)");
  });
});
