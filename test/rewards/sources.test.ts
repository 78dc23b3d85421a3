import { describe, expect, it } from "vitest";
import type { RewardSample } from "../../src/algorithms/reward";
import { GptWeights } from "../../src/model/weights";
import { exportRewardModelOnnx } from "../../src/rewards/onnx_export";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { RewardModelScorer } from "../../src/rewards/rm_trainer";
import {
  engineReward,
  goldReward,
  onnxReward,
  rmSequence,
  rmSequenceFromText,
} from "../../src/rewards/sources";
import { loadTask } from "../../src/tasks/index";
import { readTokenizerFile } from "../../src/tokenizer/node";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";
import { nanoRm } from "./nano_rm";

/** As test/rewards/onnx_export.test.ts: onnxruntime-web vs the WGSL forward. */
const ORT_TOL = { atol: 1e-4, rtol: 0 };

describe("reward sources", () => {
  it("goldReward: the task's gold scorer on decoded prompt and completion (cut at EOS)", async () => {
    const task = await loadTask("arithmetic");
    const tok = readTokenizerFile(`public/${task.tokenizerPath}`);
    const prompt = tok.encode("37+45=", { bos: true });
    const samples: RewardSample[] = [
      { prompt, completion: tok.encode("82", { eos: true }) },
      { prompt, completion: tok.encode("81", { eos: true }) },
      { prompt, completion: [...tok.encode("82"), tok.eosId, ...tok.encode("99")] },
      { prompt, completion: tok.encode("82") }, // unfinished: still the text "82"
      { prompt, completion: [] },
    ];
    const gold = goldReward(task, tok);
    expect(gold.name).toBe("arithmetic-gold");
    expect(Array.from(await gold.score(samples))).toEqual([1, 0, 1, 1, 0]);
  });

  it("rmSequence adds <bos> only when the prompt lacks it; rmSequenceFromText ends with <eos> when it ended", () => {
    expect(rmSequence({ prompt: [1, 5], completion: [6, 2] }, 1)).toEqual([1, 5, 6, 2]);
    expect(rmSequence({ prompt: [5], completion: [6] }, 1)).toEqual([1, 5, 6]);
    const tok = readTokenizerFile("public/models/arithmetic/tokenizer.json");
    expect(rmSequenceFromText(tok, "1+2=", "3", 6)).toEqual([tok.bosId, ...tok.encode("1+2=3"), tok.eosId]);
    // Six tokens filled the sampler's limit of 6: cut, no EOS — as the lab scores such a sample.
    expect(rmSequenceFromText(tok, "1+2=", "333333", 6)).toEqual([tok.bosId, ...tok.encode("1+2=333333")]);
    expect(rmSequenceFromText(tok, "1+2=", "33333", 6)).toEqual([
      tok.bosId,
      ...tok.encode("1+2=33333"),
      tok.eosId,
    ]);
    // null: EOS always (how the shipped arithmetic RM was trained).
    expect(rmSequenceFromText(tok, "1+2=", "333333", null)).toEqual([
      tok.bosId,
      ...tok.encode("1+2=333333"),
      tok.eosId,
    ]);
  });

  it("onnxReward (onnxruntime-web) = engineReward (WGSL) on the same weights, long samples cut alike", async () => {
    const ctx = await testGpu();
    const tok = readTokenizerFile("public/models/arithmetic/tokenizer.json");
    const { config, params } = nanoRm(21, tok.vocabSize);
    const rng = new Rng(8);
    const ids = (n: number) => Array.from({ length: n }, () => rng.int(4, tok.vocabSize - 1));
    const samples: RewardSample[] = [
      { prompt: [tok.bosId, ...ids(5)], completion: [...ids(3), tok.eosId] },
      { prompt: ids(6), completion: ids(2) }, // no <bos>, unfinished
      { prompt: [tok.bosId, ...ids(3)], completion: [tok.eosId] },
      { prompt: [tok.bosId, ...ids(30)], completion: [...ids(10), tok.eosId] }, // 42 tokens > context 32
    ];
    const w = new GptWeights(ctx, config, params);
    const scorer = new RewardModelScorer(ctx, w, tok.padId);
    const model = await loadOnnxRewardModel(exportRewardModelOnnx(config, params), tok.vocabSize, {
      padId: tok.padId,
    });
    const viaOrt = await onnxReward(model, tok, { maxRows: 3 }).score(samples);
    const viaWgsl = await engineReward(scorer, tok.bosId).score(samples);
    expectClose("onnxReward vs engineReward", viaOrt, viaWgsl, ORT_TOL);
    expect(new Set(Array.from(viaOrt, (v) => v.toFixed(3))).size).toBe(samples.length);
    await model.release();
    scorer.destroy();
    w.destroy();
  });
});
