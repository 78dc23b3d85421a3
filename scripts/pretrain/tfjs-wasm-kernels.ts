/**
 * Kernel patches for TF.js's WASM backend, so the GPT twin (cli/bench/tfjs-gpt.ts) trains there at full speed:
 * - `UnsortedSegmentSum` (the gradient of `gather`, i.e. of the token and position embeddings) is missing from
 *   the backend: out[s, :] = Σ over rows n with segmentIds[n] = s of x[n, :], in plain JS on the heap, in order.
 * - `BatchMatMul` is rerouted. Measured on `tiny`'s shapes (B·T = 2048, C = 128) the WASM kernel runs
 *   ~23 GFLOP/s for a plain 2-D product, but ~10× slower with transposeB, ~20× with transposeA (autodiff of
 *   x·Wᵀ uses both) and ~5× slower for batched products (attention, [B, H, T, T]·[B, H, T, hs]). The wrapper
 *   transposes an operand explicitly (the WASM Transpose kernel, a copy) and runs a large batched product as one
 *   2-D product per batch entry, so every product takes the fast path.
 * Every output element is still one dot product computed by the same 2-D kernel; results are deterministic
 * (no threads are involved: see ./tfjs-wasm.ts).
 */
import type { Tf } from "../../cli/bench/tfjs-peer";

type KernelFunc = NonNullable<ReturnType<Tf["getKernel"]>>["kernelFunc"];
type TensorInfo = { dataId: object; shape: number[]; dtype: string };

/** The parts of the WASM backend (BackendWasm) used here. */
interface WasmBackendLike {
  readSync(dataId: object): ArrayLike<number>;
  makeOutput(shape: number[], dtype: "float32"): TensorInfo;
  /** A view of the tensor's data on the WASM heap (invalidated when the heap grows: re-take after makeOutput). */
  typedArrayFromHeap(t: TensorInfo): Float32Array;
  disposeData(dataId: object): void;
}

/**
 * Multiply-adds per batch entry (M·K·N) from which the per-entry 2-D route pays: below it (e.g. arithmetic's
 * 12-token rows) the per-call overhead of ~B·H small products costs more than the batched kernel's slowness.
 */
const MIN_PER_BATCH_WORK = 64 * 64 * 64;

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** Register the patches above for backend "wasm" (idempotent). */
export function registerWasmKernels(tf: Tf): void {
  if (tf.getKernel("UnsortedSegmentSum", "wasm")) return;
  wrapBatchMatMul(tf);
  tf.registerKernel({
    kernelName: "UnsortedSegmentSum",
    backendName: "wasm",
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, segmentIds } = inputs as unknown as Record<string, TensorInfo>;
      const { numSegments } = attrs as unknown as { numSegments: number };
      const be = backend as unknown as WasmBackendLike;
      const N = size(segmentIds.shape);
      const inner = x.shape.slice(segmentIds.shape.length);
      const C = size(inner);
      const xs = be.readSync(x.dataId);
      const ids = be.readSync(segmentIds.dataId);
      const out = be.makeOutput([numSegments, ...inner], "float32");
      const o = be.typedArrayFromHeap(out);
      o.fill(0);
      for (let n = 0; n < N; n++) {
        const s = ids[n];
        if (s < 0 || s >= numSegments) continue;
        for (let c = 0; c < C; c++) o[s * C + c] += xs[n * C + c];
      }
      return out as never;
    },
  });
}

function wrapBatchMatMul(tf: Tf): void {
  const orig = tf.getKernel("BatchMatMul", "wasm");
  const transpose = tf.getKernel("Transpose", "wasm")?.kernelFunc;
  if (!orig || !transpose) throw new Error("TF.js WASM backend has no BatchMatMul / Transpose kernel");
  const matmul = orig.kernelFunc;
  const plain = { transposeA: false, transposeB: false };
  /** x with its last two axes swapped, materialised. */
  const swapLast = (x: TensorInfo, backend: unknown): TensorInfo => {
    const perm = x.shape.map((_, i) => i);
    [perm[perm.length - 2], perm[perm.length - 1]] = [perm[perm.length - 1], perm[perm.length - 2]];
    return transpose({ inputs: { x } as never, backend: backend as never, attrs: { perm } }) as TensorInfo;
  };
  /** a [..., M, K] · b [..., K, N] with equal batch dims, one 2-D product per batch entry. */
  const perBatch = (a: TensorInfo, b: TensorInfo, be: WasmBackendLike): TensorInfo => {
    const [M, K] = a.shape.slice(-2);
    const N = b.shape[b.shape.length - 1];
    const batch = size(a.shape.slice(0, -2));
    const out = be.makeOutput([...a.shape.slice(0, -2), M, N], "float32");
    for (let i = 0; i < batch; i++) {
      const ai = be.makeOutput([M, K], "float32");
      const bi = be.makeOutput([K, N], "float32");
      be.typedArrayFromHeap(ai).set(be.typedArrayFromHeap(a).subarray(i * M * K, (i + 1) * M * K));
      be.typedArrayFromHeap(bi).set(be.typedArrayFromHeap(b).subarray(i * K * N, (i + 1) * K * N));
      const oi = matmul({
        inputs: { a: ai, b: bi } as never,
        backend: be as never,
        attrs: plain,
      }) as TensorInfo;
      be.typedArrayFromHeap(out).set(be.typedArrayFromHeap(oi), i * M * N);
      for (const t of [ai, bi, oi]) be.disposeData(t.dataId);
    }
    return out;
  };
  const kernelFunc: KernelFunc = (args) => {
    const { inputs, backend, attrs } = args;
    const { a, b } = inputs as unknown as { a: TensorInfo; b: TensorInfo };
    const { transposeA, transposeB } = attrs as unknown as { transposeA: boolean; transposeB: boolean };
    const be = backend as unknown as WasmBackendLike;
    const at = transposeA ? swapLast(a, backend) : a;
    const bt = transposeB ? swapLast(b, backend) : b;
    const batchA = at.shape.slice(0, -2);
    const batched =
      size(batchA) > 1 &&
      at.dtype === "float32" &&
      batchA.join(",") === bt.shape.slice(0, -2).join(",") &&
      size(at.shape.slice(-2)) * bt.shape[bt.shape.length - 1] >= MIN_PER_BATCH_WORK;
    const out = batched
      ? perBatch(at, bt, be)
      : (matmul({ inputs: { a: at, b: bt } as never, backend, attrs: { ...attrs, ...plain } }) as TensorInfo);
    if (at !== a) be.disposeData(at.dataId);
    if (bt !== b) be.disposeData(bt.dataId);
    return out as never;
  };
  tf.unregisterKernel("BatchMatMul", "wasm");
  tf.registerKernel({ ...orig, kernelFunc });
}
