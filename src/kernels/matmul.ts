/**
 * Batched matmul with optional transposes and bias; CPU twin: src/reference/matmul.ts. Two variants with one
 * contract: `tiled` (src/shaders/matmul.wgsl: 16×16 shared-memory tiles, for real GPUs) and `regtile`
 * (src/shaders/matmul_regtile.wgsl: 4×4 register blocks, no barriers, for software adapters). The variant is
 * chosen per context (see src/kernels/autotune.ts) or forced per call.
 */
import type { GpuContext } from "../gpu/context";
import { defineKernel, type Kernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import type { MatmulShape } from "../reference/matmul";
import tiledSource from "../shaders/matmul.wgsl?raw";
import regtileSource from "../shaders/matmul_regtile.wgsl?raw";

export type MatmulVariant = "tiled" | "regtile";
export const MATMUL_VARIANTS: readonly MatmulVariant[] = ["tiled", "regtile"];

/** Tile edge of the `tiled` variant: TILE × TILE threads and TILE × TILE shared-memory tiles. */
export const MATMUL_TILE = 16;
/** Outputs per thread along each axis in the `regtile` variant (the shader's 4×4 accumulator). */
export const REGTILE_BLOCK = 4;

const BINDINGS = [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "read-only-storage",
  "storage",
] as const;

/**
 * Kernel handle of the `tiled` {@link matmul} variant (MATMUL_TILE² threads a workgroup); plain data: each
 * GpuContext compiles it on first dispatch and keeps it; nothing to destroy.
 */
export const matmulKernel = defineKernel({
  name: "matmul",
  source: tiledSource,
  bindings: BINDINGS,
  workgroupSize: [MATMUL_TILE, MATMUL_TILE],
});

/**
 * Kernel handle of the `regtile` {@link matmul} variant (8×8 threads a workgroup); plain data, as
 * matmulKernel.
 */
export const matmulRegtileKernel = defineKernel({
  name: "matmul_regtile",
  source: regtileSource,
  bindings: BINDINGS,
  workgroupSize: [8, 8],
});

/** Per-context variant choice (set by autotune; default by adapter kind). */
const chosen = new WeakMap<GpuContext, MatmulVariant>();

/** A variant forced for a while ({@link withMatmulVariant}). */
const forced = new WeakMap<GpuContext, MatmulVariant>();

/** The matmul variant this context uses unless a call forces one. */
export function matmulVariant(ctx: GpuContext): MatmulVariant {
  return forced.get(ctx) ?? chosen.get(ctx) ?? (ctx.adapter.isSoftware ? "regtile" : "tiled");
}

/**
 * Run `f` (which records work) with every matmul on `ctx` using `v`, then go back to the context's choice: the
 * self-test checks each variant, since training uses the one its own timing picked, not the default.
 */
export function withMatmulVariant<T>(ctx: GpuContext, v: MatmulVariant, f: () => T): T {
  const outer = forced.get(ctx);
  forced.set(ctx, v);
  try {
    return f();
  } finally {
    if (outer) forced.set(ctx, outer);
    else forced.delete(ctx);
  }
}

/** Fix the variant for a context (autotune calls this after timing both). */
export function setMatmulVariant(ctx: GpuContext, v: MatmulVariant): void {
  chosen.set(ctx, v);
}

export interface MatmulOptions extends MatmulShape {
  /** C += op(A)·op(B) instead of C = op(A)·op(B) (gradient accumulation). Default false. */
  accumulate?: boolean;
  /** Added to every output row: [N]. Default none. */
  bias?: Tensor | null;
  /** Broadcast A (or B) over the batch: stride 0. Default false. */
  broadcastA?: boolean;
  broadcastB?: boolean;
  /** Force a variant (tests, benchmarks). Default: the context's choice. */
  variant?: MatmulVariant;
}

/**
 * Record C = op(A)·op(B) (+ bias) for each of `batch` matrices. A: [M, K] ([K, M] if transA); B: [K, N]
 * ([N, K] if transB); C: [M, N]; bias: [N]. Sizes are checked against the shape.
 * @throws RangeError when a tensor's element count does not match the shape.
 */
export function matmul(ctx: GpuContext, c: Tensor, a: Tensor, b: Tensor, o: MatmulOptions): void {
  const { batch, M, N, K } = o;
  const strideA = o.broadcastA ? 0 : M * K;
  const strideB = o.broadcastB ? 0 : K * N;
  if (a.size !== (o.broadcastA ? M * K : batch * M * K))
    throw new RangeError(`matmul: A ${a} does not fit M=${M} K=${K}`);
  if (b.size !== (o.broadcastB ? K * N : batch * K * N))
    throw new RangeError(`matmul: B ${b} does not fit K=${K} N=${N}`);
  if (c.size !== batch * M * N)
    throw new RangeError(`matmul: C ${c} does not fit batch=${batch} M=${M} N=${N}`);
  if (o.bias && o.bias.size !== N)
    throw new RangeError(`matmul: bias ${o.bias} does not have N=${N} elements`);
  const variant = o.variant ?? matmulVariant(ctx);
  const kernel: Kernel = variant === "tiled" ? matmulKernel : matmulRegtileKernel;
  const [wx, wy = 1] = kernel.workgroupSize;
  const per = variant === "tiled" ? 1 : REGTILE_BLOCK;
  ctx.dispatch(kernel, {
    bindings: [
      params(["u32", M], ["u32", N], ["u32", K], ["u32", strideA], ["u32", strideB], ["u32", M * N]),
      a,
      b,
      o.bias ?? a,
      c,
    ],
    workgroups: [Math.ceil(N / (wx * per)), Math.ceil(M / (wy * per)), batch],
    constants: { TRANS_A: !!o.transA, TRANS_B: !!o.transB, ACCUMULATE: !!o.accumulate, HAS_BIAS: !!o.bias },
  });
}
