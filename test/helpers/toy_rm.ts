/**
 * A toy ONNX reward model over a 12-token vocabulary, and ways to break it (the loader's and the reward-model
 * worker's tests).
 */
import { type Dim, encodeModel, GraphBuilder, type OnnxDtypeName } from "../../src/onnx/graph";

export const V = 12;
export const BT: Dim[] = ["batch", "sequence"];

export interface ToyOptions {
  idsName?: string;
  maskName?: string | null;
  idsDtype?: OnnxDtypeName;
  outName?: string;
  outDtype?: OnnxDtypeName;
  outDims?: Dim[] | null;
  /** Rows of the embedding table (default V). */
  rows?: number;
  /** The embedding table as a Constant node instead of an initializer (hidden from the static check). */
  constantTable?: boolean;
  /** Return per-token scores [B, T] instead of [B]. */
  perToken?: boolean;
  /** Reshape the batch to a fixed size that only fits B·T = 7: throws at run time. */
  throwsAtRunTime?: boolean;
  /** Divide 0 by 0: NaN scores. */
  nan?: boolean;
  /** Use an op that does not exist. */
  unknownOp?: boolean;
  /** Pass the scores through a control-flow node (refused before any run: it could loop without end). */
  controlFlow?: "Loop" | "Scan";
  /**
   * Add 0 × the sum of a chain of `products` [size, size] matrix products computed from the mask (so no
   * optimiser can fold them ahead): a valid model that keeps its worker busy for as long as one likes.
   */
  busyWork?: { products: number; size: number };
  /**
   * The same with [n, n] matrices where n = perToken·B·T: quick on the loader's 2 × 4 probe, as slow as one
   * likes on the lab's real batches.
   */
  busyPerToken?: { products: number; perToken: number };
}

/** A toy reward model: scores[b] = Σ_t mask[b, t]·table[ids[b, t]] (table[i] = i / 10), and ways to break it. */
export function toyModel(o: ToyOptions = {}): Uint8Array {
  const g = new GraphBuilder("toy");
  const ids = g.input(o.idsName ?? "input_ids", o.idsDtype ?? "int64", BT);
  const mask = o.maskName === null ? null : g.input(o.maskName ?? "attention_mask", "int64", BT);
  const rows = o.rows ?? V;
  const table = Float32Array.from({ length: rows }, (_, i) => i / 10);
  const tableName = o.constantTable
    ? g.node("Constant", [], {
        value: { tensor: { dims: [rows, 1], dataType: 1, floatData: Array.from(table) } },
      })
    : g.init("emb", [rows, 1], table);
  const idx = o.idsDtype === "int32" ? g.node("Cast", [ids], { to: 7 }) : ids;
  let x = g.node("Gather", [tableName, idx]); // [B, T, 1]
  if (mask)
    x = g.node("Mul", [x, g.node("Unsqueeze", [g.node("Cast", [mask], { to: 1 }), g.ints("ax2", [2])])]);
  if (o.throwsAtRunTime) x = g.node("Reshape", [x, g.ints("seven", [7, 1, 1])]);
  if (o.unknownOp) x = g.node("NoSuchOp", [x]);
  if (o.controlFlow) x = g.node(o.controlFlow, [x]);
  let out = o.perToken
    ? g.node("Squeeze", [x, g.ints("ax2b", [2])])
    : g.node("ReduceSum", [x, g.ints("ax12", [1, 2])], { keepdims: 0 });
  if (o.busyWork) {
    const masked = g.node("ReduceSum", [g.node("Cast", [mask ?? ids], { to: 1 })], { keepdims: 0 });
    let m = g.node("Expand", [
      g.node("Mul", [masked, g.scalar("zero", 0)]),
      g.ints("square", [o.busyWork.size, o.busyWork.size]),
    ]);
    for (let i = 0; i < o.busyWork.products; i++) m = g.node("MatMul", [m, m]);
    out = g.node("Add", [out, g.node("ReduceSum", [m], { keepdims: 0 })]);
  }
  if (o.busyPerToken) {
    const masked = g.node("ReduceSum", [g.node("Cast", [mask ?? ids], { to: 1 })], { keepdims: 0 });
    const bt = g.node("ReduceProd", [g.node("Shape", [ids])], { keepdims: 1 });
    const n = g.node("Mul", [bt, g.ints("per_token", [o.busyPerToken.perToken])]);
    let m = g.node("Expand", [
      g.node("Mul", [masked, g.scalar("zero_t", 0)]),
      g.node("Concat", [n, n], { axis: 0 }),
    ]);
    for (let i = 0; i < o.busyPerToken.products; i++) m = g.node("MatMul", [m, m]);
    out = g.node("Add", [out, g.node("ReduceSum", [m], { keepdims: 0 })]);
  }
  if (o.nan) out = g.node("Div", [g.node("Sub", [out, out]), g.node("Sub", [out, out])]);
  if (o.outDtype === "double") out = g.node("Cast", [out], { to: 11 });
  const outName = o.outName ?? "scores";
  g.node("Identity", [out], {}, outName);
  g.output(outName, o.outDtype ?? "float", o.outDims === undefined ? ["batch"] : o.outDims);
  return encodeModel(g.graph());
}
