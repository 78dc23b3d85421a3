/**
 * A run's own training seed (RunSpec.seed) on a real WebGPU device (SwiftShader without a GPU): a run given seed 1
 * in a seed-0 experiment trains exactly as that run does alone in a seed-1 experiment with the same start model
 * (its prompt order and sampler draws are its seed's; the start weights are the experiment's), and not as the
 * run on the experiment's seed.
 */
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import type { RunSpec } from "../../src/lab/protocol";
import { loadResources } from "../../src/lab/resources";
import { LabRuns } from "../../src/lab/runs";
import { testGpu } from "../helpers/gpu";
import { BASE, publicFetch } from "../helpers/lab_runtime";

describe("a run's own seed (GPU)", () => {
  it("a seed-1 run in a seed-0 experiment gives the numbers of the run in a seed-1 experiment", async () => {
    const grpo = testExperiment().runs[2];
    // An entropy bonus gives a gradient even when every reward ties (the random nano model gets no sum right).
    const base: RunSpec = { ...grpo, config: { ...grpo.config, entCoef: 0.1 } };
    const spec = { ...testExperiment(), seed: 0, runs: [base] };
    const ctx = await testGpu();
    // One start model for all (nano initialised from the experiment's seed 0): a run's own seed leaves it.
    const res = await loadResources(spec, BASE, publicFetch);
    const steps = async (runs: LabRuns, run: RunSpec) => {
      const r = await runs.create(run);
      const out: { prompt: string; metrics: Record<string, number> }[] = [];
      for (let i = 0; i < 2; i++) {
        const s = await r.step();
        // Every metric but the clock's (step_time, tokens/s).
        const { step_time: _t, "tokens/s": _r, ...metrics } = s.metrics;
        out.push({ prompt: s.samples?.()[0]?.prompt ?? "", metrics });
      }
      r.destroy();
      return out;
    };
    const seed0 = new LabRuns(ctx, res, 0);
    const own = await steps(seed0, { ...base, seed: 1 });
    const plain = await steps(seed0, base);
    seed0.destroy();
    const seed1 = new LabRuns(ctx, res, 1);
    const alone = await steps(seed1, base);
    seed1.destroy();
    expect(own).toEqual(alone);
    // …and not the experiment's seed's numbers (the prompts differ from the first step).
    expect(own.map((s) => s.prompt)).not.toEqual(plain.map((s) => s.prompt));
  });
});
