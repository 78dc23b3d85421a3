/**
 * The engine's GPT (src/model/forward.ts; GPT-2, Radford et al. 2019) as an ONNX graph up to the final
 * LayerNorm, shared by the reward-model export (src/rewards/onnx_export.ts) and the policy export
 * (./policy_export.ts). Inputs `input_ids` and `attention_mask`, int64 [B, T] ("batch", "sequence"):
 *
 * - positions = max(cumsum(mask) − 1, 0) along T: position ids count real tokens (0 at a row's first real
 *   token), so LEFT-padded rows see the same positions as unpadded ones; right padding works too;
 * - x = wte[input_ids] + onehot(positions)·wpe; per block: x += attn(LN₁(x)), x += MLP(LN₂(x)) with GPT-2's
 *   tanh GELU; attention adds −1e9 to the scores of future keys and of padding keys (a finite bias, so padding
 *   queries with no visible key stay finite and never leak).
 * onnxruntime-web 1.30's WebGPU EP evaluates Gather/GatherElements whose int64 indices are computed inside
 * the graph wrongly (found with scripts/check-onnx-webgpu.ts), so positions are one-hot products in float;
 * the only int64 index tensor is the graph input input_ids. Linear weights [out, in] are stored transposed
 * ([in, out]) for MatMul. T must not exceed the context length: positions ≥ it get a zero position embedding.
 */
import type { GPTConfig } from "../model/config";
import { paramLayout, spec } from "../model/params";
import { type Dim, GraphBuilder, ONNX_DTYPE } from "./graph";

/** Additive bias of hidden attention scores (future or padding keys): exp(−1e9 + s − max) = 0 in f32. */
export const MASK_BIAS = -1e9;

export interface GptTrunk {
  g: GraphBuilder;
  /** Graph input names / node outputs: ids int64 [B, T], the mask as float [B, T], LN_f(x) [B, T, C]. */
  ids: string;
  maskF: string;
  lnf: string;
  /** An initializer of the parameter `name` as stored. */
  weight(name: string): string;
  /** A Linear weight [out, in] (or any [rows, C] matrix) stored transposed, [in, out], for x·W. */
  weightT(name: string): string;
  /** x·Wᵀ + b of the Linear `prefix` (prefix.weight, prefix.bias). */
  linear(x: string, prefix: string): string;
}

/**
 * Build the trunk of `config` with flat `params` in paramLayout(config) order (a checkpoint's params).
 * @throws RangeError if params do not match the config's layout.
 */
