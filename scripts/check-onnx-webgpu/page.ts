/**
 * Browser half of scripts/check-onnx-webgpu.ts: exports nano reward models with random weights, scores
 * left-padded batches with onnxruntime-web's WebGPU EP, its WASM EP and our WGSL forward (RewardModelScorer),
 * and publishes the worst differences as `window.onnxCheck` (and in the page).
 */
import { acquireGpu } from "../../src/gpu/device";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { exportRewardModelOnnx } from "../../src/rewards/onnx_export";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { RewardModelScorer } from "../../src/rewards/rm_trainer";
import { Rng } from "../../src/util/rng";

export interface CheckRow {
  case: string;
  webgpuVsWasm: number;
  webgpuVsWgsl: number;
  wasmVsWgsl: number;
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i])));

async function main(): Promise<CheckRow[]> {
  const ctx = await acquireGpu();
  const rows: CheckRow[] = [];
  for (const nLayer of [1, 2]) {
    const config = preset("nano", { vocabSize: 37, nLayer });
    const rng = new Rng(nLayer);
    const params = initParams(paramLayout(config), () => rng.normal()).map((v) => v * 3);
    const bytes = exportRewardModelOnnx(config, params);
    const wasm = await loadOnnxRewardModel(bytes, 37, { executionProviders: ["wasm"] });
    const webgpu = await loadOnnxRewardModel(bytes, 37, { executionProviders: ["webgpu"] });
    const w = new GptWeights(ctx, config, params);
    const scorer = new RewardModelScorer(ctx, w, 0);
    for (const [B, maxLen] of [
      [1, 12],
      [4, 12],
      [6, 32],
    ]) {
      const seqs = Array.from({ length: B }, () =>
        Array.from({ length: rng.int(1, maxLen) }, () => rng.int(1, 36)),
      );
      const T = Math.max(...seqs.map((s) => s.length));
      const ids = new Array<number>(B * T).fill(0);
      const mask = new Array<number>(B * T).fill(0);
      seqs.forEach((s, b) => {
        for (let i = 0; i < s.length; i++) {
          ids[b * T + T - s.length + i] = s[i];
          mask[b * T + T - s.length + i] = 1;
        }
      });
      const a = await wasm.run(ids, mask, B, T);
      const g = await webgpu.run(ids, mask, B, T);
      const e = await scorer.score(seqs);
      rows.push({
        case: `L=${nLayer} B=${B} T=${T}`,
        webgpuVsWasm: maxDiff(g, a),
        webgpuVsWgsl: maxDiff(g, e),
        wasmVsWgsl: maxDiff(a, e),
      });
    }
    await wasm.release();
    await webgpu.release();
    scorer.destroy();
    w.destroy();
  }
  ctx.destroy();
  return rows;
}

const out = document.getElementById("out") as HTMLElement;
main().then(
  (rows) => {
    (window as unknown as { onnxCheck: unknown }).onnxCheck = { rows };
    out.textContent = JSON.stringify(rows, null, 2);
  },
  (e: unknown) => {
    (window as unknown as { onnxCheck: unknown }).onnxCheck = { error: String(e) };
    out.textContent = String(e);
  },
);
