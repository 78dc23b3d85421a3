/**
 * The checks of an ONNX reward model's file that need no runtime (docs/reward-models.md's contract): it decodes,
 * has a graph without unbounded control flow, inputs `input_ids` and `attention_mask` (int64 [B, T]), one
 * float32 output `scores` ([B] or [B, 1]), and token embeddings with a row per token. No onnxruntime here: the
 * training worker runs these before it starts a reward model's worker (./onnx_reward_model.ts loads it there).
 */
import { ONNX_DTYPE, onnx } from "../onnx/graph";
import { errorMessage } from "../util/errors";
import { clipped } from "../util/quote";
import { OnnxRewardModelError } from "./onnx_rm_error";

export const RM_INPUTS = ["input_ids", "attention_mask"] as const;
export const RM_OUTPUT = "scores";

const message = (e: unknown) => errorMessage(e).slice(0, 500);

type Proto = ReturnType<typeof onnx.ModelProto.decode>;

/** protobufjs leaves repeated fields typed as optional; decoded messages always have them. */
const list = <T>(x: T[] | null | undefined): T[] => x ?? [];

/**
 * Decode and check what can be checked without running: graph, inputs, outputs, embedding rows. Cheap (no
 * onnxruntime): the lab runs it before starting a reward model's worker, so a broken file is refused at once.
 * @throws OnnxRewardModelError as {@link loadOnnxRewardModel} does for these checks.
 */
export function inspectOnnxRewardModel(
  bytes: Uint8Array,
  V: number,
): { metadata: Record<string, string>; warnings: string[] } {
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
