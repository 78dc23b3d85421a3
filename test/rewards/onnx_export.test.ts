import { describe, expect, it } from "vitest";
import { GptWeights } from "../../src/model/weights";
import { onnx } from "../../src/onnx/graph";
import { exportRewardModelOnnx } from "../../src/rewards/onnx_export";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { RewardModelScorer } from "../../src/rewards/rm_trainer";
import { Rng } from "../../src/util/rng";
import { expectClose, testGpu } from "../helpers/gpu";
import { nanoRm, randomSeqs } from "./nano_rm";

/** The issue's bound: onnxruntime-web (f32, WASM EP) and the WGSL forward agree on every score within 1e-4. */
const ORT_TOL = { atol: 1e-4, rtol: 0 };
const PAD = 0;

/** ids and mask [B·T] of sequences padded to T on the left (or right). */
function pad(seqs: number[][], T: number, side: "left" | "right") {
  const ids = new Array<number>(seqs.length * T).fill(PAD);
  const mask = new Array<number>(seqs.length * T).fill(0);
  seqs.forEach((s, b) => {
    const start = side === "left" ? T - s.length : 0;
    s.forEach((t, i) => {
      ids[b * T + start + i] = t;
      mask[b * T + start + i] = 1;
    });
  });
  return { ids, mask };
}

describe("ONNX reward-model export: onnxruntime-web scores = WGSL forward scores", () => {
  it("nano, left-padded batches of lengths 1..32 (the full context), two seeds; right padding too", async () => {
    const ctx = await testGpu();
    let worst = 0;
    for (const seed of [3, 4]) {
      const { config, params } = nanoRm(seed);
      const w = new GptWeights(ctx, config, params);
      const scorer = new RewardModelScorer(ctx, w, PAD);
      const rm = await loadOnnxRewardModel(exportRewardModelOnnx(config, params), config.vocabSize, {
        padId: PAD,
      });
      expect(rm.maxLength).toBe(config.contextLength);
      const rng = new Rng(seed);
      for (const [n, lo, hi] of [
        [5, 1, 9],
        [8, 20, 32],
        [1, 32, 32],
      ]) {
        const seqs = randomSeqs(rng, n, lo, hi, config.vocabSize);
        const wgsl = await scorer.score(seqs);
        const T = Math.max(...seqs.map((s) => s.length));
        for (const side of ["left", "right"] as const) {
          const { ids, mask } = pad(seqs, T, side);
          const ortScores = await rm.run(ids, mask, n, T);
          expectClose(`seed ${seed} n=${n} T=${T} ${side}`, ortScores, wgsl, ORT_TOL);
          for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(ortScores[i] - wgsl[i]));
        }
        expect(Math.max(...Array.from(wgsl, Math.abs))).toBeGreaterThan(0.1); // scores are O(1), not ~0
      }
      await rm.release();
      scorer.destroy();
      w.destroy();
    }
    console.log(`ORT vs WGSL worst |score difference|: ${worst.toExponential(2)}`);
  });

  it("uses no int64 index tensor computed in the graph (onnxruntime-web 1.30's WebGPU EP gets those wrong)", () => {
    const { config, params } = nanoRm(3);
    const g = onnx.ModelProto.decode(exportRewardModelOnnx(config, params)).graph;
    const nodes = g?.node ?? [];
    expect(
      nodes.filter((n) => ["ArgMax", "ArgMin", "GatherElements", "GatherND"].includes(n.opType ?? "")),
    ).toEqual([]);
    const gathers = nodes.filter((n) => n.opType === "Gather");
    expect(gathers.map((n) => n.input?.[1])).toEqual(["input_ids"]);
  });

  it("rejects a batch longer than max_length", async () => {
    const { config, params } = nanoRm(3);
    const rm = await loadOnnxRewardModel(exportRewardModelOnnx(config, params), config.vocabSize);
    const T = config.contextLength + 1;
    await expect(rm.run(new Array(T).fill(1), new Array(T).fill(1), 1, T)).rejects.toThrow(
      /longer than the model's max_length 32/,
    );
    await rm.release();
  });
});
