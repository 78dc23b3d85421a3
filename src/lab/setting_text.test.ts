import { describe, expect, it } from "vitest";
import { formatSetting } from "./run_slot";
import { roundedSetting, settingNumber } from "./setting_text";

describe("settingNumber", () => {
  it("writes magnitudes below 1e-3 as exponents and the rest as decimals", () => {
    const cases: [number, string][] = [
      [1e-4, "1e-4"],
      [3e-5, "3e-5"],
      [-2.5e-4, "-2.5e-4"],
      [0.001, "0.001"],
      [0.04, "0.04"],
      [48, "48"],
      [0, "0"],
      [1e21, "1e+21"],
    ];
    for (const [x, text] of cases) expect(settingNumber(x)).toBe(text);
  });

  it("parses back to the same number (an input box can show it)", () => {
    let s = 12345;
    const rand = () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
    for (let i = 0; i < 2000; i++) {
      const x = (rand() - 0.5) * 10 ** Math.floor(rand() * 24 - 12);
      expect(Number(settingNumber(x))).toBe(x);
    }
  });

  it("rounds for cards and markers, integers untouched", () => {
    expect(roundedSetting(3.0000001e-5, 4)).toBe("3e-5");
    expect(roundedSetting(0.123456, 3)).toBe("0.123");
    expect(roundedSetting(1234567, 3)).toBe("1234567");
    expect(formatSetting(1e-4)).toBe("1e-4");
    expect(formatSetting(0.04)).toBe("0.04");
    expect(formatSetting(true)).toBe("on");
  });
});
