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
import { ONNX_DTYPE, onnx } from "../onnx/graph";
import { errorMessage } from "../util/errors";
import { clipped } from "../util/quote";
import { RM_METADATA } from "./onnx_export";
import { OnnxRewardModelError } from "./onnx_rm_error";

export { OnnxRewardModelError, type OnnxRewardModelErrorKind } from "./onnx_rm_error";

export const RM_INPUTS = ["input_ids", "attention_mask"] as const;
export const RM_OUTPUT = "scores";

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

type Proto = ReturnType<typeof onnx.ModelProto.decode>;

/** protobufjs leaves repeated fields typed as optional; decoded messages always have them. */
const list = <T>(x: T[] | null | undefined): T[] => x ?? [];

/** Decode and check what can be checked without running: graph, inputs, outputs, embedding rows. */
function inspect(bytes: Uint8Array, V: number): { metadata: Record<string, string>; warnings: string[] } {
  let model: Proto;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (e) {
    throw new OnnxRewardModelError(
      "not-onnx",
      `the file is not an ONNX model (protobuf decode failed: ${message(e)})`,
    );
  }
  const g = model.graph;
  if (!g || !list(g.node).length || !list(g.output).length)
    throw new OnnxRewardModelError("not-onnx", "the file has no ONNX graph (no nodes or no outputs)");
  // The graph's, and those of the functions the file defines (a node may call one by its name).
  const loops = [...controlFlow(g), ...list(model.functions).flatMap((f) => controlFlow(f))];
  if (loops.length)
    throw new OnnxRewardModelError(
      "ops",
      `the model uses ${[...new Set(loops)].join(", ")}: control flow whose length the file sets, which could keep ` +
        "the lab's worker busy without end; a reward model scores a batch in one pass (export it without loops)",
    );
  const initNames = new Set(list(g.initializer).map((t) => t.name));
  const inputs = list(g.input).filter((i) => !initNames.has(i.name));
  const names = inputs.map((i) => i.name ?? "");
  const missing = RM_INPUTS.filter((n) => !names.includes(n));
  const extra = names.filter((n) => !(RM_INPUTS as readonly string[]).includes(n));
  if (missing.length || extra.length)
    throw new OnnxRewardModelError(
      "inputs",
      `inputs must be exactly input_ids and attention_mask; got [${namesOf(names)}]` +
        (missing.length ? `, missing ${missing.join(", ")}` : "") +
        (extra.length ? `, unexpected ${namesOf(extra)}` : ""),
    );
  for (const i of inputs) {
    const tt = i.type?.tensorType;
    if (!tt || tt.elemType !== ONNX_DTYPE.int64)
      throw new OnnxRewardModelError(
        "input-dtype",
        `input ${clipped(i.name ?? "")} must be int64, the file declares ${dtypeName(tt?.elemType)}`,
      );
    const rank = tt.shape?.dim?.length;
    if (tt.shape && rank !== 2)
      throw new OnnxRewardModelError(
        "input-dtype",
        `input ${clipped(i.name ?? "")} must have rank 2 [B, T], the file declares rank ${rank}`,
      );
  }
  const outNames = list(g.output).map((o) => o.name ?? "");
  if (outNames.length !== 1 || outNames[0] !== RM_OUTPUT)
    throw new OnnxRewardModelError(
      "outputs",
      `the model must have one output named scores; got [${namesOf(outNames)}]`,
    );
  const out = list(g.output)[0].type?.tensorType;
  if (!out || out.elemType !== ONNX_DTYPE.float)
    throw new OnnxRewardModelError(
      "output-dtype",
      `output scores must be float32, the file declares ${dtypeName(out?.elemType)}`,
    );
  const dims = out.shape?.dim;
  if (dims && !(dims.length === 1 || (dims.length === 2 && Number(dims[1].dimValue) === 1)))
    throw new OnnxRewardModelError(
      "output-shape",
      `output scores must be [B] or [B, 1], the file declares [${namesOf(dims.map((d) => d.dimParam || String(Number(d.dimValue || 0))))}]`,
    );
  const warnings = checkEmbeddings(g, V);
  const metadata = Object.fromEntries(list(model.metadataProps).map((p) => [p.key ?? "", p.value ?? ""]));
  return { metadata, warnings };
}

/** Names from the file in a message: the first 5, each cut short (quoted), and how many more. */
function namesOf(names: readonly (string | null | undefined)[]): string {
  const shown = names.slice(0, 5).map((n) => clipped(n ?? ""));
  return names.length > 5 ? `${shown.join(", ")} and ${names.length - 5} more` : shown.join(", ");
}

const DTYPE_NAMES: Record<number, string> = {
  1: "float32",
  6: "int32",
  7: "int64",
  10: "float16",
  11: "float64",
};
function dtypeName(code: number | null | undefined): string {
  return code == null ? "no tensor type" : (DTYPE_NAMES[code] ?? `ONNX type ${code}`);
}

/** Ops whose iteration count comes from the file (a trip count or a sequence): unbounded work. */
const CONTROL_FLOW = new Set(["Loop", "Scan"]);

/**
 * The control-flow ops of a graph (or a function's body) and of the subgraphs its nodes hold (If's branches,
 * a Loop's body, …).
 */
function controlFlow(g: Pick<NonNullable<Proto["graph"]>, "node">, depth = 0): string[] {
  if (depth > 16) return ["subgraphs nested over 16 deep"];
  return list(g.node).flatMap((n) => [
    ...(CONTROL_FLOW.has(n.opType ?? "") ? [n.opType as string] : []),
    ...list(n.attribute).flatMap((a) =>
      [...(a.g ? [a.g] : []), ...list(a.graphs)].flatMap((sub) => controlFlow(sub, depth + 1)),
    ),
  ]);
}

/**
 * Gather nodes whose indices are input_ids (directly or through Cast/Identity) and whose data is an
 * initializer are token embeddings: fewer rows than V → "vocab" error; more → a warning.
 */
function checkEmbeddings(g: NonNullable<Proto["graph"]>, V: number): string[] {
  const inits = new Map(list(g.initializer).map((t) => [t.name ?? "", t]));
  const fromIds = new Set(["input_ids"]);
  const nodes = list(g.node).map((n) => ({
    op: n.opType,
    in: list(n.input),
    out: list(n.output),
    attrs: list(n.attribute),
  }));
  for (const n of nodes)
    if ((n.op === "Cast" || n.op === "Identity") && fromIds.has(n.in[0])) fromIds.add(n.out[0]);
  const warnings: string[] = [];
  for (const n of nodes) {
    if (n.op !== "Gather" || !fromIds.has(n.in[1])) continue;
    const data = inits.get(n.in[0]);
    if (!data?.dims?.length) continue;
    const axis = Number(n.attrs.find((a) => a.name === "axis")?.i ?? 0);
    const rows = Number(data.dims[axis < 0 ? data.dims.length + axis : axis]);
    if (rows < V)
      throw new OnnxRewardModelError(
        "vocab",
        `the token embedding ${clipped(data.name ?? "")} has ${rows} rows but the tokenizer has ${V} tokens: ids ${rows}..${V - 1} cannot be scored`,
      );
    if (rows > V)
      warnings.push(
        `the token embedding ${clipped(data.name ?? "")} has ${rows} rows, more than the tokenizer's ${V} tokens`,
      );
  }
  return warnings;
}

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
  const { metadata, warnings } = inspect(bytes, V);
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
