import { describe, expect, it, vi } from "vitest";
import { GrpoRun } from "../../src/algorithms/grpo";
import { RlooRun } from "../../src/algorithms/rloo";
import { checkFinite, NonFiniteMetricError, stepThroughput } from "../../src/algorithms/run";
import { nanoEnv } from "../helpers/nano_env";

describe("run invariants", () => {
  it("a batch whose scores are all equal gives a zero gradient and finite metrics (GRPO, β = 0)", async () => {
    const env = await nanoEnv(5, false);
    env.reward = { name: "constant", score: (s) => new Float64Array(s.length).fill(0.5) };
    const before = await env.policy.download();
    const run = new GrpoRun(env, {
      beta: 0,
      batchPrompts: 2,
      numGenerations: 4,
      maxNewTokens: 6,
      weightDecay: 0,
    });
    const { metrics } = await run.step();
    expect(metrics.grad_norm).toBe(0);
    expect(metrics.frac_reward_zero_std).toBe(1);
    expect(metrics["loss/policy_avg"]).toBe(0);
    for (const [k, v] of Object.entries(metrics)) expect(Number.isFinite(v), k).toBe(true);
    expect(await env.policy.download()).toEqual(before); // AdamW with a zero gradient and no decay: no move
    run.destroy();
  });

  it("RLOO logs frac_reward_zero_std from its groups of k rewards, as TRL does", async () => {
    const env = await nanoEnv(5, false);
    // Prompt-wise constant rewards: every group ties (frac 1); completion-wise rewards: groups differ.
    env.reward = { name: "per prompt", score: (s) => Float64Array.from(s, (x) => x.prompt.length % 3) };
    const run = new RlooRun(env, { beta: 0, batchPrompts: 3, numGenerations: 2, maxNewTokens: 6 });
    const tied = (await run.step()).metrics;
    expect(tied.frac_reward_zero_std).toBe(1);
    expect(tied.grad_norm).toBe(0);
    env.reward = {
      name: "token sum",
      score: (s) => Float64Array.from(s, (x) => x.completion.reduce((a, t) => a + t, 0)),
    };
    const varied = (await run.step()).metrics;
    console.log(
      `RLOO frac_reward_zero_std: tied ${tied.frac_reward_zero_std}, token sum ${varied.frac_reward_zero_std}`,
    );
    expect(varied.frac_reward_zero_std).toBeGreaterThanOrEqual(0);
    expect(varied.frac_reward_zero_std).toBeLessThan(1);
    expect(varied.frac_reward_zero_std * 3).toBeCloseTo(Math.round(varied.frac_reward_zero_std * 3), 12);
    run.destroy();
  });

  it("step_time is in seconds to 0.1 ms (no clock-difference noise in exports); tokens/s per whole step", () => {
    const now = vi.spyOn(performance, "now").mockReturnValue(1000 + 29475.90000000596);
    const m = stepThroughput(1000, 120, 8);
    now.mockRestore();
    expect(m.step_time).toBe(29.4759);
    expect(String(m.step_time)).toBe("29.4759");
    expect(m["tokens/s"]).toBeCloseTo(120 / 29.4759, 6);
    expect([m.samples, m.tokens]).toEqual([8, 120]);
  });

  it("a non-finite metric stops the run with the metric and the step named", () => {
    expect(() => checkFinite({ reward: 1, "objective/kl": Number.NaN }, 7)).toThrow(NonFiniteMetricError);
    expect(() => checkFinite({ loss: Number.POSITIVE_INFINITY }, 3)).toThrow(
      /loss became Infinity at step 3/,
    );
  });

  it("runs with the same seed see the same prompts and samples; settings changes apply at the next step", async () => {
    const a = await nanoEnv(6);
    const b = await nanoEnv(6);
    const ra = new GrpoRun(a, { batchPrompts: 2, numGenerations: 2, maxNewTokens: 4 });
    const rb = new GrpoRun(b, { batchPrompts: 2, numGenerations: 2, maxNewTokens: 4, lr: 0 });
    const sa = await ra.step();
    const sb = await rb.step();
    expect(sa.rollout?.prompts).toEqual(sb.rollout?.prompts);
    expect(sa.rollout?.completions).toEqual(sb.rollout?.completions);
    rb.setConfig({ beta: 0.5 });
    expect((await rb.step()).metrics.kl_coef).toBe(0.5);
    expect(() => rb.setConfig({ numGenerations: 4 })).toThrow(/batch shape/);
    expect(() => rb.setConfig({ epsilon: -1 })).toThrow(/grpo.epsilon/);
    ra.destroy();
    rb.destroy();
  });
});
