/**
 * Asynchronous readback through a pool of MAP_READ staging buffers. A read records a copy into a free staging
 * buffer, the caller submits, and `mapAsync` resolves when the GPU gets there: nothing waits on the queue, and a
 * buffer is never reused while mapped. Buffers are bucketed by power-of-two size and kept for reuse.
 */

/**
 * Staging buffers kept per size bucket; more are created when needed and destroyed when returned. Callers read
 * up to five same-sized tensors at once: four kept made one new buffer per such batch of reads.
 */
const KEEP_PER_BUCKET = 8;
const MIN_BUCKET = 256;

function bucketSize(bytes: number): number {
  let s = MIN_BUCKET;
  while (s < bytes) s *= 2;
  return s;
}

/**
 * MAP_READ | COPY_DST staging buffers for one device, in power-of-two buckets of ≥ 256 B, up to 8 kept per
 * bucket. Owned by a GpuContext (its read() uses it), which destroys it; a failed map destroys that buffer
 * and rethrows.
 */
export class ReadbackPool {
  private readonly free = new Map<number, GPUBuffer[]>();
  /** Staging buffers currently in flight (copied to, being mapped, or mapped). */
  inFlight = 0;
  /** Staging buffers created over the pool's life (tests check reuse). */
  created = 0;

  constructor(private readonly device: GPUDevice) {}

  /** A staging buffer of at least `bytes` bytes, from the pool when one is free. */
  acquire(bytes: number): GPUBuffer {
    const size = bucketSize(bytes);
    const list = this.free.get(size);
    this.inFlight++;
    const reused = list?.pop();
    if (reused) return reused;
    this.created++;
    return this.device.createBuffer({
      label: `readback[${size}]`,
      size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  /** Map `staging` (after its copy was submitted), copy `bytes` out, unmap and return it to the pool. */
  async take(staging: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    try {
      await staging.mapAsync(GPUMapMode.READ, 0, bucketSize(bytes));
      const out = staging.getMappedRange(0, bucketSize(bytes)).slice(0, bytes);
      staging.unmap();
      this.release(staging);
      return out;
    } catch (e) {
      this.inFlight--;
      staging.destroy();
      throw e;
    }
  }

  private release(staging: GPUBuffer): void {
    this.inFlight--;
    const list = this.free.get(staging.size) ?? [];
    if (list.length < KEEP_PER_BUCKET) {
      list.push(staging);
      this.free.set(staging.size, list);
    } else staging.destroy();
  }

  destroy(): void {
    for (const list of this.free.values()) for (const b of list) b.destroy();
    this.free.clear();
  }
}
