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
