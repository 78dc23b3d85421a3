/**
 * Bind groups reused across dispatches. Creating one is most of a dispatch's CPU cost in Dawn (16–24 µs of the
 * 25–34 µs a small dispatch took to record on a 2-core VM, 2026-12-04; on an H200 a loop iteration of ~51 small
 * dispatches took 1.8 ms, bound by recording, not arithmetic), and a caller that loops records the same kernels
 * over the same tensors iteration after iteration. Only the uniform parameters change between such dispatches, and
 * those are bound at dynamic offsets into the uniform arena's chunks (layouts declare uniform bindings with
 * `hasDynamicOffset`, see pipeline.ts), so the group itself is the same and is looked up instead of created.
 *
 * Keyed by the layout and each binding's (buffer, offset, size). Buffers are keyed by identity, so a destroyed
 * buffer's groups are never matched again; they are dropped when the cache is cleared at {@link MAX_GROUPS}.
 */

/** Groups kept before the cache starts over (a loop over many kernels and tensors needs a few thousand). */
export const MAX_GROUPS = 16384;

/**
 * Bind groups of one device keyed by layout and buffer ranges, cleared at {@link MAX_GROUPS}. Owned by a
 * GpuContext for the device's life; holds no GPU resource that needs destroying.
 */
export class BindGroupCache {
  private readonly groups = new Map<string, GPUBindGroup>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;
  /** Groups created since the cache was made (tests and benchmarks count them). */
  created = 0;

  constructor(private readonly device: GPUDevice) {}

  private id(o: object): number {
    let i = this.ids.get(o);
    if (i === undefined) {
      i = this.nextId++;
      this.ids.set(o, i);
    }
    return i;
  }

  /**
   * The bind group of `layout` with buffer `entries` (each resource a GPUBufferBinding), created on first use.
   * @throws whatever `createBindGroup` throws for entries that do not fit the layout.
   */
  get(layout: GPUBindGroupLayout, entries: GPUBindGroupEntry[], label: string): GPUBindGroup {
    let key = String(this.id(layout));
    for (const e of entries) {
      const r = e.resource as GPUBufferBinding;
      key += `|${this.id(r.buffer)}:${r.offset ?? 0}:${r.size ?? -1}`;
    }
    let g = this.groups.get(key);
    if (!g) {
      if (this.groups.size >= MAX_GROUPS) this.groups.clear();
      g = this.device.createBindGroup({ label, layout, entries });
      this.groups.set(key, g);
      this.created++;
    }
    return g;
  }

  /** Groups held now. */
  get size(): number {
    return this.groups.size;
  }
}