export function gptTrunk(graphName: string, config: GPTConfig, params: Float32Array): GptTrunk {
  const layout = paramLayout(config);
  if (params.length !== layout.size)
    throw new RangeError(`params have ${params.length} values, the config's layout needs ${layout.size}`);
  const { nEmbd: C, nHead: H, nLayer: L, contextLength: Tmax, lnEps: eps } = config;
  const hs = C / H;
  const g = new GraphBuilder(graphName);
  const dims: Dim[] = ["batch", "sequence"];
  const ids = g.input("input_ids", "int64", dims);
  const mask = g.input("attention_mask", "int64", dims);

  const tensor = (name: string) => {
    const s = spec(layout, name);
    const n = s.shape.reduce((a, b) => a * b, 1);
    return { shape: s.shape, data: params.subarray(s.offset, s.offset + n) };
  };
  const weight = (name: string) => {
    const t = tensor(name);
    return g.init(name, t.shape, Float32Array.from(t.data));
  };
  /** A Linear weight [out, in] stored as [in, out] for x·W. */
  const weightT = (name: string) => {
    const { shape, data } = tensor(name);
    const [out, inp] = shape;
    const wt = new Float32Array(out * inp);
    for (let o = 0; o < out; o++) for (let i = 0; i < inp; i++) wt[i * out + o] = data[o * inp + i];
    return g.init(`${name}.T`, [inp, out], wt);
  };
  const linear = (x: string, prefix: string) =>
    g.node("Add", [g.node("MatMul", [x, weightT(`${prefix}.weight`)]), weight(`${prefix}.bias`)]);
  const layerNorm = (x: string, prefix: string) =>
    g.node("LayerNormalization", [x, weight(`${prefix}.weight`), weight(`${prefix}.bias`)], {
      axis: -1,
      epsilon: { float: eps },
    });

  const one = g.scalar("one", 1);
  const half = g.scalar("half", 0.5);
  const maskF = g.node("Cast", [mask], { to: ONNX_DTYPE.float });

  // Position ids: real tokens counted from 0; padding gets 0. The position embedding is a one-hot [B, T, Tmax]
  // times wpe (exact: one nonzero term per sum) rather than a Gather with computed int64 indices, which
  // onnxruntime-web's WebGPU EP (1.30) evaluates wrongly; ids ≥ Tmax get a zero position embedding.
  const count = g.node("CumSum", [maskF, g.init("axis_1_scalar", [], BigInt64Array.of(1n))]);
  const posF = g.node("Relu", [g.node("Sub", [count, one])]); // [B, T]
  const range = g.init(
    "position_range",
    [Tmax],
    Float32Array.from({ length: Tmax }, (_, i) => i),
  );
  const posOneHot = g.node(
    "Cast",
    [g.node("Equal", [g.node("Unsqueeze", [posF, g.ints("axis_2_u", [2])]), range])],
    {
      to: ONNX_DTYPE.float,
    },
  ); // [B, T, Tmax]
  let x = g.node("Add", [
    g.node("Gather", [weight("wte.weight"), ids]),
    g.node("MatMul", [posOneHot, weight("wpe.weight")]),
  ]);

  // Attention bias [B, 1, T, T]: padding keys (mask 0) and future keys get MASK_BIAS.
  const bias = g.scalar("mask_bias", -MASK_BIAS);
  const keyBias = g.node("Unsqueeze", [
    g.node("Mul", [g.node("Sub", [maskF, one]), bias]),
    g.ints("axes_1_2", [1, 2]),
  ]);
  const causalTable = new Float32Array(Tmax * Tmax);
  for (let i = 0; i < Tmax; i++) for (let j = i + 1; j < Tmax; j++) causalTable[i * Tmax + j] = MASK_BIAS;
  const T1 = g.node("Shape", [ids], { start: 1, end: 2 });
  const ends = g.node("Concat", [T1, T1], { axis: 0 });
  const causal = g.node("Slice", [
    g.init("causal_bias", [Tmax, Tmax], causalTable),
    g.ints("zeros_2", [0, 0]),
    ends,
    g.ints("axes_0_1", [0, 1]),
  ]);
  const attBias = g.node("Add", [keyBias, causal]);

  const headShape = g.ints("head_shape", [0, 0, H, hs]);
  const mergedShape = g.ints("merged_shape", [0, 0, C]);
  const split = g.ints("qkv_split", [C, C, C]);
  const scale = g.scalar("att_scale", 1 / Math.sqrt(hs));
  const geluK = g.scalar("gelu_k", Math.sqrt(2 / Math.PI));
  const geluA = g.scalar("gelu_a", 0.044715);
  const heads = (t: string, perm: number[]) =>
    g.node("Transpose", [g.node("Reshape", [t, headShape])], { perm });

  for (let l = 0; l < L; l++) {
    const h = `h.${l}`;
    const qkv = linear(layerNorm(x, `${h}.ln_1`), `${h}.attn.c_attn`); // [B, T, 3C]
    const [q, k, v] = g.nodeN("Split", [qkv, split], 3, { axis: 2 });
    const qh = heads(q, [0, 2, 1, 3]); // [B, H, T, hs]
    const kt = heads(k, [0, 2, 3, 1]); // [B, H, hs, T]
    const vh = heads(v, [0, 2, 1, 3]); // [B, H, T, hs]
    const scores = g.node("Add", [g.node("Mul", [g.node("MatMul", [qh, kt]), scale]), attBias]); // [B, H, T, T]
    const probs = g.node("Softmax", [scores], { axis: -1 });
    const y = g.node("Reshape", [
      g.node("Transpose", [g.node("MatMul", [probs, vh])], { perm: [0, 2, 1, 3] }),
      mergedShape,
    ]);
    const mid = g.node("Add", [x, linear(y, `${h}.attn.c_proj`)]);
    const fc = linear(layerNorm(mid, `${h}.ln_2`), `${h}.mlp.c_fc`); // [B, T, 4C]
    // GELU (tanh approximation): 0.5·u·(1 + tanh(√(2/π)·(u + 0.044715·u³))).
    const cube = g.node("Mul", [g.node("Mul", [fc, fc]), fc]);
    const inner = g.node("Mul", [g.node("Add", [fc, g.node("Mul", [cube, geluA])]), geluK]);
    const gelu = g.node("Mul", [g.node("Mul", [fc, half]), g.node("Add", [g.node("Tanh", [inner]), one])]);
    x = g.node("Add", [mid, linear(gelu, `${h}.mlp.c_proj`)]);
  }
  const lnf = layerNorm(x, "ln_f");
  return { g, ids, maskF, lnf, weight, weightT, linear };
}
