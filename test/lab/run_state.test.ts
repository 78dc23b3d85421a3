/**
 * An algorithm's own scalar state (AlgorithmRun.runState: Safe RLHF's λ, PPO's adaptive β, REINFORCE's moving
 * baseline) travels with forks, CPU checkpoints, safetensors and a reload, on a real WebGPU device (Dawn;
 * SwiftShader without a GPU), so a run sent back to a checkpoint continues it instead of restarting it.
 */
import { describe, expect, it } from "vitest";
import type { PpoRun } from "../../src/algorithms/ppo";
import { testExperiment } from "../../src/lab/defaults";
import type { RunCounters, RunSpec } from "../../src/lab/protocol";
import { parseRunState, RUN_STATE_KEY } from "../../src/lab/run_metadata";
import type { LabRun } from "../../src/lab/runs";
import { loadCheckpoint } from "../../src/model/checkpoint";
import { setup } from "../helpers/lab_runtime";

describe("run state (GPU)", () => {
  /**
   * Two steps of `spec`'s run (alone), then its run state `key` (which must have left `start`) must come back
   * equal in a fork, in the fork restored from its CPU checkpoint, in the safetensors metadata, and in the run
   * reset and reloaded from those safetensors. Returns the setup for further checks.
   */
  async function expectStateTravels(spec: RunSpec, key: string, start: number, stepped: RunCounters) {
    const t = await setup({ ...testExperiment(), runs: [spec] });
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    const src = t.s.runOf(spec.id) as LabRun;
    const value = (r: LabRun) => r.run.runState?.()[key] ?? Number.NaN;
    const want = value(src);
    expect(want).not.toBe(start);

    const forkSpec = { ...spec, id: `${spec.id}-2`, label: "fork" };
    await t.s.forkRun(spec.id, forkSpec);
    expect(value(t.s.runOf(forkSpec.id) as LabRun)).toBe(want);
    const restored = await t.runs.restore(forkSpec);
    expect(value(restored.run as LabRun)).toBe(want);
    restored.run.destroy();

    const bytes = await src.safetensors(spec, 0);
    const saved = JSON.parse(loadCheckpoint(bytes).info[RUN_STATE_KEY]);
    expect(saved).toEqual(src.run.runState?.());
    expect(saved[key]).toBe(want);
    await t.s.reset();
    expect(value(t.s.runOf(spec.id) as LabRun)).toBe(start);
    await t.s.resumeRun(spec.id, stepped, (r) => t.runs.loadSaved(spec.id, r, bytes, 2));
    expect(value(t.s.runOf(spec.id) as LabRun)).toBe(want);
    return { t, src, now: t.s.runOf(spec.id) as LabRun, want, bytes };
  }

  it("Safe RLHF's λ travels with forks, CPU checkpoints and safetensors; λ₀ is refused after a step", async () => {
    const safe: RunSpec = {
      id: "safe",
      algo: "safe_rlhf",
      label: "Safe RLHF",
      config: { batchPrompts: 2, numGenerations: 2, maxNewTokens: 4, lr: 3e-3, costLimit: 1, lambdaLr: 0.5 },
    };
    // Completions cost ≥ 1 token each (EOS counts) against d = 1, so λ grows from λ₀ = 0.
    const { t, now, want } = await expectStateTravels(safe, "lambda", 0, { step: 2, samples: 8, tokens: 32 });
    expect(want).toBeGreaterThan(0);
    expect(() => now.setConfig({ lambdaInit: 5 })).toThrow(/λ₀ only sets λ before the first step/);
    t.s.dispose();
    t.runs.destroy();
  });

  it("PPO's adaptive β travels with forks, CPU checkpoints and safetensors; a fixed β is no run state", async () => {
    const ppo: RunSpec = {
      id: "ppo",
      algo: "ppo",
      label: "PPO",
      config: {
        batchPrompts: 2,
        maxNewTokens: 4,
        beta: 0.05,
        adaptiveKl: true,
        klTarget: 0.001,
        klHorizon: 1,
      },
    };
    // The controller moves β by up to 20% × B / horizon each step, so after 2 steps it has left 0.05.
    const { t, now, want, bytes } = await expectStateTravels(ppo, "beta", 0.05, {
      step: 2,
      samples: 4,
      tokens: 16,
    });
    expect(now.config.beta, "the reloaded run trains with the adaptive β").toBe(want);

    // A β the user sets is the controller's new start, and it wins over a state saved before it was set.
    await t.s.setConfig("ppo", { beta: 0.2 });
    expect(now.run.runState?.()).toEqual({ beta: 0.2, beta0: 0.2 });
    await t.s.reset();
    await t.s.resumeRun("ppo", { step: 2, samples: 4, tokens: 16 }, (r) =>
      t.runs.loadSaved("ppo", r, bytes, 2),
    );
    const edited = t.s.runOf("ppo") as LabRun;
    expect(edited.config.beta, "the user's β, not the older saved adaptive β").toBe(0.2);
    // Turning the controller off returns β to the configured β on every path (here: the live run).
    await t.s.stepOnce();
    expect(edited.config.beta).not.toBe(0.2);
    await t.s.setConfig("ppo", { adaptiveKl: false });
    expect(edited.config.beta).toBe(0.2);
    expect(edited.run.runState?.()).toEqual({});

    // Without the controller β is a setting: no run state, and the export carries none.
    t.s.dispose();
    t.runs.destroy();
    const fixed = await setup({
      ...testExperiment(),
      runs: [{ ...ppo, config: { ...ppo.config, adaptiveKl: false } }],
    });
    await fixed.s.stepOnce();
    const run = fixed.s.runOf("ppo") as LabRun;
    expect(run.run.runState?.()).toEqual({});
    expect(loadCheckpoint(await run.safetensors(ppo, 0)).info[RUN_STATE_KEY]).toBeUndefined();
    fixed.s.dispose();
    fixed.runs.destroy();

    // A horizon that would let one step take β to 0 or below (× (1 − 0.2·B/H), B / H = 6) is refused when the
    // run is made (β = 0 stayed 0 and the next step failed: "beta must be a finite number > 0").
    const wide = { ...ppo, config: { ...ppo.config, batchPrompts: 6, numMiniBatches: 1 } };
    const refused = await setup({ ...testExperiment(), runs: [wide] });
    refused.s.flush();
    expect(refused.updates.find((u) => u.status === "error")?.error).toMatch(/can take β to 0 in one step/);
    refused.s.dispose();
    refused.runs.destroy();
    // Just above the bound the controller shrinks β hard but keeps it above 0: the steps and a fork work.
    const edge = { ...wide, config: { ...wide.config, klHorizon: 1.25 } };
    const low = await setup({ ...testExperiment(), runs: [edge] });
    await low.s.stepOnce();
    const shrunk = (low.s.runOf("ppo") as LabRun).config.beta as number;
    expect(shrunk).toBeGreaterThan(0);
    expect(shrunk).toBeLessThan(0.05);
    await low.s.stepOnce();
    await low.s.forkRun("ppo", { ...edge, id: "ppo-2", label: "fork" });
    expect((low.s.runOf("ppo-2") as LabRun).config.beta).toBeGreaterThan(0);
    low.s.flush();
    expect(low.updates.filter((u) => u.status === "error").map((u) => u.error)).toEqual([]);
    expect(low.updates.flatMap((u) => u.points).filter((p) => p.step === 2)).toHaveLength(1);
    low.s.dispose();
    low.runs.destroy();
  });

  it("REINFORCE's moving baseline travels with forks, CPU checkpoints and safetensors", async () => {
    const reinforce: RunSpec = {
      id: "reinforce",
      algo: "reinforce",
      label: "REINFORCE",
      config: { batchPrompts: 2, maxNewTokens: 4, lr: 3e-3 },
    };
    // Two batches seen: k = 2 (it starts at 0), and the raw EMA m with it.
    const { t, src, now, want } = await expectStateTravels(reinforce, "baselineSteps", 0, {
      step: 2,
      samples: 4,
      tokens: 16,
    });
    expect(want).toBe(2);
    expect(now.run.runState?.()).toEqual(src.run.runState?.());
    // The random-init nano model scores 0 on every arithmetic prompt, so m is 0 here; give it a running average
    // that is not, and it must come back through the safetensors and be the next step's baseline b = m/(1 − α²).
    now.run.setRunState?.({ baselineEma: 0.3, baselineSteps: 2 });
    const bytes = await now.safetensors(reinforce, 0);
    await t.s.reset();
    await t.s.resumeRun("reinforce", { step: 2, samples: 4, tokens: 16 }, (r) =>
      t.runs.loadSaved("reinforce", r, bytes, 2),
    );
    const again = t.s.runOf("reinforce") as LabRun;
    expect(again.run.runState?.()).toEqual({ baselineEma: 0.3, baselineSteps: 2 });
    t.updates.length = 0;
    await t.s.stepOnce();
    t.s.flush();
    const b = t.updates.flatMap((u) => u.points).find((p) => p.step === 3)?.metrics.baseline;
    expect(b).toBeCloseTo(0.3 / (1 - 0.9 ** 2), 12);
    expect(() => now.run.setRunState?.({ baselineEma: 0.1, baselineSteps: 1.5 })).toThrow(/batch count k/);
    t.s.dispose();
    t.runs.destroy();
  });

  it("PPO's separate value model travels with forks, CPU checkpoints (with its AdamW) and safetensors", async () => {
    const ppo: RunSpec = {
      id: "ppo",
      algo: "ppo",
      label: "PPO",
      config: { batchPrompts: 2, maxNewTokens: 4, valueModel: "separate", lr: 3e-3 },
    };
    const t = await setup({ ...testExperiment(), runs: [ppo] });
    const value = (r: LabRun) => {
      const w = (r.run as PpoRun).valueWeights;
      if (!w) throw new Error("no separate value model");
      return w.download();
    };
    const start = await value(t.s.runOf("ppo") as LabRun);
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    const src = t.s.runOf("ppo") as LabRun;
    const trained = await value(src);
    expect(trained).not.toEqual(start);

    await t.s.forkRun("ppo", { ...ppo, id: "ppo-2", label: "fork" });
    expect(await value(t.s.runOf("ppo-2") as LabRun)).toEqual(trained);
    const restored = await t.runs.restore({ ...ppo, id: "ppo-2", label: "fork" });
    expect(await value(restored.run as LabRun), "from the CPU checkpoint").toEqual(trained);
    const adam = async (r: LabRun) => (await r.run.exportExtra?.())?.value_model.optimizer;
    const moments = await adam(src);
    expect(moments?.t).toBe(2 * 4); // 2 steps × (1 epoch × 4 minibatches)
    expect(await adam(restored.run as LabRun)).toEqual(moments);
    restored.run.destroy();

    const bytes = await src.safetensors(ppo, 0);
    expect(loadCheckpoint(bytes).extra?.value_model).toEqual(trained);
    await t.s.reset();
    expect(await value(t.s.runOf("ppo") as LabRun), "Reset: the start model's").toEqual(start);
    await t.s.resumeRun("ppo", { step: 2, samples: 4, tokens: 16 }, (r) =>
      t.runs.loadSaved("ppo", r, bytes, 2),
    );
    expect(await value(t.s.runOf("ppo") as LabRun), "reloaded from the safetensors").toEqual(trained);
    expect((await adam(t.s.runOf("ppo") as LabRun))?.t, "its AdamW restarts, as the policy's").toBe(0);
    await t.s.stepOnce();
    t.s.dispose();
    t.runs.destroy();
  });

  it("a checkpoint's run state must be finite numbers by name", () => {
    expect(parseRunState('{"lambda":0.25}')).toEqual({ lambda: 0.25 });
    expect(() => parseRunState("{")).toThrow(/not JSON/);
    expect(() => parseRunState("[1]")).toThrow(/not an object/);
    expect(() => parseRunState('{"lambda":"x"}')).toThrow(/lambda is not a finite number/);
  });
});
