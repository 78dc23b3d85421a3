/**
 * A small tensor type: a shape, a dtype and a region of a GPU buffer. Views share the buffer (the engine
 * keeps all parameters in one flat buffer with named views), so a tensor is (buffer, byte offset, shape).
 */

/** Element types the kernels use. All are 4 bytes wide. */
export type DType = "f32" | "i32" | "u32";

export type TypedArrayFor<D extends DType> = D extends "f32"
  ? Float32Array
  : D extends "i32"
    ? Int32Array
    : Uint32Array;

export const BYTES_PER_ELEMENT = 4;

/** Number of elements of a shape; [] is a scalar (1 element). Throws on negative or fractional dims. */
export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new RangeError(`invalid shape [${shape.join(", ")}]`);
    n *= d;
  }
  return n;
}

/**
 * A typed array of the dtype over `buffer` (a copy of readback data), sharing its bytes.
 * @throws TypeError for an unknown dtype; RangeError if `buffer.byteLength` is not a multiple of 4.
 */
export function typedArray<D extends DType>(dtype: D, buffer: ArrayBuffer): TypedArrayFor<D> {
  switch (dtype) {
    case "f32":
      return new Float32Array(buffer) as TypedArrayFor<D>;
    case "i32":
      return new Int32Array(buffer) as TypedArrayFor<D>;
    case "u32":
      return new Uint32Array(buffer) as TypedArrayFor<D>;
  }
  throw new TypeError(`unknown dtype ${dtype}`);
}

/**
 * A dense row-major tensor of 4-byte elements at `byteOffset` in a GPU buffer. It holds no data on the CPU: make
 * one with `GpuContext.tensor()` (own buffer) or `view()` (shared buffer), read it with `GpuContext.read()`. The
 * constructor checks nothing.
 */
export class Tensor<D extends DType = DType> {
  constructor(
    /** The GPU buffer holding the data (shared by views). */
    readonly buffer: GPUBuffer,
    /** Dimensions, outermost first (non-negative integers); [] is a scalar. Element count: {@link size}. */
    readonly shape: readonly number[],
    readonly dtype: D,
    /** Name shown in validation errors and debugging, e.g. "x" or, for a named view, "parent:name". */
    readonly label: string,
    /**
     * Start of this tensor in `buffer`, in bytes, a multiple of 4. A tensor bound to a kernel needs a multiple of
     * the device's minStorageBufferOffsetAlignment (256 B by default): the caller ensures it, `view()` does not
     * check (copies and reads need only 4 B).
     */
    readonly byteOffset = 0,
  ) {}

  /** Number of elements. */
  get size(): number {
    return numel(this.shape);
  }

  /** Size in bytes (4 per element). */
  get byteSize(): number {
    return this.size * BYTES_PER_ELEMENT;
  }

  /** The binding resource for a bind group entry; zero-size tensors bind 4 bytes (WebGPU forbids 0). */
  get binding(): GPUBufferBinding {
    return { buffer: this.buffer, offset: this.byteOffset, size: Math.max(this.byteSize, BYTES_PER_ELEMENT) };
  }

  /**
   * A view of `shape` starting `elementOffset` elements into this tensor, sharing the buffer. To bind the view,
   * the resulting byte offset must be a multiple of minStorageBufferOffsetAlignment (see {@link byteOffset}).
   * @throws RangeError if the view runs past the end of this tensor or `shape` is invalid.
   */
  view(shape: readonly number[], elementOffset = 0, label = this.label): Tensor<D> {
    if (elementOffset < 0 || elementOffset + numel(shape) > this.size)
      throw new RangeError(
        `view [${shape}] at ${elementOffset} runs outside "${this.label}" [${this.shape}]`,
      );
    return new Tensor(
      this.buffer,
      shape,
      this.dtype,
      label,
      this.byteOffset + elementOffset * BYTES_PER_ELEMENT,
    );
  }

  /**
   * Same data, new shape of the same element count.
   * @throws RangeError if `shape` is invalid or its element count differs from {@link size}.
   */
  reshape(shape: readonly number[]): Tensor<D> {
    if (numel(shape) !== this.size) throw new RangeError(`cannot reshape [${this.shape}] to [${shape}]`);
    return new Tensor(this.buffer, shape, this.dtype, this.label, this.byteOffset);
  }

  /** Free the GPU buffer (and with it every view of it). Using the tensor afterwards is a validation error. */
  destroy(): void {
    this.buffer.destroy();
  }

  toString(): string {
    return `Tensor(${this.label}, [${this.shape.join("×")}] ${this.dtype})`;
  }
}
