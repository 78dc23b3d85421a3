/**
 * Stopping a Pipeline stage (src/lab/pipeline/pipeline.ts stop, loops in src/lab/pipeline/stages.ts) on a real
 * WebGPU device: the stage ends after the step in progress, with that step's sample (SFT) or held-out evaluation
 * (RM), as done for the steps it reached (`steps` < `planned`); its model is exactly what that many steps train,
 * stage 2 starts from it, and the hand-off and snapshot use it. A stop asked for while nothing trains changes
 * nothing.
 */
import { describe, expect, it } from "vitest";
import { type PipelineProgress, pipelineSettings } from "../../src/lab/pipeline/fields";
import { testGpu } from "../helpers/gpu";
import { pipelineSetup } from "./pipeline_setup";

describe("pipeline: Stop keeps the model trained so far (GPU)", () => {
  it("ends SFT and RM between steps, as trained for the steps they reached", async () => {
    const ctx = await testGpu();
    const setup = await pipelineSetup();
    const { res } = setup;
    const pipeline = () => setup.pipeline(ctx);
    const pipe = pipeline();
    expect(pipe.stop()).toBeNull(); // nothing trains: nothing to stop, and the next stage is not affected
    const s = pipelineSettings({ sftSteps: 12, sftBatch: 8, rmSteps: 10, rmBatch: 4, evalPairs: 8 });

    // SFT: asked to stop as step 3 is reported (step 4 is then the one in progress; as in the worker, where the
    // request arrives while a step trains). Step 3 has no sample of its own (every 2nd step), step 4 gets one.
    const sft: PipelineProgress[] = [];
    let answered: string | null = null;
    const r1 = await pipe.sft(s, (p) => {
      sft.push(p);
      if (p.step === 3) answered = pipe.stop();
    });
    expect(answered).toBe("sft");
    expect(sft.map((p) => p.step)).toEqual([1, 2, 3, 4]);
    expect(sft.every((p) => p.steps === 12)).toBe(true);
    expect(sft[2].sample).toBeUndefined();
    expect(typeof sft[3].sample?.completion).toBe("string");
    expect(r1).toMatchObject({ stage: "sft", steps: 4, planned: 12, lastLoss: sft[3].loss });
    expect(r1.model).toBe("nano (2 layers, C = 32, context 32)");
    expect(pipe.trained).toEqual({ sft: 4, rm: 0 });
    expect(pipe.stop()).toBeNull(); // the stage has ended

    // Its model is what 4 steps asked for train (the same batches; samples do not touch the weights).
    const four = pipeline();
    const r4 = await four.sft({ ...s, sftSteps: 4 }, () => {});
    expect(r4).toMatchObject({ steps: 4, planned: 4, lastLoss: r1.lastLoss });
    const [a, b] = await Promise.all([pipe.snapshot(), four.snapshot()]);
    expect(a?.sft?.steps).toBe(4);
    expect(Array.from(a?.sft?.params ?? [])).toEqual(Array.from(b?.sft?.params ?? []));
    four.destroy();

    // RM from the stopped SFT model, stopped while step 1 is reported: step 2 is the last, with its evaluation.
    const rm: PipelineProgress[] = [];
    const r2 = await pipe.rmStage(s, (p) => {
      rm.push(p);
      if (p.step === 1) pipe.stop();
    });
    expect(rm.map((p) => p.step)).toEqual([1, 2]);
    expect(r2).toMatchObject({ stage: "rm", steps: 2, planned: 10 });
    expect(r2.evalBefore?.step).toBe(0);
    expect(r2.evalAfter?.step).toBe(2);
    expect(rm[1].eval).toEqual(r2.evalAfter);
    expect(pipe.trained).toEqual({ sft: 4, rm: 2 });

    // Both stopped models go to the runs (Use in RL) and are saved as such.
    const { start } = await pipe.handOff(res.start.tokenizerRef);
    expect(start.source).toMatch(/^pipeline: nano .* after 4 SFT steps/);
    const snap = await pipe.snapshot();
    expect([snap?.sft?.steps, snap?.rm?.steps]).toEqual([4, 2]);

    // A stage after a stop trains in full: the request does not carry over.
    const full = await pipe.rmStage({ ...s, rmSteps: 3 }, () => {});
    expect(full).toMatchObject({ steps: 3, planned: 3 });
    pipe.destroy();
  });
});
