import { describe, expect, it } from "vitest";
import { GrpoRun } from "../../src/algorithms/grpo";
import { distinctFraction } from "../../src/algorithms/math/diversity";
import { nanoEnv } from "../helpers/nano_env";

describe("completions/distinct_frac", () => {
  it("is the mean share of distinct sequences per group of G: 1 all different, 1/G all the same", () => {
    expect(distinctFraction([[1], [2], [3], [4]], 4)).toBe(1);
    expect(
      distinctFraction(
        [
          [1, 0],
          [1, 0],
          [1, 0],
          [1, 0],
        ],
        4,
      ),
    ).toBe(0.25);
    // Group 1: {[1,2], [1]} → 2/3 ([1,2] twice); group 2: all three the same → 1/3. Mean 0.5.
    expect(distinctFraction([[1, 2], [1], [1, 2], [5], [5], [5]], 3)).toBeCloseTo(0.5, 15);
    // A prefix is another sequence ([1] vs [1, 0]); [1, 23] is not [12, 3].
    expect(distinctFraction([[1], [1, 0]], 2)).toBe(1);
    expect(
      distinctFraction(
        [
          [1, 23],
          [12, 3],
        ],
        2,
      ),
    ).toBe(1);
    expect(() => distinctFraction([[1], [2], [3]], 2)).toThrow(RangeError);
    expect(() => distinctFraction([], 2)).toThrow(RangeError);
    expect(() => distinctFraction([[1]], 0)).toThrow(RangeError);
  });

  it("a GRPO step logs it from its own groups; a policy that always says the same thing scores 1/G", async () => {
    const env = await nanoEnv(2, false);
    const run = new GrpoRun(env, { beta: 0, batchPrompts: 3, numGenerations: 4, maxNewTokens: 6 });
    const { metrics, rollout } = await run.step();
    if (!rollout) throw new Error("no rollout");
    expect(metrics["completions/distinct_frac"]).toBe(distinctFraction(rollout.completions, 4));
    console.log(`nano GRPO, random init: distinct_frac ${metrics["completions/distinct_frac"]}`);
    expect(metrics["completions/distinct_frac"]).toBeGreaterThan(0.25);
    run.destroy();
    // Greedy sampling (top-k 1): every sample of a prompt is the argmax sequence.
    const greedy = new GrpoRun(await nanoEnv(2, false), {
      beta: 0,
      batchPrompts: 3,
      numGenerations: 4,
      maxNewTokens: 6,
      topK: 1,
    });
    expect((await greedy.step()).metrics["completions/distinct_frac"]).toBe(0.25);
    greedy.destroy();
  });
});
