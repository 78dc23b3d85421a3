/**
 * The shipped reward models (public/models/<task>/rm.onnx and rm.safetensors, made by `npm run train-rm`):
 * each ONNX file passes the bring-your-own contract checks with its task's tokenizer, and onnxruntime-web's
 * scores equal our WGSL forward of the checkpoint's weights within 1e-4. Each proxy must also have learned its
 * task: on the held-out pairs of the file it trained on (scripts/train-rm/record.ts RM_DATA) it orders completions
 * as the gold scorer does clearly more often than a coin, and as often as its manifest entry says.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../scripts/models-manifest";
import { RM_DATA } from "../../scripts/train-rm/record";
import { readCheckpointPath } from "../../src/model/checkpoint_files";
import { GptWeights } from "../../src/model/weights";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { encodePreferencePairs, pairAccuracy } from "../../src/rewards/rm_eval";
import { RewardModelScorer } from "../../src/rewards/rm_trainer";
import { engineReward, onnxReward } from "../../src/rewards/sources";
import { loadTask } from "../../src/tasks/index";
import { parsePreferencesJsonl } from "../../src/tasks/preferences";
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

describe("the shipped proxies have learned their tasks", () => {
  for (const task of ["sentiment", "arithmetic"] as const)
    it(`${task}: held-out gold accuracy beats a coin (one-sided binomial, p < 0.01) and equals the manifest's`, async () => {
      const entry = readManifest().files.find((f) => f.path === `models/${task}/rm.onnx`);
      expect(entry, `models/${task}/rm.onnx in the manifest`).toBeDefined();
      expect((entry as unknown as { data: string }).data).toBe(`models/${task}/${RM_DATA[task]}`);
      const tok = readTokenizerFile(`public/models/${task}/tokenizer.json`);
      const records = parsePreferencesJsonl(readFileSync(`public/models/${task}/${RM_DATA[task]}`, "utf8"));
      const facts = entry as unknown as { eos?: string; eval_after: { goldAccuracy: number } };
      const maxNewTokens = (await loadTask(task)).generation.maxNewTokens;
      const model = await loadOnnxRewardModel(
        new Uint8Array(readFileSync(`public/models/${task}/rm.onnx`)),
        tok.vocabSize,
        { padId: tok.padId },
      );
      const reward = onnxReward(model, tok);
      // Each sequence is <bos> prompt completion [<eos>]: the scorer takes the <bos> as the prompt. `asScored`
      // puts EOS only on the completions that ended, as the lab's RL samples are scored; `asTrained` as the
      // manifest says the model was trained (`eos`: "always" for the arithmetic RM).
      const accuracy = (sampledLength: number | null) =>
        pairAccuracy(encodePreferencePairs(records, tok, sampledLength, "eval"), async (seqs) =>
          reward.score(seqs.map((s) => ({ prompt: [tok.bosId], completion: s.slice(1) }))),
        );
      const asScored = await accuracy(maxNewTokens);
      // An entry without `eos` predates the option: trained with EOS on every completion.
      const asTrained = (facts.eos ?? "always") === "always" ? await accuracy(null) : asScored;
      await model.release();
      const n = asScored.goldPairs;
      const coin = 0.5 + 2.326 * Math.sqrt(0.25 / n); // 99th percentile of a coin's accuracy on n pairs
      console.log(
        `${task} rm.onnx: held-out gold accuracy ${asScored.goldAccuracy.toFixed(3)} on ${n} pairs as the lab ` +
          `scores them, ${asTrained.goldAccuracy.toFixed(3)} as trained (eos ${facts.eos ?? "always"}); a coin stays below ` +
          `${coin.toFixed(3)} with p 0.99; label accuracy ${asScored.labelAccuracy.toFixed(3)}`,
      );
      expect(n).toBeGreaterThanOrEqual(200); // enough pairs for the bound to mean something
      expect(asScored.goldAccuracy).toBeGreaterThan(coin);
      expect(Math.abs(asTrained.goldAccuracy - facts.eval_after.goldAccuracy)).toBeLessThanOrEqual(
        1 / n + 1e-9,
      ); // one pair at most
    });
});
