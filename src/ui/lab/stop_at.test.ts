import { describe, expect, it } from "vitest";
import { parseStopAt } from "./stop_at_parse";

describe("Stop at box", () => {
  it("reads decimal notation as the other number boxes do", () => {
    expect(parseStopAt("")).toBe(0);
    expect(parseStopAt("0")).toBe(0); // never, as the problem text says
    expect(parseStopAt(" 400 ")).toBe(400);
    expect(parseStopAt("1e3")).toBe(1000);
    expect(parseStopAt("1E2")).toBe(100);
    // Thousands separators: the number without them is named (German "1.000" was read as 1).
    for (const t of ["1.000", "1,000"])
      expect(parseStopAt(t)).toBe("Stop at must be a whole number without separators: 1000");
    expect(parseStopAt("100000")).toBe(100000);
  });
  it("refuses what is not a whole step count in range, saying what it takes", () => {
    for (const t of ["0x10", "12.5", "-1", "1e6", "abc", "Infinity"]) {
      const r = parseStopAt(t);
      expect(typeof r, t).toBe("string");
      expect(r).toMatch(/whole number of steps from 1 to 100,000.*\(empty or 0: never stop\)/);
    }
  });
});
