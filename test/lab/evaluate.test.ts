import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { compareWeights, evaluateWeights } from "../../src/lab/evaluate";
import { loadCheckpoint } from "../../src/model/checkpoint";
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
    // A length limit (a run's max tokens, for its win rate): no completion is longer (a random model rarely
    // ends early, so most reach it).
    const short = await evaluateWeights(ctx, task, tok, w, {
      prompts: 24,
      samples: 1,
      temperature: 1,
      seed: 5,
      maxNewTokens: 2,
    });
    const lengths = short.examples.map((x) => tok.encode(x.completion).length);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(2);
    expect(Math.max(...e.examples.map((x) => tok.encode(x.completion).length))).toBeGreaterThan(2);
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

  it("the shipped SFT model against itself: real wins and losses, ½ inside a CI of the right width", async () => {
    // The random nano model above scores 0 on every sum (all ties); the SFT model gets about 28 % right at τ 1,
    // so its two independent sample sets win and lose on different prompts.
    const ck = loadCheckpoint(new Uint8Array(readFileSync("public/models/arithmetic/sft.safetensors")));
    const sft = new GptWeights(ctx, ck.config, ck.params);
    const n = 64;
    const c = await compareWeights(ctx, task, tok, sft, sft, {
      prompts: n,
      samples: 1,
      temperature: 1,
      seed: 2,
    });
    console.log(
      `SFT vs itself: ${c.wins} wins, ${c.ties} ties, ${c.losses} losses; win rate ${c.winRate.toFixed(3)} ` +
        `[${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]`,
    );
    expect(c.wins).toBeGreaterThan(0);
    expect(c.losses).toBeGreaterThan(0);
    expect(c.ci95[0]).toBeLessThan(0.5);
    expect(c.ci95[1]).toBeGreaterThan(0.5);
    // Half-width 1.96·sd/√n of the outcomes 1, ½, 0.
    const mean = c.winRate;
    const sq = c.wins * (1 - mean) ** 2 + c.ties * (0.5 - mean) ** 2 + c.losses * mean ** 2;
    const half = 1.96 * Math.sqrt(sq / (n - 1) / n);
    expect(c.ci95[1] - c.ci95[0]).toBeCloseTo(2 * half, 12);
    sft.destroy();
  });

  it("both sides answer the same prompts: the SFT model against itself near greedy ties almost every pair", async () => {
    // The second side's seed also picked its prompts (14 of 64 shared): 14 wins, 27 ties, 23 losses at τ 0.01.
    const ck = loadCheckpoint(new Uint8Array(readFileSync("public/models/arithmetic/sft.safetensors")));
    const sft = new GptWeights(ctx, ck.config, ck.params);
    const c = await compareWeights(ctx, task, tok, sft, sft, {
      prompts: 64,
      samples: 1,
      temperature: 0.01,
      seed: 1,
    });
    console.log(`SFT vs itself at τ 0.01: ${c.wins} wins, ${c.ties} ties, ${c.losses} losses`);
    expect(c.ties).toBeGreaterThanOrEqual(60);
    expect(Math.abs(c.metricsA["pass@1"] - c.metricsB["pass@1"]), "pass@1 of the two sides").toBeLessThan(
      0.05,
    );
    sft.destroy();
  });
});
