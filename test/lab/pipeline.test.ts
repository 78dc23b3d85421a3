/**
 * The Pipeline's three stages on a real WebGPU device (src/lab/pipeline/pipeline.ts): a fresh nano model's SFT
 * loss falls on the arithmetic sums and it samples text; the reward model from it trains on the shipped
 * preference pairs with finite loss, its held-out accuracies those of the model it starts from and of the one it
 * hands over; the hand-off gives the runs a new start model and the reward source "pipeline", on which RL steps
 * have finite metrics and reward ≠ reward_gold.
 */
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import { type PipelineProgress, pipelineSettings } from "../../src/lab/pipeline/fields";
import { pipelineConfig } from "../../src/lab/pipeline/model_config";
import { pipelinePairs } from "../../src/lab/pipeline/pairs";
import type { RunUpdate } from "../../src/lab/protocol";
import { RewardSources } from "../../src/lab/reward_sources";
import { LabRuns } from "../../src/lab/runs";
import { Scheduler } from "../../src/lab/scheduler";
import { GptWeights } from "../../src/model/weights";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { pairAccuracy } from "../../src/rewards/rm_eval";
import { RewardModelScorer } from "../../src/rewards/rm_trainer";
import { onnxReward } from "../../src/rewards/sources";
import { testGpu } from "../helpers/gpu";
import { pipelineSetup } from "./pipeline_setup";

