import { describe, expect, it } from "vitest";
import { colourAt, scaleFor, tokenValue } from "./token_colours";

describe("token colour scales", () => {
  it("advantage is symmetric around 0", () => {
    const s = scaleFor("advantage", [-2, 1, 0.5]);
    expect(s.lo).toBe(-2);
    expect(s.hi).toBe(2);
    expect(s.position(-2)).toBe(-1);
    expect(s.position(0)).toBe(0);
    expect(s.position(1)).toBe(0.5);
  });

  it("ratio is symmetric in log space around 1", () => {
    const s = scaleFor("ratio", [0.5, 1.2]);
    expect(s.mid).toBe(1);
    expect(s.position(0.5)).toBeCloseTo(-1, 12);
    expect(s.position(2)).toBeCloseTo(1, 12);
    expect(s.position(1)).toBe(0);
  });

  it("probability is centred on one half and clamps", () => {
    const s = scaleFor("prob", []);
    expect(s.position(0)).toBe(-1);
    expect(s.position(0.75)).toBe(0.5);
    expect(s.position(2)).toBe(1);
  });

  it("log-prob spans [min, 0]", () => {
    const s = scaleFor("logp", [-4, -1]);
    expect(s.lo).toBe(-4);
    expect(s.position(-4)).toBe(-1);
    expect(s.position(0)).toBe(1);
  });

  it("values per mode, and colours", () => {
    const t = { text: "a", logp: -1, prob: 0.37, advantage: null, ratio: 1.1, kl: 0.02, entropy: 2 };
    expect(tokenValue(t, "advantage")).toBeNull();
    expect(tokenValue(t, "kl")).toBe(0.02);
    expect(colourAt(-1)).toBe("rgb(0 114 178 / 0.700)");
    expect(colourAt(0.5)).toBe("rgb(213 94 0 / 0.350)");
  });
});
