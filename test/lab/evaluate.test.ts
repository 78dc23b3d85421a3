import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { compareWeights, evaluateWeights } from "../../src/lab/evaluate";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { loadTask, type Task } from "../../src/tasks";
import { readTokenizerFile } from "../../src/tokenizer/node";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import { Rng } from "../../src/util/rng";
import { testGpu } from "../helpers/gpu";

/** Held-out evaluation and the win rate the CLI (`eval --vs`) and the lab's runs share. */
describe("held-out evaluation and win rate", () => {
  let ctx: GpuContext;
  let task: Task;
  let tok: Tokenizer;
  let w: GptWeights;
  beforeAll(async () => {
    ctx = await testGpu();
    task = await loadTask("arithmetic");
    tok = readTokenizerFile(`public/${task.tokenizerPath}`);
    const config = preset("nano", { vocabSize: tok.vocabSize });
    const rng = new Rng(3);
    w = new GptWeights(
      ctx,
      config,
      initParams(paramLayout(config), () => rng.normal()),
    );
  });
  afterAll(() => {
    w?.destroy();
    ctx?.destroy();
  });

  it("samples every held-out prompt asked for and scores each completion with the gold scorer", async () => {
    const e = await evaluateWeights(ctx, task, tok, w, { prompts: 24, samples: 2, temperature: 1, seed: 5 });
    expect(e.prompts).toBe(24);
    expect(e.gold).toHaveLength(48);
    for (const g of e.gold) expect([0, 1]).toContain(g);
    expect(e.metrics.gold_mean).toBeCloseTo(e.gold.reduce((a, b) => a + b, 0) / 48, 12);
    // Same seed, same samples.
    const again = await evaluateWeights(ctx, task, tok, w, {
      prompts: 24,
      samples: 2,
      temperature: 1,
      seed: 5,
    });
    expect(again.examples).toEqual(e.examples);
  });

  it("a model against itself wins half the time (ties count ½), inside its confidence interval", async () => {
    const c = await compareWeights(ctx, task, tok, w, w, {
      prompts: 48,
      samples: 1,
      temperature: 1,
      seed: 1,
    });
    expect(c.n).toBe(48);
    expect(c.wins + c.ties + c.losses).toBe(48);
    expect(c.winRate).toBeCloseTo((c.wins + c.ties / 2) / 48, 12);
    expect(c.ci95[0]).toBeLessThanOrEqual(0.5);
    expect(c.ci95[1]).toBeGreaterThanOrEqual(0.5);
  });
});