describe("pipeline: SFT → RM → RL (GPU)", () => {
  it("settings are checked by the field table", () => {
    expect(pipelineSettings().sftSteps).toBe(40);
    expect(() => pipelineSettings({ sftSteps: 0 })).toThrow(
      /pipeline\.sftSteps must be an integer in \[1, 5000\]/,
    );
    expect(() => pipelineSettings({ size: "huge" as "nano" })).toThrow(
      /pipeline\.size must be one of nano \| tiny/,
    );
  });

  it("trains the three stages at nano scale and hands both models to the runs", async () => {
    const ctx = await testGpu();
    const spec = testExperiment();
    const { res, prefs, pipeline } = await pipelineSetup();
    const pipe = pipeline(ctx);
    // 17 held-out pairs: an odd count, so no accuracy over them is exactly one half.
    const s = pipelineSettings({ sftSteps: 12, sftBatch: 16, rmSteps: 3, rmBatch: 4, evalPairs: 17 });
    await expect(pipe.rmStage(s, () => {})).rejects.toThrow(/train stage 1 \(SFT\) first/);
    const sft: PipelineProgress[] = [];
    const r1 = await pipe.sft(s, (p) => sft.push(p));
    expect(sft.map((p) => p.step)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(r1.firstLoss).toBeCloseTo(sft[0].loss, 12);
    expect(r1.lastLoss).toBeLessThan(r1.firstLoss - 0.2);
    expect(r1.model).toBe("nano (2 layers, C = 32, context 32)");
    const samples = sft.flatMap((p) => (p.sample ? [p.sample] : []));
    expect(samples.length).toBeGreaterThanOrEqual(2);
    expect(samples[0].prompt).toBe(res.task.prompts.eval[0]);
    expect(typeof samples.at(-1)?.completion).toBe("string");

    // Three steps of four pairs do not beat chance reliably (its loss stays near ln 2), so the held-out
    // accuracies are recomputed on the first 17 eval pairs: before, with the stage-1 weights the reward model
    // starts from (its reward head included); after, with the model it hands over. A constant would not do.
    const held = pipelinePairs(
      res.task.id,
      prefs,
      res.tokenizer,
      res.task.generation.maxNewTokens,
    ).eval.slice(0, 17);
    const stage1 = (await pipe.snapshot())?.sft;
    if (!stage1) throw new Error("no stage-1 model");
    const w1 = new GptWeights(ctx, pipelineConfig("nano", res.task, res.tokenizer), stage1.params);
    const scorer1 = new RewardModelScorer(ctx, w1, res.tokenizer.padId);
    const accBefore = await pairAccuracy(held, (seqs) => scorer1.score(seqs));
    scorer1.destroy();
    w1.destroy();
    const rm: PipelineProgress[] = [];
    const r2 = await pipe.rmStage(s, (p) => rm.push(p));
    expect(rm).toHaveLength(3);
    for (const p of rm) {
      expect(Number.isFinite(p.loss) && p.loss > 0).toBe(true);
      expect(p.accuracy).toBeGreaterThanOrEqual(0);
      expect(p.accuracy).toBeLessThanOrEqual(1);
    }
    for (const e of [r2.evalBefore, r2.evalAfter]) {
      expect(e?.pairs).toBe(17);
      expect(e?.labelAccuracy).toBeGreaterThanOrEqual(0);
      expect(e?.labelAccuracy).toBeLessThanOrEqual(1);
    }
    expect(r2.evalAfter?.step).toBe(3);
    expect(r2.evalBefore?.labelAccuracy).toBe(accBefore.labelAccuracy);
    expect(r2.evalBefore?.goldAccuracy).toBe(accBefore.goldAccuracy);

    // Its ONNX export meets the reward-model contract and scores as the engine does.
    const onnx = await loadOnnxRewardModel(await pipe.rmOnnx(), res.tokenizer.vocabSize, {
      padId: res.tokenizer.padId,
    });
    expect(onnx.maxLength).toBe(32);
    const probe = [{ prompt: [res.tokenizer.bosId, 5, 4, 6, 15], completion: [7, 8, res.tokenizer.eosId] }];
    const viaOnnx = await onnxReward(onnx, res.tokenizer).score(probe);
    await onnx.release();

    // Stage 3: the runs restart from the pipeline's model and optimise its reward model.
    const { start, reward } = await pipe.handOff(res.start.tokenizerRef);
    expect((await reward.score(probe))[0]).toBeCloseTo(viaOnnx[0], 4);
    const accAfter = await pairAccuracy(held, async (seqs) =>
      reward.score(seqs.map((q) => ({ prompt: q, completion: [] }))),
    );
    expect(r2.evalAfter?.labelAccuracy).toBe(accAfter.labelAccuracy);
    expect(r2.evalAfter?.goldAccuracy).toBe(accAfter.goldAccuracy);
    expect(start.config).toEqual(pipelineConfig("nano", res.task, res.tokenizer));
    const rewards = new RewardSources(res.task, res.tokenizer);
    const runs = new LabRuns(ctx, res, spec.seed, rewards);
    const updates: RunUpdate[] = [];
    const sched = new Scheduler({ factory: runs, onUpdate: (u) => updates.push(...u), flushMs: 0 });
    const grpo = { ...spec.runs[2], config: { ...spec.runs[2].config, reward: "pipeline" } };
    await sched.addRun(grpo, true);
    expect(sched.runOf(grpo.id)).toBeNull(); // no pipeline reward model handed over yet
    await sched.reset(() => {
      runs.setStart(start);
      rewards.setPipeline(reward);
    });
    expect(sched.runOf(grpo.id)?.config.reward).toBe("pipeline");
    expect(res.start.source).toMatch(/^pipeline: nano .* after 12 SFT steps/);
    await sched.stepOnce();
    sched.flush();
    const pts = updates.filter((u) => u.runId === grpo.id).flatMap((u) => u.points);
    expect(pts).toHaveLength(1);
    const m = pts[0].metrics;
    for (const k of ["reward", "reward_gold", "objective/kl", "entropy"])
      expect(Number.isFinite(m[k]), k).toBe(true);
    expect(m.reward).not.toBe(m.reward_gold);
    // Training stage 2 again does not touch the handed-off model.
    const before = await reward.score([{ prompt: [res.tokenizer.bosId, 5, 4], completion: [6, 2] }]);
    await pipe.rmStage(pipelineSettings({ ...s, rmLr: 0.05 }), () => {});
    const after = await reward.score([{ prompt: [res.tokenizer.bosId, 5, 4], completion: [6, 2] }]);
    expect(after[0]).toBe(before[0]);

    // A reload: the snapshot brings the stages and the hand-off back in a new pipeline, scoring as before.
    const snap = await pipe.snapshot();
    expect(snap?.sft?.steps).toBe(12);
    expect(snap?.rm?.steps).toBe(3);
    expect(Array.from(snap?.handed?.policy ?? [])).toEqual(Array.from(start.params));
    const again = pipeline(ctx);
    if (!snap) throw new Error("no snapshot");
    expect(() => again.restore({ ...snap, task: "sentiment" }, "x")).toThrow(/for task "sentiment"/);
    const short = { ...snap, rm: { steps: 3, params: new Float32Array(5) } };
    expect(() => again.restore(short, "x")).toThrow(/has 5 parameters/);
    const back = again.restore(snap, res.start.tokenizerRef);
    expect(back?.start.source).toBe(start.source);
    expect((await back?.reward.score(probe))?.[0]).toBe((await reward.score(probe))[0]);
    expect(again.trained).toEqual({ sft: 12, rm: 3 });
    // Its stage-2 model is the retrained one (rmLr 0.05), not the handed-off copy.
    const rmAgain = await loadOnnxRewardModel(await again.rmOnnx(), res.tokenizer.vocabSize, {
      padId: res.tokenizer.padId,
    });
    const retrained = await loadOnnxRewardModel(await pipe.rmOnnx(), res.tokenizer.vocabSize, {
      padId: res.tokenizer.padId,
    });
    const [x, y] = await Promise.all(
      [rmAgain, retrained].map((m) => onnxReward(m, res.tokenizer).score(probe)),
    );
    expect(x[0]).toBeCloseTo(y[0], 6);
    await Promise.all([rmAgain.release(), retrained.release()]);
    again.destroy();

    // Stage 1 trained again at another size after the hand-off: the snapshot keeps the hand-off's own shape, so
    // a reload brings back both (it once checked the nano hand-off against the tiny stages and restored nothing).
    await pipe.sft(pipelineSettings({ ...s, size: "tiny", sftSteps: 1, sftBatch: 2 }), () => {});
    const mixed = await pipe.snapshot();
    if (!mixed) throw new Error("no snapshot");
    expect(mixed.size).toBe("tiny");
    expect(mixed.config.nEmbd).toBe(128);
    expect(mixed.handed?.size).toBe("nano");
    expect(mixed.handed?.config?.nEmbd).toBe(32);
    const third = pipeline(ctx);
    const backMixed = third.restore(mixed, res.start.tokenizerRef);
    expect(backMixed?.start.config.nEmbd).toBe(32);
    expect((await backMixed?.reward.score(probe))?.[0]).toBe((await reward.score(probe))[0]);
    expect(third.trained).toEqual({ sft: 1, rm: 0 });
    // A save of an older page has no hand-off shape: the stages' is used, as before.
    const {
      config: _c,
      size: _s,
      ...oldHanded
    } = snap.handed ?? { source: "", policy: new Float32Array(), rm: new Float32Array() };
    expect(third.restore({ ...snap, handed: oldHanded }, res.start.tokenizerRef)?.start.config.nEmbd).toBe(
      32,
    );
    third.destroy();
    sched.dispose();
    runs.destroy();
    pipe.destroy();
  });
});
