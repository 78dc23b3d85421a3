import { describe, expect, it } from "vitest";
import { preset } from "../../src/model/config";
import { Generator, generateRecompute } from "../../src/model/generate";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";

describe("KV-cached generation", () => {
  it("produces the same tokens, log-probs and lengths as full recomputation (fixed seed)", async () => {
    const ctx = await testGpu();
    const config = preset("nano", { vocabSize: 23 });
    const rng = new Rng(5);
    const params = initParams(paramLayout(config), () => rng.normal()).map((v) => v * 8); // peaky, so EOS happens
    const w = new GptWeights(ctx, config, params);
    const req = {
      prompts: [[1, 2, 3, 4], [7], [5, 6], [9, 9, 9]],
      maxNewTokens: 10,
      eosId: 0,
      padId: 1,
      temperature: 1,
      seed: 77,
    };
    const P = 5;
    const gen = new Generator(ctx, w, 4, P, 12);
    const cached = await gen.generate(req);
    const again = await gen.generate(req);
    const full = await generateRecompute(ctx, w, req, P);
    console.log(`cached tokens ${[...cached.tokens]} lengths ${[...cached.lengths]}`);
    expect([...cached.tokens]).toEqual([...full.tokens]);
    expect([...cached.lengths]).toEqual([...full.lengths]);
    expect([...again.tokens]).toEqual([...cached.tokens]);
    expectClose("logp cached vs recomputed", cached.logp, full.logp, { atol: 1e-5, rtol: 1e-4 });
    // Masks come from lengths: everything after a row's EOS is padding with log-prob 0.
    for (let b = 0; b < 4; b++)
      for (let s = cached.lengths[b]; s < 10; s++) {
        expect(cached.tokens[b * 10 + s]).toBe(1);
        expect(cached.logp[b * 10 + s]).toBe(0);
      }
    expect(
      [...cached.lengths].some((n) => n < 10),
      "some row emitted EOS",
    ).toBe(true);
    // Another seed gives another sample.
    const other = await gen.generate({ ...req, seed: 78 });
    expect([...other.tokens]).not.toEqual([...cached.tokens]);
    gen.destroy();
    w.destroy();
  });
});
