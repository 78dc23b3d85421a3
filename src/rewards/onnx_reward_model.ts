/**
 * Load and run an ONNX reward model with onnxruntime-web (WASM EP in Node and by default; WebGPU EP in the page
 * when asked), checking the contract of docs/reward-models.md before the lab uses it:
 *   inputs  `input_ids`, `attention_mask`: int64 [B, T], LEFT-padded (mask 1 = real token, 0 = padding);
 *   output  `scores`: float32 [B] or [B, 1], one finite score per row;
 *   vocabulary = the task's tokenizer (ids 0..V−1 must all be accepted).
 * Anything else is an {@link OnnxRewardModelError} whose `kind` and message name what is wrong; nothing is
 * left half-loaded, so the lab keeps working with its other reward sources.
 */
import * as ort from "onnxruntime-web";
import { errorMessage } from "../util/errors";
import { RM_METADATA } from "./onnx_export";
import { OnnxRewardModelError } from "./onnx_rm_error";
import { inspectOnnxRewardModel, RM_OUTPUT } from "./onnx_rm_inspect";

export { OnnxRewardModelError, type OnnxRewardModelErrorKind } from "./onnx_rm_error";

export { inspectOnnxRewardModel, RM_INPUTS, RM_OUTPUT } from "./onnx_rm_inspect";

export interface LoadOnnxOptions {
  /** onnxruntime-web execution providers, in order of preference. Default ["wasm"] (the lab's reward-model worker uses it, one thread); ["webgpu", "wasm"] also works. */
  executionProviders?: string[];
  /** The padding id used in probe batches. Default 0. */
  padId?: number;
}

/** A loaded, validated reward model. */
export interface OnnxRewardModel {
  /** V of the tokenizer it was validated against. */
  readonly vocabSize: number;
  /** Longest T it accepts (metadata `max_length`), or null when the file does not say. */
  readonly maxLength: number | null;
  /** The model's metadata_props. */
  readonly metadata: Record<string, string>;
  /** Non-fatal findings (e.g. an embedding with more rows than the vocabulary). */
  readonly warnings: string[];
  /**
   * Scores [B] of left-padded rows: ids [B·T] and mask [B·T] (1 real, 0 padding), row-major.
   * @throws RangeError when T exceeds maxLength (cut sequences from the left first, as onnxReward does).
   * @throws OnnxRewardModelError ("runtime") when the model throws or returns a wrong or non-finite output.
   */
  run(ids: ArrayLike<number>, mask: ArrayLike<number>, B: number, T: number): Promise<Float64Array>;
  /** Free the session. */
  release(): Promise<void>;
  /**
   * Why the model cannot score any more — its worker was ended (a time limit, a crash; src/lab/rm_isolated.ts)
   * — or null/absent while it can.
   */
  readonly stopped?: string | null;
}

const message = (e: unknown) => errorMessage(e).slice(0, 500);

/**
 * Load an ONNX reward model and validate it against the contract: static checks on the graph, a session,
 * then a probe batch (one full row of the largest id V − 1, one left-padded row) that must give 2 finite
 * float32 scores of shape [2] or [2, 1].
 * @param bytes the .onnx file. @param tokenizerVocabSize V of the task's tokenizer (≥ 1).
 * @throws OnnxRewardModelError naming what is wrong (see {@link OnnxRewardModelErrorKind}).
 */
export async function loadOnnxRewardModel(
  bytes: Uint8Array,
  tokenizerVocabSize: number,
  opts: LoadOnnxOptions = {},
): Promise<OnnxRewardModel> {
  const V = tokenizerVocabSize;
  if (!Number.isInteger(V) || V < 1)
    throw new RangeError(`tokenizerVocabSize must be a positive integer, got ${V}`);
  const { metadata, warnings } = inspectOnnxRewardModel(bytes, V);
  const maxLenRaw = Number(metadata[RM_METADATA.maxLength]);
  const maxLength = Number.isInteger(maxLenRaw) && maxLenRaw > 0 ? maxLenRaw : null;
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes, {
      executionProviders: opts.executionProviders ?? ["wasm"],
      logSeverityLevel: 4, // errors reach the caller as OnnxRewardModelError; keep ORT's own log quiet
    });
  } catch (e) {
    throw new OnnxRewardModelError("session", `onnxruntime-web cannot load the model: ${message(e)}`);
  }
  const run = async (ids: ArrayLike<number>, mask: ArrayLike<number>, B: number, T: number) => {
    if (maxLength !== null && T > maxLength)
      throw new RangeError(`a [${B}, ${T}] batch is longer than the model's max_length ${maxLength}`);
    let res: ort.InferenceSession.ReturnType;
    try {
      res = await session.run({
        input_ids: new ort.Tensor("int64", BigInt64Array.from(Array.from(ids), BigInt), [B, T]),
        attention_mask: new ort.Tensor("int64", BigInt64Array.from(Array.from(mask), BigInt), [B, T]),
      });
    } catch (e) {
      throw new OnnxRewardModelError("runtime", `the model failed on a [${B}, ${T}] batch: ${message(e)}`);
    }
    const s = res[RM_OUTPUT];
    if (s.type !== "float32")
      throw new OnnxRewardModelError("output-dtype", `output scores is ${s.type} at run time, not float32`);
    const okShape =
      (s.dims.length === 1 && s.dims[0] === B) || (s.dims.length === 2 && s.dims[0] === B && s.dims[1] === 1);
    if (!okShape)
      throw new OnnxRewardModelError(
        "output-shape",
        `output scores has shape [${s.dims.join(", ")}] for B = ${B}; expected [${B}] or [${B}, 1]`,
      );
    const out = Float64Array.from(s.data as Float32Array);
    const bad = out.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0)
      throw new OnnxRewardModelError(
        "runtime",
        `the model returned a non-finite score (${out[bad]}) for row ${bad}`,
      );
    return out;
  };
  const model: OnnxRewardModel = {
    vocabSize: V,
    maxLength,
    metadata,
    warnings,
    run,
    release: () => session.release(),
  };
  try {
    const T = Math.min(4, maxLength ?? 4);
    const pad = opts.padId ?? 0;
    const ids = [...Array(T).fill(V - 1), ...Array(T - 1).fill(pad), V - 1];
    const mask = [...Array(T).fill(1), ...Array(T - 1).fill(0), 1];
    await run(ids, mask, 2, T);
  } catch (e) {
    await session.release().catch(() => undefined);
    if (e instanceof OnnxRewardModelError && e.kind === "runtime") {
      const detail = e.message.replace(/^runtime: /, "");
      // ORT's Gather reports an index past the table's end this way: the vocabulary is too small.
      if (/out of (data )?bounds|indices element/i.test(detail))
        throw new OnnxRewardModelError("vocab", `the model cannot embed token ids up to ${V - 1}: ${detail}`);
      throw new OnnxRewardModelError("runtime", `probe batch with token ids up to ${V - 1}: ${detail}`);
    }
    throw e;
  }
  return model;
}
