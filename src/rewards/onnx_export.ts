/**
 * Export the engine's GPT with its reward head as an ONNX reward model with the documented contract
 * (docs/reward-models.md): inputs `input_ids` and `attention_mask`, int64 [B, T]; output `scores`, float32 [B]
 * = the reward head at each row's last real token. Opset 17 with basic ops only (Gather, LayerNormalization,
 * MatMul, Softmax, Tanh, CumSum, Equal, ReduceMax, ReduceSum, …), so onnxruntime-web's WASM and WebGPU EPs
 * both run it (scripts/check-onnx-webgpu.ts compares them in Chromium). The trunk (src/onnx/gpt_trunk.ts)
 * computes exactly what src/model/forward.ts computes; on top of it:
 * - r = LN_f(x)·w_rᵀ + b_r at every position; scores[b] = r[b, last(b)], last(b) = the largest t with
 *   attention_mask[b, t] = 1 (a one-hot where mask·(t + 1) is largest, not ArgMax + GatherElements, which
 *   onnxruntime-web 1.30's WebGPU EP gets wrong on computed int64 indices; an all-padding row scores 0).
 * T must not exceed the model's context length (metadata `max_length`).
 */
import type { GPTConfig } from "../model/config";
import { gptTrunk } from "../onnx/gpt_trunk";
import { encodeModel, ONNX_DTYPE } from "../onnx/graph";
import { RM_METADATA } from "./rm_metadata";

export { MASK_BIAS } from "../onnx/gpt_trunk";

export { RM_METADATA } from "./rm_metadata";

export interface RewardModelExportOptions {
  /** Tokenizer reference stored as metadata. Default "". */
  tokenizer?: string;
  /** Free text stored as the model's doc string. */
  docString?: string;
  /** Extra string metadata (task, accuracy, …). */
  metadata?: Record<string, string>;
}

/**
 * The ONNX bytes of a reward model from flat parameters in `paramLayout(config)` order (a checkpoint's
 * `params`). Output `scores` [B] float32; symbolic dims "batch" and "sequence".
 * @throws RangeError if params do not match the config's layout.
 */
export function exportRewardModelOnnx(
  config: GPTConfig,
  params: Float32Array,
  opts: RewardModelExportOptions = {},
): Uint8Array {
  const { g, ids, maskF, lnf, linear } = gptTrunk("rlhf_playground_reward_model", config, params);
  const axis1 = g.ints("axis_1", [1]);
  const Tmax = config.contextLength;
  const r = g.node("Squeeze", [linear(lnf, "reward_head"), g.ints("axis_2", [2])]); // [B, T]

  // The last real position of each row: where mask·(t + 1) reaches its row maximum (float ops only; an
  // all-padding row scores 0). Selected by a one-hot sum rather than ArgMax + GatherElements (computed int64
  // indices, see above).
  const ones = g.node("ConstantOfShape", [g.node("Shape", [ids])], {
    value: { tensor: { dims: [1], dataType: ONNX_DTYPE.float, floatData: [1] } },
  });
  const t1 = g.node("CumSum", [ones, g.init("axis_1_scalar_b", [], BigInt64Array.of(1n))]); // 1..T
  const w = g.node("Mul", [t1, maskF]);
  const rowMax = g.node("ReduceMax", [w], { axes: [1], keepdims: 1 }); // [B, 1]
  const lastOneHot = g.node("Mul", [
    g.node("Cast", [g.node("Equal", [w, rowMax])], { to: ONNX_DTYPE.float }),
    maskF,
  ]);
  g.node("ReduceSum", [g.node("Mul", [r, lastOneHot]), axis1], { keepdims: 0 }, "scores"); // [B]
  g.output("scores", "float", ["batch"]);

  return encodeModel(g.graph(), {
    docString:
      opts.docString ??
      "RLHF Playground reward model: GPT with a scalar reward head; scores = reward at the last real token.",
    metadata: {
      [RM_METADATA.maxLength]: String(Tmax),
      [RM_METADATA.vocabSize]: String(config.vocabSize),
      [RM_METADATA.paddingSide]: "left",
      [RM_METADATA.tokenizer]: opts.tokenizer ?? "",
      ...opts.metadata,
    },
  });
}
