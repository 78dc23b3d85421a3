import { describe, expect, it } from "vitest";
import { DpoRun } from "../../src/algorithms/dpo";
import { GrpoRun } from "../../src/algorithms/grpo";
import { PpoRun } from "../../src/algorithms/ppo";
import type { StepProgress } from "../../src/algorithms/run";
import { nanoEnv } from "../helpers/nano_env";

/** The stages a step went through, in order, with what each said. */
const trace = (events: StepProgress[]) =>
  events.map((e) => (e.stage === "scoring" ? "scoring" : `${e.stage} ${e.done}/${e.total}`));

describe("a step says where it is (env.progress)", () => {
  it("GRPO: sampling (tokens the device finished), then scoring, then μ updates", async () => {
    const env = await nanoEnv(3, false);
    const events: StepProgress[] = [];
    env.progress = (p) => events.push({ ...p });
    const run = new GrpoRun(env, {
      beta: 0,
      batchPrompts: 2,
      numGenerations: 4,
      maxNewTokens: 24,
      numIterations: 3,
    });
    await run.step();
    const t = trace(events);
    console.log(`GRPO step: ${t.join(" → ")}`);
    expect(t[0]).toBe("sampling 0/24");
    const sampling = events.filter((e) => e.stage === "sampling");
    expect(sampling.length, "counts from the device, not only the start").toBeGreaterThan(1);
    // Counts rise in steps of 8 (the "all done" checks), never reach the cap (no check at the last token).
    for (const [i, e] of sampling.entries()) {
      expect(e.total).toBe(24);
      expect(e.done).toBe(8 * i);
    }
    expect(sampling.at(-1)?.done, "no count at the last token (the step is done sampling)").toBeLessThan(24);
    const scoring = t.indexOf("scoring");
    expect(scoring).toBe(sampling.length);
    expect(t.slice(scoring + 1)).toEqual(["update 0/3", "update 1/3", "update 2/3"]);
    // Nothing is reported between steps; the next step starts from sampling 0 again.
    events.length = 0;
    await run.step();
    expect(trace(events)[0]).toBe("sampling 0/24");
    expect(trace(events).at(-1)).toBe("update 2/3");
    run.destroy();
  });

  it("PPO: one update per minibatch of each epoch", async () => {
    const env = await nanoEnv(4);
    const events: StepProgress[] = [];
    env.progress = (p) => events.push({ ...p });
    const run = new PpoRun(env, {
      lr: 1e-3,
      batchPrompts: 4,
      maxNewTokens: 6,
      ppoEpochs: 2,
      numMiniBatches: 2,
    });
    await run.step();
    expect(trace(events).filter((s) => s.startsWith("update"))).toEqual([
      "update 0/4",
      "update 1/4",
      "update 2/4",
      "update 3/4",
    ]);
    expect(trace(events).slice(0, 2)).toEqual(["sampling 0/6", "scoring"]);
    run.destroy();
  });

  it("DPO: its sampled batch, then one update", async () => {
    const env = await nanoEnv(5);
    const events: StepProgress[] = [];
    env.progress = (p) => events.push({ ...p });
    const run = new DpoRun(env, null, { mode: "online", lr: 1e-3, batchPairs: 4, maxNewTokens: 4 });
    await run.step();
    expect(trace(events)).toEqual(["sampling 0/4", "scoring", "update 0/1"]);
    run.destroy();
  });
});
