/**
 * The shipped reward models (public/models/<task>/rm.onnx and rm.safetensors, made by `npm run train-rm`):
 * each ONNX file passes the bring-your-own contract checks with its task's tokenizer, and onnxruntime-web's
 * scores equal our WGSL forward of the checkpoint's weights within 1e-4.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../scripts/models-manifest";
import { readCheckpointPath } from "../../src/model/checkpoint_files";
import { GptWeights } from "../../src/model/weights";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { RewardModelScorer } from "../../src/rewards/rm_trainer";
import { engineReward, onnxReward } from "../../src/rewards/sources";
import { readTokenizerFile } from "../../src/tokenizer/node";
import { expectClose, testGpu } from "../helpers/gpu";

/** The bound: onnxruntime-web and the WGSL forward agree on every score within 1e-4. */
const ORT_TOL = { atol: 1e-4, rtol: 0 };

/** Prompt and completion texts per task (completions with and without a final <eos>). */
const SAMPLES: Record<string, [string, string][]> = {
  sentiment: [
    ["Call me Ishmael. ", "Some years ago, never mind how long."],
    ["The whale ", "was good and happy"],
    ["And what is the sea ", "but a grave of death and woe."],
  ],
  arithmetic: [
    ["37+45=", "82"],
    ["37+45=", "83"],
    ["9+9=", "18"],
    ["99+99=", "1"],
  ],
};

describe("shipped reward models", () => {
  const shipped = readManifest().files.filter((f) => f.kind === "reward-model" && f.path.endsWith(".onnx"));

  it("arithmetic ships one", () => {
    expect(shipped.map((f) => f.task)).toContain("arithmetic");
  });

  for (const entry of shipped)
    it(`${entry.path}: valid under the contract, and onnxruntime-web = WGSL within 1e-4`, async () => {
      const ctx = await testGpu();
      const tok = readTokenizerFile(`public/models/${entry.task}/tokenizer.json`);
      const model = await loadOnnxRewardModel(
        new Uint8Array(readFileSync(`public/${entry.path}`)),
        tok.vocabSize,
        {
          padId: tok.padId,
        },
      );
      expect(model.warnings).toEqual([]);
      const ck = await readCheckpointPath(`public/${entry.path.replace(/\.onnx$/, ".safetensors")}`);
      expect(model.maxLength).toBe(ck.config.contextLength);
      const samples = SAMPLES[entry.task].flatMap(([p, c]) => [
        { prompt: tok.encode(p, { bos: true }), completion: tok.encode(c, { eos: true }) },
        { prompt: tok.encode(p, { bos: true }), completion: tok.encode(c) },
      ]);
      const w = new GptWeights(ctx, ck.config, ck.params);
      const scorer = new RewardModelScorer(ctx, w, tok.padId);
      const viaOrt = await onnxReward(model, tok).score(samples);
      const viaWgsl = await engineReward(scorer, tok.bosId).score(samples);
      expectClose(`${entry.task} rm.onnx vs WGSL`, viaOrt, viaWgsl, ORT_TOL);
      await model.release();
      scorer.destroy();
      w.destroy();
    });
});
