/**
 * Export a run's policy (the engine's GPT with its LM head) as ONNX, for use outside the lab (onnxruntime,
 * transformers.js-style generation loops): inputs `input_ids`, `attention_mask` int64 [B, T]; output `logits`
 * float32 [B, T, V] = LN_f(x)·W_Uᵀ with W_U = wte (tied embeddings) or lm_head, at every position (the next
 * token's logits at position t; padding positions give finite, meaningless logits). The trunk is
 * ./gpt_trunk.ts (the same graph the reward-model export uses). Metadata: max_length (context length),
 * vocab_size, tokenizer, padding_side = "left".
 */
import type { GPTConfig } from "../model/config";
import { gptTrunk } from "./gpt_trunk";
import { encodeModel } from "./graph";

/** Name of the exported policy's output (its inputs: gpt_trunk.ts's input_ids and attention_mask). */
export const POLICY_OUTPUT = "logits";

export interface PolicyExportOptions {
  /** Tokenizer reference stored as metadata, e.g. "models/sentiment/tokenizer.json". Default "". */
  tokenizer?: string;
  /** Extra string metadata (task, algorithm, step, …). */
  metadata?: Record<string, string>;
}

/**
 * The ONNX bytes of the policy with flat parameters in paramLayout(config) order.
 * @throws RangeError if params do not match the config's layout.
 */
export function exportPolicyOnnx(
  config: GPTConfig,
  params: Float32Array,
  opts: PolicyExportOptions = {},
): Uint8Array {
  const { g, lnf, weightT } = gptTrunk("rlhf_playground_policy", config, params);
  const unembed = weightT(config.tiedEmbeddings ? "wte.weight" : "lm_head.weight"); // [C, V]
  g.node("MatMul", [lnf, unembed], {}, POLICY_OUTPUT); // [B, T, V]
  g.output(POLICY_OUTPUT, "float", ["batch", "sequence", config.vocabSize]);
  return encodeModel(g.graph(), {
    docString: "RLHF Playground policy: GPT-2-style decoder; logits of the next token at every position.",
    metadata: {
      max_length: String(config.contextLength),
      vocab_size: String(config.vocabSize),
      padding_side: "left",
      tokenizer: opts.tokenizer ?? "",
      ...opts.metadata,
    },
  });
}
