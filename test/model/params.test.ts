import { describe, expect, it } from "vitest";
import { PRESETS, preset, validateConfig } from "../../src/model/config";
import { decayMask, PARAM_ALIGN, paramLayout } from "../../src/model/params";

describe("config and parameter layout", () => {
  it("validates configs with field names in the error", () => {
    expect(() => preset("nano", { nHead: 3 })).toThrow(/divisible by nHead/);
    expect(() => validateConfig({ ...PRESETS.nano, nLayer: 0 })).toThrow(/nLayer/);
  });

  it("aligns every tensor to 256 bytes and counts GPT-2's parameters", () => {
    const c = preset("tiny", { vocabSize: 512 });
    const layout = paramLayout(c);
    for (const s of layout.specs) expect(s.offset % PARAM_ALIGN).toBe(0);
    const C = c.nEmbd;
    const perLayer = 12 * C * C + 13 * C; // qkv 3C²+3C, proj C²+C, fc 4C²+4C, proj 4C²+C, two LNs 4C
    const expected = c.vocabSize * C + c.contextLength * C + c.nLayer * perLayer + 2 * C + 2 * (C + 1);
    expect(layout.count).toBe(expected);
    const mask = decayMask(layout);
    const ln = layout.byName.get("h.0.ln_1.weight")!;
    expect(mask[ln.offset]).toBe(0);
    expect(mask[layout.byName.get("h.0.mlp.c_fc.weight")!.offset]).toBe(1);
  });
});
