/** Batched matmul with optional transposes and bias (src/shaders/matmul.wgsl); CPU twin: src/reference/matmul.ts. */
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import type { MatmulShape } from "../reference/matmul";
import source from "../shaders/matmul.wgsl?raw";

/** Tile edge: the workgroup is TILE × TILE threads and the shared-memory tiles are TILE × TILE floats. */
export const MATMUL_TILE = 16;

export const matmulKernel = defineKernel({
  name: "matmul",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "read-only-storage", "storage"],
  workgroupSize: [MATMUL_TILE, MATMUL_TILE],
});

export interface MatmulOptions extends MatmulShape {
  /** C += op(A)·op(B) instead of C = op(A)·op(B) (gradient accumulation). Default false. */
  accumulate?: boolean;
  /** Added to every output row: [N]. Default none. */
  bias?: Tensor | null;
  /** Broadcast A (or B) over the batch: stride 0. Default false. */
  broadcastA?: boolean;
  broadcastB?: boolean;
}

/**
 * Record C = op(A)·op(B) for each of `batch` matrices. Sizes are checked against the shape.
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
  ctx.dispatch(matmulKernel, {
    bindings: [
      params(["u32", M], ["u32", N], ["u32", K], ["u32", strideA], ["u32", strideB], ["u32", M * N]),
      a,
      b,
      o.bias ?? a,
      c,
    ],
    workgroups: [Math.ceil(N / MATMUL_TILE), Math.ceil(M / MATMUL_TILE), batch],
    constants: { TRANS_A: !!o.transA, TRANS_B: !!o.transB, ACCUMULATE: !!o.accumulate, HAS_BIAS: !!o.bias },
  });
}
