/**
 * GpuContext: one device and everything needed to run kernels on it. Dispatches are recorded into one
 * command encoder (one compute pass) and submitted together by `submit()` or by the next `read()`, so a
 * caller records a whole batch of kernels and only a few scalars come back, asynchronously.
 */

import { BindGroupCache } from "./bind_groups";
import type { AdapterReport } from "./device";
import { GpuDeviceLostError, GpuLimitError, GpuValidationError, maxBindableBytes } from "./errors";
import { type Constants, type Kernel, PipelineCache } from "./pipeline";
import { ReadbackPool } from "./readback";
import { BYTES_PER_ELEMENT, type DType, numel, Tensor, type TypedArrayFor, typedArray } from "./tensor";
import { UniformArena } from "./uniforms";

/** How long a failed buffer map waits for the device's loss before it is read as an error of its own (ms). */
const LOSS_SETTLE_MS = 2000;
/** The same for a map that failed as a destroyed device's maps fail: device.lost has been seen > 2 s late then. */
const DESTROYED_SETTLE_MS = 15_000;
/** How a map fails when its device was destroyed under it (Chrome's words). */
const DESTROYED_MAP = /unmapped before mapping was resolved|device (was|is) (destroyed|lost)/i;

/** A dispatch size: a linear workgroup count (split over x/y above the per-dimension limit) or an explicit grid. */
export type Workgroups = number | readonly [number, number?, number?];

export interface DispatchOptions {
  /** Buffers for @binding(0..n-1) in the kernel's declared order; `uniform` slots take parameter bytes. */
  bindings: readonly (Tensor | ArrayBufferView)[];
  /**
   * A number n dispatches n workgroups in total: [n,1,1] when n fits the per-dimension limit (65535), else
   * [65535, ceil(n/65535), 1]; the shader must use `wid.x + wid.y * nwg.x` and bounds-check. A tuple is used
   * as given and must fit the limit.
   */
  workgroups: Workgroups;
  /** Override constants of this specialisation (besides the workgroup size). */
  constants?: Constants;
}

/**
 * Split a linear workgroup count over x and y so no dimension exceeds `max`.
 * @throws RangeError if a linear count is negative or not an integer, or exceeds `max`²; or if a tuple has a
 *   dimension above `max`.
 */
export function gridFor(workgroups: Workgroups, max: number): [number, number, number] {
  if (typeof workgroups === "number") {
    if (!Number.isInteger(workgroups) || workgroups < 0)
      throw new RangeError(`bad workgroup count ${workgroups}`);
    if (workgroups <= max) return [workgroups, 1, 1];
    const y = Math.ceil(workgroups / max);
    if (y > max) throw new RangeError(`${workgroups} workgroups exceed ${max}² `);
    return [max, y, 1];
  }
  const [x, y = 1, z = 1] = workgroups;
  if (x > max || y > max || z > max)
    throw new RangeError(`grid [${x}, ${y}, ${z}] exceeds ${max} per dimension`);
  return [x, y, z];
}

/** Result of {@link GpuContext.time}: GPU time from timestamp queries, or wall time to queue completion. */
export interface Timing {
  ms: number;
  source: "timestamp-query" | "wall-clock";
}

type ErrorListener = (e: GpuDeviceLostError | GpuValidationError) => void;

/**
 * Owns one GPUDevice and its pipeline cache, readback pool, uniform arena and bind-group cache; made by
 * acquireGpu (device.ts). Tensors it makes belong to the caller (Tensor.destroy). destroy() releases the
 * pool, the arena and the device. Once the device is lost, tensor, upload, dispatch, copy, submit, read and
 * finish throw GpuDeviceLostError.
 */
export class GpuContext {
  readonly pipelines: PipelineCache;
  readonly readback: ReadbackPool;
  private readonly uniforms: UniformArena;
  /** Bind groups reused across dispatches over the same tensors (`bindGroups.created` counts new ones). */
  readonly bindGroups: BindGroupCache;
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private readonly listeners = new Set<ErrorListener>();
  /** Set once the device is lost; every later call throws it. */
  lostError: GpuDeviceLostError | null = null;
  /** Uncaptured errors not yet reported through a read. */
  private pendingErrors: GpuValidationError[] = [];
  /** Dispatches recorded since creation (tests and benchmarks count them). */
  dispatches = 0;
  /** Resolves when the device is lost, with the typed error. */
  readonly lost: Promise<GpuDeviceLostError>;

  constructor(
    readonly device: GPUDevice,
    readonly adapter: AdapterReport,
  ) {
    this.pipelines = new PipelineCache(device);
    this.readback = new ReadbackPool(device);
    this.uniforms = new UniformArena(device);
    this.bindGroups = new BindGroupCache(device);
    this.lost = device.lost.then((info) => {
      const err = new GpuDeviceLostError(String(info.reason ?? "unknown"), info.message || "no message");
      this.lostError = err;
      for (const l of this.listeners) l(err);
      return err;
    });
    device.addEventListener("uncapturederror", (ev) => {
      const e = (ev as GPUUncapturedErrorEvent).error;
      const kind =
        e instanceof GPUOutOfMemoryError
          ? "out-of-memory"
          : e instanceof GPUValidationError
            ? "validation"
            : "internal";
      const err = new GpuValidationError(kind, e.message);
      this.pendingErrors.push(err);
      for (const l of this.listeners) l(err);
    });
  }

