/**
 * "Never written" made visible to the kernel tests: WebGPU zero-fills a new buffer, so an output element a kernel
 * skips reads 0 and can match a twin's 0. A kernel test's context fills every tensor it creates without data
 * with the bits 0x7fc00000 (f32: a quiet NaN; i32/u32: 2143289344) instead, and expectClose names the elements
 * that still hold them after the dispatch. An output the real code accumulates into (+=) must be created with
 * the data the real code gives it (zeros, or the previous gradient), never left to the fill.
 */
import { GpuContext } from "../../src/gpu/context";
import { type DType, numel, type Tensor } from "../../src/gpu/tensor";

/** The fill's bit pattern, the same for every dtype. */
export const UNWRITTEN_BITS = 0x7fc00000;

/** `n` elements of `dtype` holding UNWRITTEN_BITS. */
function fill(dtype: DType, n: number): Float32Array | Uint32Array | Int32Array {
  const bits = new Uint32Array(n).fill(UNWRITTEN_BITS);
  if (dtype === "f32") return new Float32Array(bits.buffer);
  return dtype === "i32" ? new Int32Array(bits.buffer) : bits;
}

/** A context whose tensors created without data hold UNWRITTEN_BITS (with data: as GpuContext). */
export class UnwrittenFillContext extends GpuContext {
  override tensor<D extends DType = "f32">(
    shape: readonly number[],
    dtype: D = "f32" as D,
    label = "tensor",
    data?: ArrayLike<number>,
  ): Tensor<D> {
    return super.tensor(shape, dtype, label, data ?? fill(dtype, numel(shape)));
  }
}

/**
 * Indices where a read-back output still holds UNWRITTEN_BITS and `ref` does not expect a NaN (for f32) or that
 * very integer: the elements the kernel never wrote. Empty for arrays that are not 32-bit typed arrays (their
 * bits are gone; a NaN there still fails the comparison, without this name).
 */
export function unwrittenElements(gpu: ArrayLike<number>, ref: ArrayLike<number>): number[] {
  if (!(gpu instanceof Float32Array || gpu instanceof Int32Array || gpu instanceof Uint32Array)) return [];
  const bits = new Uint32Array(gpu.buffer, gpu.byteOffset, gpu.length);
  const out: number[] = [];
  for (let i = 0; i < bits.length && i < ref.length; i++)
    if (bits[i] === UNWRITTEN_BITS && !(Number.isNaN(ref[i]) || ref[i] === gpu[i])) out.push(i);
  return out;
}
