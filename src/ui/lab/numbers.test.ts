import { describe, expect, it } from "vitest";
import { sig, tick, tickAxisWidth, tickFormatter, withUnit } from "./numbers";

describe("lab number formatting", () => {
  it("sig keeps significant digits without trailing zeros", () => {
    expect(sig(0.012345)).toBe("0.0123");
    expect(sig(1.5)).toBe("1.5");
    expect(sig(0.7, 3, true)).toBe("0.700"); // side by side with 0.693
    expect(sig(1.5612, 3, true)).toBe("1.56");
    expect(sig(12345, 3, true)).toBe("12,345");
    expect(sig(-2.71234)).toBe("-2.71");
    expect(sig(123.456)).toBe("123");
    expect(sig(12345.6)).toBe("12,346");
    // A reviewer's hover card: "-1,644,728" and "65,438,984 nats/token" at 3 significant digits; "1800" beside
    // the axis's "2,000".
    expect(sig(-1_644_728)).toBe("-1.64M");
    expect(sig(65_438_984)).toBe("65.4M");
    expect(sig(999_999)).toBe("999,999");
    expect(sig(1800, 4)).toBe("1,800");
    expect(sig(1234.5, 5)).toBe("1,234.5");
    expect(sig(-1500, 4, true)).toBe("-1,500");
    expect(sig(999.5, 4)).toBe("999.5");
    expect(sig(999_950_000)).toBe("1e+9");
    expect(sig(999_950_000, 3, true)).toBe("1e+9");
    expect(sig(999_940_000, 4)).toBe("999.9M");
    expect(sig(0)).toBe("0");
    expect(sig(1.234e-6)).toBe("1.23e-6");
    expect(sig(1e-5)).toBe("1e-5");
    expect(sig(0.000123456, 2)).toBe("0.00012");
  });

  it("sig names non-finite values", () => {
    expect(sig(Number.NaN)).toBe("NaN");
    expect(sig(Number.POSITIVE_INFINITY)).toBe("∞");
    expect(sig(Number.NEGATIVE_INFINITY)).toBe("−∞");
  });

  it("tick shortens large counts", () => {
    expect(tick(12_500)).toBe("12.5k");
    expect(tick(3_400_000)).toBe("3.4M");
    expect(tick(0.25)).toBe("0.25");
    expect(tick(512)).toBe("512");
  });

  it("withUnit appends the unit", () => {
    expect(withUnit(0.1234, "nats")).toBe("0.123 nats");
    expect(withUnit(3, undefined)).toBe("3");
  });
});

describe("tickFormatter", () => {
  it("writes every tick with the decimals the roundest step needs, the same for all", () => {
    const f = tickFormatter([0, 0.25, 0.5, 0.75, 1]);
    expect([0, 0.25, 0.5, 1].map(f)).toEqual(["0.00", "0.25", "0.50", "1.00"]);
    // A step of 0.025 (an entropy axis a teacher read as 2.67, 2.7, 2.73): exact, and one width.
    const e = [2.675, 2.7, 2.725, 2.75, 2.775];
    expect(e.map(tickFormatter(e))).toEqual(["2.675", "2.700", "2.725", "2.750", "2.775"]);
    expect([0, 10, 20, 30].map(tickFormatter([0, 10, 20, 30]))).toEqual(["0", "10", "20", "30"]);
    expect([-0.5, 0, 0.5].map(tickFormatter([-0.5, 0, 0.5]))).toEqual(["-0.5", "0.0", "0.5"]);
    expect([0, 2500, 5000].map(tickFormatter([0, 2500, 5000]))).toEqual(["0", "2,500", "5,000"]);
    expect([0, 25000, 50000].map(tickFormatter([0, 25000, 50000]))).toEqual(["0", "25k", "50k"]);
    expect([0, 12500, 25000].map(tickFormatter([0, 12500, 25000]))).toEqual(["0", "12.5k", "25.0k"]);
    expect([0, 2e6, 4e6].map(tickFormatter([0, 2e6, 4e6]))).toEqual(["0", "2M", "4M"]);
    // Tiny values keep their exponents.
    const tiny = [0, 2e-5, 4e-5];
    expect(tiny.map(tickFormatter(tiny))).toEqual(["0", "2e-5", "4e-5"]);
    const huge = [0, 1e12, 2e12];
    expect(huge.map(tickFormatter(huge))).toEqual(["0", "1e+12", "2e+12"]);
  });
  it("adds digits for a narrow range so no two ticks read the same", () => {
    const ticks = [2.7501, 2.7502, 2.7503, 2.7504];
    const labels = ticks.map(tickFormatter(ticks));
    expect(new Set(labels).size).toBe(4);
    expect(labels[0]).toBe("2.7501");
  });
});

describe("tickAxisWidth", () => {
  it("fits the longest label: 52 px for short ones, more for long ones, 90 at most", () => {
    expect(tickAxisWidth([0, 0.1, 0.2], tickFormatter([0, 0.1, 0.2]))).toBe(52);
    const narrow = [0.1974, 0.19745, 0.1975];
    const f = tickFormatter(narrow);
    expect(f(0.19745)).toBe("0.19745");
    expect(tickAxisWidth(narrow, f)).toBe(16 + 7 * 7);
    expect(tickAxisWidth([1e-12], () => "0.000000000001")).toBe(90);
    expect(tickAxisWidth([], String)).toBe(52);
  });
});
