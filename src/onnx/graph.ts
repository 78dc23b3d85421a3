/**
 * A small ONNX graph writer over `onnx-proto` (the ONNX protobuf schema compiled for JavaScript): named
 * initializers from typed arrays (stored as little-endian raw bytes), nodes with typed attributes, graph inputs
 * and outputs with symbolic dims, and the ModelProto bytes. Used by the reward-model export (./onnx_export.ts)
 * and by the tests that build deliberately wrong models. Spec: https://onnx.ai/onnx/repo-docs/IR.html.
 */
import onnxProto from "onnx-proto";

export const { onnx } = onnxProto;

/** ONNX TensorProto.DataType codes this project uses. */
export const ONNX_DTYPE = { float: 1, int32: 6, int64: 7, double: 11 } as const;
export type OnnxDtypeName = keyof typeof ONNX_DTYPE;

/** The default opset: 17 (LayerNormalization exists; onnxruntime-web's WASM and WebGPU EPs both run it). */
export const DEFAULT_OPSET = 17;
/** ONNX IR version 8 (ONNX 1.10+; what opset 17 models are stamped with by common exporters). */
export const DEFAULT_IR_VERSION = 8;

/** An attribute value: number → INT (integers) or FLOAT, number[] → INTS, string → STRING, a tensor → TENSOR. */
export type AttrValue =
  | number
  | number[]
  | string
  | { float: number }
  | { tensor: onnxProto.onnx.ITensorProto };

/** A dim: a number (static) or a name (symbolic, e.g. "batch"). */
export type Dim = number | string;

function rawBytes(data: Float32Array | Float64Array | Int32Array | BigInt64Array): Uint8Array {
  // Typed arrays are little-endian on every platform this runs on (x86, ARM); ONNX raw_data is little-endian.
  return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
}

function dtypeOf(data: Float32Array | Float64Array | Int32Array | BigInt64Array): number {
  if (data instanceof Float32Array) return ONNX_DTYPE.float;
  if (data instanceof Float64Array) return ONNX_DTYPE.double;
  if (data instanceof Int32Array) return ONNX_DTYPE.int32;
  return ONNX_DTYPE.int64;
}

/**
 * A TensorProto (for initializers and Constant/ConstantOfShape attributes): `data` copied as little-endian
 * raw_data, its ONNX dtype (float, double, int32 or int64) taken from the array type; `dims` [] is a scalar.
 * @throws RangeError if `data.length` differs from the product of `dims`.
 */
export function tensorProto(
  name: string,
  dims: readonly number[],
  data: Float32Array | Float64Array | Int32Array | BigInt64Array,
): onnxProto.onnx.ITensorProto {
  const n = dims.reduce((a, b) => a * b, 1);
  if (n !== data.length)
    throw new RangeError(`tensor ${name}: dims [${dims}] hold ${n} values, got ${data.length}`);
  return { name, dims: [...dims], dataType: dtypeOf(data), rawData: rawBytes(data) };
}

function attribute(name: string, v: AttrValue): onnxProto.onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof v === "string") return { name, type: T.STRING, s: new TextEncoder().encode(v) };
  if (Array.isArray(v)) return { name, type: T.INTS, ints: v };
  if (typeof v === "number")
    return Number.isInteger(v) ? { name, type: T.INT, i: v } : { name, type: T.FLOAT, f: v };
  if ("float" in v) return { name, type: T.FLOAT, f: v.float };
  return { name, type: T.TENSOR, t: v.tensor };
}

function valueInfo(
  name: string,
  dtype: OnnxDtypeName,
  dims: readonly Dim[] | null,
): onnxProto.onnx.IValueInfoProto {
  const shape = dims
    ? { dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) }
    : null;
  return { name, type: { tensorType: { elemType: ONNX_DTYPE[dtype], ...(shape ? { shape } : {}) } } };
}

/** Builds one graph; every helper returns the name of the value it defines. */
export class GraphBuilder {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly inits: onnxProto.onnx.ITensorProto[] = [];
  private readonly inputs: onnxProto.onnx.IValueInfoProto[] = [];
  private readonly outputs: onnxProto.onnx.IValueInfoProto[] = [];
  private counter = 0;

  constructor(readonly name: string) {}

  /** A graph input. `dims` null: no shape declared. */
  input(name: string, dtype: OnnxDtypeName, dims: readonly Dim[] | null): string {
    this.inputs.push(valueInfo(name, dtype, dims));
    return name;
  }

  /** Declare `value` a graph output. */
  output(value: string, dtype: OnnxDtypeName, dims: readonly Dim[] | null): void {
    this.outputs.push(valueInfo(value, dtype, dims));
  }

  /** A named initializer (a weight or a constant). */
  init(
    name: string,
    dims: readonly number[],
    data: Float32Array | Float64Array | Int32Array | BigInt64Array,
  ): string {
    this.inits.push(tensorProto(name, dims, data));
    return name;
  }

  /** A 1-D int64 constant (shapes, axes, starts …). */
  ints(name: string, values: readonly number[]): string {
    return this.init(
      name,
      [values.length],
      BigInt64Array.from(values, (v) => BigInt(v)),
    );
  }

  /** A scalar float32 constant. */
  scalar(name: string, value: number): string {
    return this.init(name, [], Float32Array.of(value));
  }

  /**
   * A node `op(inputs) → outputs`. `outputs` is a count (fresh names from `hint`) or a list of names.
   * Returns the output names.
   */
  nodeN(
    op: string,
    inputs: readonly string[],
    outputs: number | readonly string[],
    attrs: Record<string, AttrValue> = {},
    hint = op.toLowerCase(),
  ): string[] {
    const outs =
      typeof outputs === "number"
        ? Array.from({ length: outputs }, (_, i) => `${hint}_${this.counter++}${outputs > 1 ? `_${i}` : ""}`)
        : [...outputs];
    this.nodes.push({
      opType: op,
      name: `${op}_${this.nodes.length}`,
      input: [...inputs],
      output: outs,
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    });
    return outs;
  }

  /** A single-output node; `out` names its output (default: a fresh name from `hint`). */
  node(op: string, inputs: readonly string[], attrs: Record<string, AttrValue> = {}, out?: string): string {
    return this.nodeN(op, inputs, out ? [out] : 1, attrs)[0];
  }

  /** The GraphProto. */
  graph(): onnxProto.onnx.IGraphProto {
    return {
      name: this.name,
      node: this.nodes,
      initializer: this.inits,
      input: this.inputs,
      output: this.outputs,
    };
  }
}

export interface ModelOptions {
  /** Opset of the default domain. Default {@link DEFAULT_OPSET}. */
  opset?: number;
  irVersion?: number;
  producerName?: string;
  docString?: string;
  /** String metadata (ModelProto.metadata_props), e.g. { max_length: "128" }. */
  metadata?: Record<string, string>;
}

/** Serialise a graph as ONNX ModelProto bytes. */
export function encodeModel(graph: onnxProto.onnx.IGraphProto, o: ModelOptions = {}): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: o.irVersion ?? DEFAULT_IR_VERSION,
    opsetImport: [{ domain: "", version: o.opset ?? DEFAULT_OPSET }],
    producerName: o.producerName ?? "rlhf-playground",
    docString: o.docString ?? "",
    graph,
    metadataProps: Object.entries(o.metadata ?? {}).map(([key, value]) => ({ key, value })),
  });
  return onnx.ModelProto.encode(model).finish();
}