  /** True when the device supports `timestamp-query` (and we requested it). */
  get hasTimestamps(): boolean {
    return this.device.features.has("timestamp-query");
  }

  /** Called on device loss and on every uncaptured GPU error. Returns an unsubscribe function. */
  onError(listener: ErrorListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @throws the device-lost error if the device is gone. */
  assertAlive(): void {
    if (this.lostError) throw this.lostError;
  }

  /** Throw (and clear) the first uncaptured GPU error since the last check, if any. */
  throwPendingErrors(): void {
    const e = this.pendingErrors[0];
    this.pendingErrors = [];
    if (e) throw e;
  }

  // ---- buffers ----

  /**
   * A new tensor in its own buffer (STORAGE | COPY_SRC | COPY_DST), zero-filled, or filled with `data`.
   * @throws RangeError if `shape` has a negative or fractional dimension, or `data` has a different element count
   *   than `shape` (checked before any buffer is made); GpuLimitError (a RangeError) if the buffer is larger than
   *   the device can bind; GpuDeviceLostError if the device is lost.
   */
  tensor<D extends DType = "f32">(
    shape: readonly number[],
    dtype: D = "f32" as D,
    label = "tensor",
    data?: ArrayLike<number>,
  ): Tensor<D> {
    this.assertAlive();
    const n = numel(shape);
    if (data && data.length !== n)
      throw new RangeError(
        `tensor "${label}" [${shape.join(", ")}] has ${n} elements; data has ${data.length}`,
      );
    const size = Math.max(n, 1) * BYTES_PER_ELEMENT;
    // WebGPU would make an invalid buffer and fail at its first use, far from here; say which and why now.
    const limit = maxBindableBytes(this.device);
    if (size > limit) throw new GpuLimitError(label, size, limit);
    const buffer = this.device.createBuffer({
      label,
      size,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    const t = new Tensor(buffer, shape, dtype, label);
    if (data) this.upload(t, data);
    return t;
  }

  /**
   * Write `data` into `t` starting at element `offset`. Ordered with recorded work: dispatches recorded before
   * the upload see the old contents, dispatches recorded after it see the new ones (pending work is submitted
   * first, since queue.writeBuffer runs ahead of commands not yet submitted). Elements past the end of `data`
   * keep their contents. Values are converted to `t`'s dtype as a typed array would (fractions truncated for
   * i32/u32, out-of-range integers wrapped).
   * @throws RangeError if `offset + data.length` exceeds `t.size`; GpuDeviceLostError if the device is lost.
   */
  upload(t: Tensor, data: ArrayLike<number>, offset = 0): void {
    this.assertAlive();
    this.submit();
    if (offset + data.length > t.size)
      throw new RangeError(`upload of ${data.length} elements at ${offset} overflows ${t.toString()}`);
    const arr =
      t.dtype === "f32"
        ? Float32Array.from(data)
        : t.dtype === "i32"
          ? Int32Array.from(data)
          : Uint32Array.from(data);
    if (arr.length) this.device.queue.writeBuffer(t.buffer, t.byteOffset + offset * BYTES_PER_ELEMENT, arr);
  }

  // ---- recording ----

  private ensurePass(): GPUComputePassEncoder {
    if (!this.encoder) this.encoder = this.device.createCommandEncoder({ label: "step" });
    if (!this.pass) this.pass = this.encoder.beginComputePass({ label: "kernels" });
    return this.pass;
  }

  private endPass(): GPUCommandEncoder {
    if (!this.encoder) this.encoder = this.device.createCommandEncoder({ label: "step" });
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
    return this.encoder;
  }

  /**
   * Record one dispatch of `kernel`. Nothing runs until `submit()` (or a `read()`, which submits).
   * @throws RangeError when the bindings do not match the kernel's layout, or the grid is too large.
   */
  dispatch(kernel: Kernel, opts: DispatchOptions): void {
    this.assertAlive();
    if (opts.bindings.length !== kernel.bindings.length)
      throw new RangeError(
        `kernel ${kernel.name} takes ${kernel.bindings.length} bindings, got ${opts.bindings.length}`,
      );
    const grid = gridFor(opts.workgroups, this.device.limits.maxComputeWorkgroupsPerDimension);
    if (grid[0] * grid[1] * grid[2] === 0) return;
    const { pipeline, layout } = this.pipelines.get(kernel, opts.constants);
    const dynamicOffsets: number[] = [];
    const entries = opts.bindings.map((b, binding): GPUBindGroupEntry => {
      const kind = kernel.bindings[binding];
      if (b instanceof Tensor) {
        if (kind === "uniform")
          throw new TypeError(`kernel ${kernel.name} binding ${binding} is uniform; got ${b}`);
        return { binding, resource: b.binding };
      }
      if (kind !== "uniform") throw new TypeError(`kernel ${kernel.name} binding ${binding} needs a tensor`);
      // Bound at offset 0 of its chunk; where it sits goes in as a dynamic offset, so the group is reusable.
      const u = this.uniforms.push(b);
      dynamicOffsets.push(u.offset ?? 0);
      return { binding, resource: { buffer: u.buffer, offset: 0, size: u.size } };
    });
    const pass = this.ensurePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, this.bindGroups.get(layout, entries, pipeline.label), dynamicOffsets);
    pass.dispatchWorkgroups(grid[0], grid[1], grid[2]);
    this.dispatches++;
  }

  /**
   * Record a buffer-to-buffer copy of a whole tensor (sizes must match; dtypes are not checked).
   * @throws RangeError if the byte sizes differ; GpuDeviceLostError if the device is lost.
   */
  copy(src: Tensor, dst: Tensor): void {
    this.assertAlive();
    if (src.byteSize !== dst.byteSize) throw new RangeError(`copy ${src} -> ${dst}: sizes differ`);
    if (src.byteSize)
      this.endPass().copyBufferToBuffer(src.buffer, src.byteOffset, dst.buffer, dst.byteOffset, src.byteSize);
  }

  /** Submit everything recorded so far. Returns immediately; the GPU runs it in order. */
  submit(): void {
    this.assertAlive();
    if (!this.encoder) return;
    const encoder = this.endPass();
    this.encoder = null;
    this.uniforms.flush();
    this.device.queue.submit([encoder.finish()]);
  }

  /**
   * Read a tensor back. Submits pending work, then resolves when the GPU has produced it; never blocks the queue.
   * @throws {GpuDeviceLostError} if the device is lost; {@link GpuValidationError} if any kernel since the last
   *   read raised an uncaptured error (the data would be garbage).
   */
  async read<D extends DType>(t: Tensor<D>): Promise<TypedArrayFor<D>> {
    this.assertAlive();
    const bytes = t.byteSize;
    if (bytes === 0) {
      this.submit();
      return typedArray(t.dtype, new ArrayBuffer(0));
    }
    const staging = this.readback.acquire(bytes);
    this.endPass().copyBufferToBuffer(t.buffer, t.byteOffset, staging, 0, bytes);
    this.submit();
    const data = await this.take(staging, bytes);
    this.throwPendingErrors();
    return typedArray(t.dtype, data);
  }

  /** Map a staging buffer; a failure caused by device loss becomes the typed device-lost error. */
  private async take(staging: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    try {
      return await this.readback.take(staging, bytes);
    } catch (e) {
      // device.lost may settle a while after the failed map ("Buffer was unmapped before mapping was resolved"):
      // give it time before deciding (50 ms was too short on a busy machine: the loss read as the step's failure).
      const wait = DESTROYED_MAP.test(e instanceof Error ? e.message : String(e))
        ? DESTROYED_SETTLE_MS
        : LOSS_SETTLE_MS;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.lost, new Promise((r) => (timer = setTimeout(r, wait)))]);
      clearTimeout(timer);
      if (this.lostError) throw this.lostError;
      throw e;
    }
  }

