/**
 * A run's own training seed (RunSpec.seed) on a real WebGPU device (SwiftShader without a GPU): a run given seed 1
 * in a seed-0 experiment trains exactly as that run does alone in a seed-1 experiment with the same start model
 * (its prompt order and sampler draws are its seed's; the start weights are the experiment's), and not as the
 * run on the experiment's seed. Offline DPO's pair order is the run's seed's too (each lab's resources built
 * separately, as two labs' workers would: before, the order was the experiment's, shared by all runs).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import type { ExperimentSpec, RunSpec } from "../../src/lab/protocol";
import { loadResources } from "../../src/lab/resources";
import { LabRuns } from "../../src/lab/runs";
import { testGpu } from "../helpers/gpu";
import { BASE, publicFetch, serve } from "../helpers/lab_runtime";

/** Two steps of `run` made by `runs`: each step's metrics but the clock's (step_time, tokens/s), and its first prompt. */
async function steps(runs: LabRuns, run: RunSpec) {
  const r = await runs.create(run);
  const out: { prompt: string; metrics: Record<string, number> }[] = [];
  for (let i = 0; i < 2; i++) {
    const s = await r.step();
    const { step_time: _t, "tokens/s": _r, ...metrics } = s.metrics;
    out.push({ prompt: s.samples?.()[0]?.prompt ?? "", metrics });
  }
  r.destroy();
  return out;
}

describe("a run's own seed (GPU)", () => {
  it("a seed-1 run in a seed-0 experiment gives the numbers of the run in a seed-1 experiment", async () => {
    const grpo = testExperiment().runs[2];
    // An entropy bonus gives a gradient even when every reward ties (the random nano model gets no sum right).
    const base: RunSpec = { ...grpo, config: { ...grpo.config, entCoef: 0.1 } };
    const spec = { ...testExperiment(), seed: 0, runs: [base] };
    const ctx = await testGpu();
    // One start model for all (nano initialised from the experiment's seed 0): a run's own seed leaves it.
    const res = await loadResources(spec, BASE, publicFetch);
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

  it("offline DPO on seed 1 in a seed-0 lab sees the pairs, in the order, of DPO in a seed-1 lab", async () => {
    const dpo: RunSpec = {
      ...testExperiment().runs[1],
      config: { ...testExperiment().runs[1].config, mode: "offline" },
    };
    const ctx = await testGpu();
    const lab = async (seed: number) => {
      const spec: ExperimentSpec = { ...testExperiment(), seed, runs: [dpo] };
      // The shipped arithmetic pairs (1,000), served as the page's server would.
      const path = "/models/arithmetic/preferences.jsonl";
      return loadResources(spec, BASE, serve({ [path]: readFileSync(`public${path}`, "utf8") }));
    };
    const res0 = await lab(0);
    // The seed-1 lab's own resources (its pairs shuffled by its worker), on the same start model as the seed-0 lab.
    const res1 = { ...(await lab(1)), start: res0.start };
    const seed0 = new LabRuns(ctx, res0, 0);
    const own = await steps(seed0, { ...dpo, seed: 1 });
    const plain = await steps(seed0, dpo);
    seed0.destroy();
    const seed1 = new LabRuns(ctx, res1, 1);
    const alone = await steps(seed1, dpo);
    seed1.destroy();
    expect(own).toEqual(alone);
    expect(own).not.toEqual(plain);
  });
});
