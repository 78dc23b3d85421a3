/**
 * Node only. dawn.node (npm `webgpu`) waits for GPU work by re-queuing a native callback with the global
 * `setImmediate` for as long as a mapAsync or onSubmittedWorkDone is pending: a busy loop that holds one CPU
 * core at 100 % and makes a new function object per turn (garbage). On a real GPU that only wastes a core; on
 * SwiftShader, where the "GPU" is the CPU, the loop takes that core from the rasteriser. Measured on a 2-core
 * machine (a workload of many dispatches and frequent readbacks, two other GPU processes running): 90 s an
 * iteration with the loop, 71 s with it slowed to one turn a millisecond, same results; CPU time 110 s → 69 s.
 *
 * `throttleDawnPolling(ms)` routes native callbacks handed to `setImmediate` (dawn.node's tick; JS callbacks are
 * untouched) through `setTimeout(fn, ms)`: a pending readback resolves at most ~ms later. ms = 0 restores the
 * original `setImmediate` (the busy loop, lowest latency: microbenchmarks). Idempotent; browsers never call it.
 */

const toSource = Function.prototype.toString;
/** On a throttled setImmediate: the original it wraps (shared by every copy of this module in the process). */
const ORIGINAL = Symbol.for("rlhf-playground.setImmediate.original");
type Wrapped = typeof setImmediate & { [ORIGINAL]?: typeof setImmediate };

/** Whether `fn` is a native function (dawn.node's tick is one; JS callbacks are not). */
function isNative(fn: unknown): boolean {
  // V8 prints every native function as "function name() { [native code] }": a suffix test, no scan of JS sources.
  return typeof fn === "function" && toSource.call(fn).endsWith("{ [native code] }");
}

/**
 * Poll Dawn every `ms` milliseconds instead of in a busy loop (see the module note).
 * @param ms poll interval in ms, ≥ 0; 0 = Dawn's own busy loop. Default from RLHF_DAWN_POLL_MS, else 1.
 * @throws RangeError if ms is negative or not finite.
 */
export function throttleDawnPolling(ms = defaultPollMs()): void {
  if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`Dawn poll interval ${ms} ms must be ≥ 0`);
  // Never wrap a wrapper (another copy of this module, e.g. in the next test file, may have installed one).
  const current = globalThis.setImmediate as Wrapped;
  const original = current[ORIGINAL] ?? current;
  if (ms === 0) {
    globalThis.setImmediate = original;
    return;
  }
  const throttled = ((fn: (...a: unknown[]) => void, ...args: unknown[]) =>
    isNative(fn) ? setTimeout(fn, ms, ...args) : original(fn, ...args)) as unknown as Wrapped;
  // Keep what hangs on the original (util.promisify.custom), so promisify(setImmediate) still works.
  for (const key of Reflect.ownKeys(original))
    if (key !== "length" && key !== "name" && key !== "prototype")
      Object.defineProperty(throttled, key, Object.getOwnPropertyDescriptor(original, key)!);
  throttled[ORIGINAL] = original;
  globalThis.setImmediate = throttled;
}

/** RLHF_DAWN_POLL_MS when set to a number ≥ 0, else 1. */
function defaultPollMs(): number {
  const v = Number(process.env.RLHF_DAWN_POLL_MS);
  return process.env.RLHF_DAWN_POLL_MS !== undefined && v >= 0 ? v : 1;
}
