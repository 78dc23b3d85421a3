import { describe, expect, it } from "vitest";
import { bytes, int, ms, sci3, tol } from "./format";

describe("ui number formatting", () => {
  it("sci3 keeps 3 significant digits", () => {
    expect(sci3(1.1920929e-7)).toBe("1.19e-7");
    expect(sci3(0)).toBe("0.00e+0");
    expect(sci3(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(Number(sci3(3.14159e-5))).toBeCloseTo(3.14e-5, 12);
  });

  it("tol writes small tolerances as exponents", () => {
    expect(tol(1e-4)).toBe("1e-4");
    expect(tol(2.5e-5)).toBe("2.5e-5");
    expect(tol(0.5)).toBe("0.5");
    expect(tol(0)).toBe("0");
    expect(tol(2e-5 / 7)).toBe("2.86e-6");
  });

  it("ms and bytes pick sensible precision and units", () => {
    expect(ms(0.01234)).toBe("0.012");
    expect(ms(1.234)).toBe("1.23");
    expect(ms(1234.5)).toBe("1,235");
    expect(bytes(256)).toBe("256 B");
    expect(bytes(2 ** 31)).toBe("2 GiB");
    expect(bytes(1.5 * 2 ** 30)).toBe("1.5 GiB");
    expect(int(70000)).toBe("70,000");
  });
});
