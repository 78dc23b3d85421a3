import * as ort from "onnxruntime-web";
import { describe, expect, it } from "vitest";
import { leftPadBatch } from "../../src/model/batch";
import { preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { exportPolicyOnnx, POLICY_OUTPUT } from "../../src/onnx/policy_export";
import { gptForwardRef } from "../../src/reference/gpt";
import { Rng } from "../../src/util/rng";

/** f32 ONNX (onnxruntime-web, WASM EP) vs the float64 reference forward: the bound of the ORT-vs-WGSL tests. */
const TOL = { atol: 1e-4, rtol: 1e-4 };

describe("policy ONNX export: onnxruntime-web logits = the engine's forward (float64 reference)", () => {
  for (const tied of [true, false])
    it(`nano, tied=${tied}: left-padded rows of lengths 1..32, every real position's logits`, async () => {
      const config = preset("nano", { vocabSize: 19, tiedEmbeddings: tied });
      const layout = paramLayout(config);
      const rng = new Rng(tied ? 5 : 6);
      const params = initParams(layout, () => rng.normal()).map((v) => v * 3);
      const session = await ort.InferenceSession.create(
        exportPolicyOnnx(config, params, { tokenizer: "t.json", metadata: { task: "x" } }),
        { executionProviders: ["wasm"], logSeverityLevel: 4 },
      );
      let worst = 0;
      for (const lengths of [[1, 5, 9], [32], [20, 31, 2, 7]]) {
        const seqs = lengths.map((n) => Array.from({ length: n }, () => rng.int(0, config.vocabSize - 1)));
        const T = Math.max(...lengths);
        const batch = leftPadBatch(seqs, T, 0);
        const ref = gptForwardRef(config, layout, params, batch);
        const out = await session.run({
          input_ids: new ort.Tensor("int64", BigInt64Array.from(batch.tokens, BigInt), [batch.B, T]),
          attention_mask: new ort.Tensor(
            "int64",
            BigInt64Array.from(batch.keyMask, (m) => BigInt(m)),
            [batch.B, T],
          ),
        });
        const logits = out[POLICY_OUTPUT];
        expect(logits.dims).toEqual([batch.B, T, config.vocabSize]);
        const got = logits.data as Float32Array;
        const V = config.vocabSize;
        for (let i = 0; i < batch.B * T; i++) {
          if (!batch.keyMask[i]) continue;
          for (let v = 0; v < V; v++) {
            const r = ref.logits[i * V + v];
            const err = Math.abs(got[i * V + v] - r);
            worst = Math.max(worst, err);
            expect(err, `row ${i} token ${v}: ${got[i * V + v]} vs ${r}`).toBeLessThanOrEqual(
              TOL.atol + TOL.rtol * Math.abs(r),
            );
          }
        }
      }
      console.log(
        `policy ONNX vs float64 forward (tied=${tied}): worst |logit error| ${worst.toExponential(2)}`,
      );
      await session.release();
    });
});
