/**
 * The error of a reward model that does not fit the lab's contract (docs/reward-models.md), in a module of its
 * own: code that only handles the error (the training worker's scheduler, ./rm_isolated's host side) does not
 * load onnxruntime-web with it.
 */

/** What is wrong with a file (stable identifiers for the UI and tests). */
export type OnnxRewardModelErrorKind =
  | "not-onnx" // unreadable bytes, not a ModelProto, or no graph
  | "inputs" // input names are not exactly input_ids and attention_mask
  | "input-dtype" // an input is not int64 or not rank 2
  | "outputs" // no output named scores, or more than one output
  | "output-dtype" // scores is not float32
  | "output-shape" // scores is not [B] or [B, 1]
  | "vocab" // the model cannot embed every token id of the tokenizer
  | "ops" // control flow (Loop, Scan) that could run without end: the worker would hang on it
  | "session" // onnxruntime-web could not build a session (unsupported op, invalid graph, …)
  | "runtime" // the model threw or returned non-finite scores when run
  | "timeout"; // it computed past the lab's time limit and was ended (src/lab/rm_isolated.ts)

export class OnnxRewardModelError extends Error {
  override name = "OnnxRewardModelError";
  constructor(
    readonly kind: OnnxRewardModelErrorKind,
    /** What is wrong, in words (the message without its kind). */
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
  }
}
