/**
 * A REINFORCE fork continues from its source's moving-average baseline (copyExtraFrom), so that with the same
 * settings it computes the same advantages as its source (src/lab/runs.ts fork); a fork with another baseline
 * decay starts its own average. No GPU: the runs are bare objects of the class with just the state involved.
 */
import { describe, expect, it } from "vitest";
import { movingAverageBaseline } from "../../src/algorithms/math/reinforce";
import { ReinforceRun } from "../../src/algorithms/reinforce";

function bare(decay: number, baseline = movingAverageBaseline(decay)): ReinforceRun {
  return Object.assign(Object.create(ReinforceRun.prototype), { config: { baselineDecay: decay }, baseline });
}
const baselineOf = (r: ReinforceRun) => (r as unknown as { baseline: unknown }).baseline;

describe("a REINFORCE fork", () => {
  it("takes its source's moving baseline when the decay is the same, and keeps its own otherwise", () => {
    const grown = { decay: 0.9, ema: 0.42, steps: 5 };
    const fork = bare(0.9);
    fork.copyExtraFrom(bare(0.9, grown));
    expect(baselineOf(fork)).toEqual(grown);
    const other = bare(0.5);
    other.copyExtraFrom(bare(0.9, grown));
    expect(baselineOf(other)).toEqual({ decay: 0.5, ema: 0, weight: 0, steps: 0 });
  });
});

describe("REINFORCE's moving average under ReMax's greedy baseline", () => {
  it("follows every batch, so switched back to moving_average its b is current (nano, GPU)", async () => {
    const { nanoEnv } = await import("../helpers/nano_env");
    const env = await nanoEnv(2);
    const run = new ReinforceRun(env, { batchPrompts: 4, maxNewTokens: 5, lr: 1e-2, temperature: 0.5 });
    const rewards: number[] = [];
    for (let s = 1; s <= 6; s++) {
      if (s === 3) run.setConfig({ baseline: "greedy" });
      if (s === 5) run.setConfig({ baseline: "moving_average" });
      const r = await run.step();
      rewards.push(r.metrics.reward);
      if (s === 5) {
        // b at step 5 = the bias-corrected average of steps 1–4's mean rewards (two of them under greedy).
        const m = rewards.slice(0, 4).reduce((a, x) => 0.9 * a + 0.1 * x, 0);
        expect(r.metrics.baseline).toBeCloseTo(m / (1 - 0.9 ** 4), 6);
      }
    }
    expect(run.runState().baselineSteps).toBe(6);
    run.destroy();
    env.policy.destroy();
    env.ref?.destroy();
  });
});
