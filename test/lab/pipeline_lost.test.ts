/**
 * The Pipeline after a lost GPU device (src/lab/pipeline/pipeline.ts rebind): the trained stages come back on the
 * new device from their CPU copies (a reviewer saw them dropped while the page still said "done", and the saved
 * copy deleted at the next save); the handed-off reward model scores as before.
 */
import { describe, expect, it } from "vitest";
import { acquireGpu } from "../../src/gpu/device";
import { pipelineSettings } from "../../src/lab/pipeline/fields";
import { pipelineSetup } from "./pipeline_setup";

describe("pipeline: a lost device (GPU)", () => {
  it("keeps the trained stages and the hand-off: rebind uploads them to the new device", async () => {
    const lost = await acquireGpu();
    const { res, pipeline } = await pipelineSetup();
    const pipe = pipeline(lost);
    const s = pipelineSettings({ sftSteps: 2, sftBatch: 4, rmSteps: 1, rmBatch: 2, evalPairs: 4 });
    await pipe.sft(s, () => {});
    await pipe.rmStage(s, () => {});
    const { reward } = await pipe.handOff(res.start.tokenizerRef);
    const probe = [{ prompt: [res.tokenizer.bosId, 5, 4, 6, 15], completion: [7, 8, res.tokenizer.eosId] }];
    const before = await pipe.snapshot();
    const scored = (await reward.score(probe))[0];
    if (!before?.sft || !before.rm) throw new Error("no snapshot");

    lost.destroy();
    await lost.lost;
    const ctx = await acquireGpu();
    pipe.rebind(ctx);
    expect(pipe.trained).toEqual({ sft: 2, rm: 1 });
    const after = await pipe.snapshot();
    expect(Array.from(after?.sft?.params ?? [])).toEqual(Array.from(before.sft.params));
    expect(Array.from(after?.rm?.params ?? [])).toEqual(Array.from(before.rm.params));
    expect((await reward.score(probe))[0]).toBe(scored);
    // Both stages work on the new device: stage 2 trains again from stage 1, and the RM exports.
    await pipe.rmStage(s, () => {});
    expect((await pipe.rmOnnx()).length).toBeGreaterThan(1000);
    pipe.destroy();
    ctx.destroy();
    await ctx.lost;
  });
});
