/**
 * REINFORCE's token view on real steps (nano, WebGPU on Dawn; SwiftShader without a GPU): the note's rule
 * Â = s − b holds token for token with s = R − β·Σₜ k1ₜ recomputed from the view's own k1 column and b the
 * baseline it names (0 at the first step, then the moving average).
 */
import { describe, expect, it } from "vitest";
import { ReinforceRun } from "../../src/algorithms/reinforce";
import { completionBudget } from "../../src/algorithms/run";
import { inspectView } from "../../src/lab/inspect/build";
import type { TokenText } from "../../src/lab/inspect/text";
import { Generator } from "../../src/model/generate";
import { nanoEnv } from "../helpers/nano_env";

const TEXT: TokenText = { token: (id) => `<${id}>`, prompt: (ids) => ids.join(",") };

describe("REINFORCE inspector on GPU steps", () => {
  it("Â = R − β·Σ k1 − b on every token, with the baseline the view names", async () => {
    const env = await nanoEnv(2);
    const config = { lr: 3e-2, batchPrompts: 4, maxNewTokens: 5, beta: 0.1, baselineDecay: 0.9 };
    const run = new ReinforceRun(env, config);
    const bs: number[] = [];
    for (let s = 1; s <= 3; s++) {
      const r = await run.step();
      const v = inspectView("reinforce", { ...run.config }, r, TEXT);
      if (v.kind !== "tokens" || !v.baseline) throw new Error(`step ${s}: no token view with a baseline`);
      expect(v.klEstimator).toBe("k1");
      bs.push(v.baseline.b);
      for (const c of v.completions) {
        const score = c.reward - 0.1 * c.tokens.reduce((a, t) => a + t.kl, 0);
        for (const t of c.tokens) expect(t.advantage, `step ${s}`).toBeCloseTo(score - v.baseline.b, 5);
      }
    }
    console.log(`baselines b at steps 1–3: ${bs.map((b) => b.toFixed(4)).join(", ")}`);
    expect(bs[0]).toBe(0);
    expect(bs[1]).not.toBe(0);
    run.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  }, 120_000);
});

describe("REINFORCE with ReMax's greedy baseline on GPU steps", () => {
  it("b of each completion = the reward of its prompt's greedy answer, drawn before the update; Â = s − b", async () => {
    const env = await nanoEnv(3);
    const config = { lr: 3e-2, batchPrompts: 4, maxNewTokens: 5, beta: 0.1, baseline: "greedy" as const };
    const run = new ReinforceRun(env, config);
    const S = completionBudget(env, config.maxNewTokens);
    for (let s = 1; s <= 2; s++) {
      // The greedy answers, drawn here on a generator of our own with the weights the step starts from.
      const prompts = env.prompts.batch(s - 1, config.batchPrompts);
      const gen = new Generator(env.ctx, env.policy, prompts.length, env.prompts.maxLength, S);
      const g = await gen.generate({
        prompts,
        maxNewTokens: S,
        eosId: env.eosId,
        padId: env.padId,
        greedy: true,
      });
      gen.destroy();
      const greedy = await env.reward.score(
        prompts.map((prompt, b) => ({
          prompt,
          completion: Array.from(g.tokens.subarray(b * S, b * S + g.lengths[b])),
        })),
      );
      const r = await run.step();
      const v = inspectView("reinforce", { ...run.config }, r, TEXT);
      if (v.kind !== "tokens" || !v.baseline) throw new Error(`step ${s}: no token view with a baseline`);
      expect(v.baseline.greedy).toBe(true);
      expect(r.metrics.baseline).toBeCloseTo(greedy.reduce((a, x) => a + x, 0) / greedy.length, 6);
      v.completions.forEach((c, b) => {
        expect(c.baseline, `step ${s} completion ${b}`).toBeCloseTo(greedy[b], 5);
        const score = c.reward - 0.1 * c.tokens.reduce((a, t) => a + t.kl, 0);
        for (const t of c.tokens) expect(t.advantage, `step ${s}`).toBeCloseTo(score - greedy[b], 5);
      });
      console.log(`step ${s}: greedy scores ${Array.from(greedy, (x) => x.toFixed(3)).join(", ")}`);
    }
    run.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  }, 120_000);
});
