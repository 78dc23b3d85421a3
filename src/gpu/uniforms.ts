/**
 * Kernel parameters. `params()` packs a flat struct of 4-byte scalars (matching a WGSL struct of u32/i32/f32
 * fields in the same order). The `UniformArena` places every dispatch's parameters in a few shared uniform
 * buffers at 256-byte-aligned offsets and uploads them with one `writeBuffer` per chunk at submit time; queue
 * ordering makes reusing the chunks for the next submission safe.
 */

/** A WGSL scalar field: `["u32", 7]`, `["i32", -1]` or `["f32", 0.5]`. */
export type Param = readonly ["u32" | "i32" | "f32", number];

/**
 * Pack fields into the bytes of a WGSL struct of 4-byte scalars (no vec3 or padding rules needed), little-endian,
 * one 4-byte word per field (at least one word). f32 values are rounded to f32 (NaN and ±∞ pass through).
 * @throws RangeError naming the field's index if a u32 value is not an integer in [0, 2³² − 1] or an i32 value
 *   is not an integer in [−2³¹, 2³¹ − 1].
 */
export function params(...fields: Param[]): Uint32Array {
  const buf = new ArrayBuffer(Math.max(fields.length, 1) * 4);
  const dv = new DataView(buf);
  fields.forEach(([type, v], i) => {
    if (type === "f32") dv.setFloat32(i * 4, v, true);
    else if (type === "i32") {
      if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff)
        throw new RangeError(`i32 parameter ${i} out of range: ${v}`);
      dv.setInt32(i * 4, v, true);
    } else {
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
        throw new RangeError(`u32 parameter ${i} out of range: ${v}`);
      dv.setUint32(i * 4, v, true);
    }
  });
  return new Uint32Array(buf);
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Uniform buffers of 64 KiB for one device, filled by push() (blocks rounded up to 16 B and zero-padded, at the
 * device's offset alignment) and uploaded by flush(). Owned by a GpuContext, which flushes it at submit and destroys
 * it. push() throws RangeError for a block over 64 KiB.
 */
export class UniformArena {
  private readonly chunks: { buffer: GPUBuffer; data: Uint8Array }[] = [];
  private chunk = 0;
  private offset = 0;
  private readonly align: number;

  constructor(private readonly device: GPUDevice) {
    this.align = device.limits.minUniformBufferOffsetAlignment;
  }

  /** Reserve space for `data` and return the binding for it; uploaded by `flush()`. */
  push(data: ArrayBufferView): GPUBufferBinding {
    const size = Math.max(16, Math.ceil(data.byteLength / 16) * 16);
    if (size > CHUNK_BYTES)
      throw new RangeError(`uniform block of ${data.byteLength} B exceeds ${CHUNK_BYTES} B`);
    if (this.offset + size > CHUNK_BYTES) {
      this.chunk++;
      this.offset = 0;
    }
    if (this.chunk === this.chunks.length)
      this.chunks.push({
        buffer: this.device.createBuffer({
          label: `uniforms[${this.chunk}]`,
          size: CHUNK_BYTES,
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        }),
        data: new Uint8Array(CHUNK_BYTES),
      });
    const c = this.chunks[this.chunk];
    c.data.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), this.offset);
    // The padding up to `size` is uploaded too: zero it, or a struct with more fields than were pushed would
    // read an earlier dispatch's values there.
    c.data.fill(0, this.offset + data.byteLength, this.offset + size);
    const binding = { buffer: c.buffer, offset: this.offset, size };
    this.offset = Math.ceil((this.offset + size) / this.align) * this.align;
    return binding;
  }

  /** Upload what was pushed since the last flush (call right before queue.submit) and start over. */
  flush(): void {
    for (let i = 0; i <= this.chunk && i < this.chunks.length; i++) {
      const used = i < this.chunk ? CHUNK_BYTES : this.offset;
      if (used > 0) this.device.queue.writeBuffer(this.chunks[i].buffer, 0, this.chunks[i].data, 0, used);
    }
    this.chunk = 0;
    this.offset = 0;
  }

  destroy(): void {
    for (const c of this.chunks) c.buffer.destroy();
    this.chunks.length = 0;
  }
}
