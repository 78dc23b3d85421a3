/**
 * A run the page saved for a reload (LabRun.safetensors with `resume`: weights and AdamW states) goes on after
 * LabRuns.loadSaved exactly as it would have without the reload; an exported file (weights only) restarts AdamW,
 * so the next step differs. PPO with a separate value model covers an extra model's AdamW too. WebGPU in Node.
 */
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import type { LabRun } from "../../src/lab/runs";
import { loadCheckpoint } from "../../src/model/checkpoint";
import { setup } from "../helpers/lab_runtime";

describe("resuming a saved run", () => {
  it("a reload's checkpoint holds the AdamW states and goes on bit for bit; an export's restarts them", async () => {
    const base = testExperiment().runs[0];
    const spec = { ...base, config: { ...base.config, valueModel: "separate" } };
    const t = await setup({ ...testExperiment(), runs: [spec] });
    const run = () => t.s.runOf("ppo-1") as LabRun;
    await t.s.stepOnce();
    await t.s.stepOnce();
    const saved = await run().safetensors(spec, 0, true);
    const exported = await run().safetensors(spec, 0);
    const ck = loadCheckpoint(saved);
    expect(Object.keys(ck.optimizers ?? {}).sort()).toEqual(["", "value_model"]);
    expect(ck.optimizers?.[""].t).toBe(2);
    expect(loadCheckpoint(exported).optimizers).toBeUndefined();
    expect(saved.length).toBeGreaterThan(2.5 * exported.length);

    await t.s.stepOnce();
    const straight = await run().checkpoint();

    const resumeWith = async (bytes: Uint8Array) => {
      await t.s.reset();
      await t.s.resumeRun("ppo-1", { step: 2, samples: 4, tokens: 16 }, (r) =>
        t.runs.loadSaved("ppo-1", r, bytes, 2),
      );
      await t.s.stepOnce();
      return run().checkpoint();
    };
    const reloaded = await resumeWith(saved);
    expect(reloaded.step).toBe(3);
    expect(reloaded.params).toEqual(straight.params);
    expect(reloaded.optimizer).toEqual(straight.optimizer);
    expect(reloaded.extra?.value_model.params).toEqual(straight.extra?.value_model.params);

    const imported = await resumeWith(exported);
    expect(imported.optimizer?.t).toBe(1); // AdamW started again at the resume
    expect(imported.params).not.toEqual(straight.params);
    t.s.dispose();
    t.runs.destroy();
  });
});