  /** Wait until all submitted work has finished (tests and benchmarks only; work meant to overlap never does this). */
  async finish(): Promise<void> {
    this.submit();
    await this.device.queue.onSubmittedWorkDone();
    this.assertAlive();
    this.throwPendingErrors();
  }

  /**
   * Time the GPU work `record` records (it must only record, not await). Uses `timestamp-query` when the device
   * has it (the work goes into its own pass with timestampWrites), else wall time from submit to completion.
   */
  async time(record: () => void): Promise<Timing> {
    this.submit();
    if (!this.hasTimestamps) {
      await this.device.queue.onSubmittedWorkDone();
      const t0 = performance.now();
      record();
      await this.finish();
      return { ms: performance.now() - t0, source: "wall-clock" };
    }
    const querySet = this.device.createQuerySet({ label: "timer", type: "timestamp", count: 2 });
    const resolve = this.device.createBuffer({
      label: "timer.resolve",
      size: 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    this.encoder = this.device.createCommandEncoder({ label: "timed" });
    this.pass = this.encoder.beginComputePass({
      label: "timed",
      timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
    });
    record();
    const enc = this.endPass();
    enc.resolveQuerySet(querySet, 0, 2, resolve, 0);
    const staging = this.readback.acquire(16);
    enc.copyBufferToBuffer(resolve, 0, staging, 0, 16);
    this.submit();
    const ns = new BigUint64Array(await this.take(staging, 16));
    querySet.destroy();
    resolve.destroy();
    this.throwPendingErrors();
    return { ms: Number(ns[1] - ns[0]) / 1e6, source: "timestamp-query" };
  }

  /** Release the device; pending reads reject with a device-lost error whose reason is "destroyed". */
  destroy(): void {
    this.readback.destroy();
    this.uniforms.destroy();
    this.device.destroy();
  }
}
