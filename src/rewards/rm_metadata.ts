/**
 * The metadata keys of the reward-model ONNX contract (docs/reward-models.md), apart from the exporter so that
 * the worker can read a model's metadata without loading the ONNX graph builders.
 */

/** Metadata keys written into the exported model (ModelProto.metadata_props). */
/** Metadata keys written into the exported model (ModelProto.metadata_props). */
export const RM_METADATA = {
  /** Longest T the model accepts (its context length), decimal. */
  maxLength: "max_length",
  /** The tokenizer the ids come from, e.g. "models/sentiment/tokenizer.json". */
  tokenizer: "tokenizer",
  /** "left": the lab sends left-padded rows (the graph accepts either side). */
  paddingSide: "padding_side",
  /** Vocabulary size V (rows of the token embedding). */
  vocabSize: "vocab_size",
} as const;
