/**
 * The CSR scatter index that makes the embedding backward deterministic without float atomics. The trainer
 * knows every batch's token and position ids on the CPU, so it groups them here, uploads three small u32
 * tensors, and src/shaders/embedding_backward.wgsl sums each id's dout rows in a fixed order with one writer
 * per (id, channel).
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";

/** Occurrences of each distinct id, CSR style. */
export interface ScatterIndex {
  /** [U] the distinct ids in [0, numRows), ascending. */
  rowIds: Uint32Array;
  /** [U + 1] rowIds[u] occurs at positions[offsets[u] .. offsets[u + 1]). offsets[0] = 0. */
  offsets: Uint32Array;
  /** [M] indices n into `ids` (ascending within each id); M = number of in-range ids. */
  positions: Uint32Array;
}

/**
 * Group the indices of `ids` by value: for the embedding backward, ids are the [B, T] token ids (numRows = V)
 * or position ids (numRows = maxT) in row-major order. Ids outside [0, numRows) are dropped: their rows get no
 * gradient, matching the forward pass, which embeds them as zeros. O(N + numRows) counting sort.
 * @throws RangeError if numRows is not a non-negative integer.
 */
export function buildScatterIndex(ids: ArrayLike<number>, numRows: number): ScatterIndex {
  if (!Number.isInteger(numRows) || numRows < 0)
    throw new RangeError(`buildScatterIndex: numRows must be a non-negative integer, got ${numRows}`);
  const inRange = (v: number) => Number.isInteger(v) && v >= 0 && v < numRows;
  const counts = new Uint32Array(numRows);
  for (let n = 0; n < ids.length; n++) if (inRange(ids[n])) counts[ids[n]]++;
  let unique = 0;
  for (let v = 0; v < numRows; v++) if (counts[v]) unique++;
  const rowIds = new Uint32Array(unique);
  const offsets = new Uint32Array(unique + 1);
  const start = new Uint32Array(numRows); // next free slot of each id in `positions`
  let u = 0;
  for (let v = 0; v < numRows; v++) {
    if (!counts[v]) continue;
    rowIds[u] = v;
    start[v] = offsets[u];
    offsets[u + 1] = offsets[u] + counts[v];
    u++;
  }
  const positions = new Uint32Array(offsets[unique]);
  for (let n = 0; n < ids.length; n++) if (inRange(ids[n])) positions[start[ids[n]]++] = n;
  return { rowIds, offsets, positions };
}

/** A {@link ScatterIndex} on the GPU. */
export interface GpuScatterIndex {
  /** [≥ U] u32. */
  rowIds: Tensor;
  /** [≥ U + 1] u32. */
  offsets: Tensor;
  /** [≥ M] u32. */
  positions: Tensor;
  /** U: the distinct ids in use (the tensors may be larger, so that they can be reused across steps). */
  numUnique: number;
}

/**
 * Upload an index: into `reuse`'s tensors when they are large enough (no allocation per training step), else
 * into new u32 tensors labelled `${label}.rowIds` etc.; a `reuse` tensor too small is destroyed once the work
 * recorded so far (which may read it) is submitted. Callers keep the returned index in place of `reuse`.
 */
export function uploadScatterIndex(
  ctx: GpuContext,
  index: ScatterIndex,
  label = "scatter",
  reuse?: GpuScatterIndex,
): GpuScatterIndex {
  const place = (t: Tensor | undefined, data: Uint32Array, name: string): Tensor => {
    if (t && t.dtype === "u32" && t.size >= data.length) {
      ctx.upload(t, data);
      return t;
    }
    if (t) {
      ctx.submit(); // the dispatches recorded with it run first; WebGPU frees it once they have finished
      t.destroy();
    }
    return ctx.tensor([data.length], "u32", `${label}.${name}`, data);
  };
  return {
    rowIds: place(reuse?.rowIds, index.rowIds, "rowIds"),
    offsets: place(reuse?.offsets, index.offsets, "offsets"),
    positions: place(reuse?.positions, index.positions, "positions"),
    numUnique: index.rowIds.length,
  };
}
