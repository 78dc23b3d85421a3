/**
 * Start-up, outside React: acquire the GPU, wire its error hooks to the store, run the kernel self-test, then
 * measure the matmul throughput for the performance card — or show those checks as this browser kept them from
 * an earlier load of the same build on the same adapter (gpu_checks_kept.ts; **Run again** runs them afresh).
 * Called once from main.tsx (not from an effect, so React's development double-mount cannot run it twice).
 */
import type { GpuContext } from "../gpu/context";
import { acquireGpu } from "../gpu/device";
import { GpuDeviceLostError, GpuUnavailableError } from "../gpu/errors";
import { runSelfTest } from "../kernels/selftest";
import { measureMatmulThroughput } from "../kernels/throughput";
import { errorMessage as message } from "../util/errors";
import { checksKey, forgetChecks, keepChecks, keptChecks } from "./gpu_checks_kept";
import { perfFailure } from "./perf_failure";
import { useApp } from "./store";

/** The page's context once acquired (Run again uses it). */
let booted: GpuContext | null = null;
let checking = false;

/** Resolves with the context once the checks have run (or were restored), or null when there is no usable GPU. */
export async function boot(): Promise<GpuContext | null> {
  const app = useApp.getState();
  let ctx: GpuContext;
  try {
    ctx = await acquireGpu();
  } catch (e) {
    if (e instanceof GpuUnavailableError) app.gpuUnavailable({ reason: e.reason, message: e.message });
    else app.reportError(`Could not start WebGPU: ${message(e)}`);
    return null;
  }
  adopt(ctx);
  await runChecks(ctx, false);
  return ctx;
}

/** The page's device from now on: its losses and errors go to the store. */
function adopt(ctx: GpuContext): void {
  const app = useApp.getState();
  app.gpuReady(ctx.adapter, ctx.hasTimestamps);
  ctx.onError((e) => {
    if (e instanceof GpuDeviceLostError) {
      if (booted === ctx) app.deviceLost();
    } else app.reportError(`GPU ${e.kind} error: ${e.message}`);
  });
  booted = ctx;
}

/**
 * The System panel's Run again: the self-test and the throughput afresh; after the page's device was lost, on a
 * new one asked for now. No-op without a device or while running.
 */
export async function checkAgain(): Promise<void> {
  const app = useApp.getState();
  if (booted && app.gpu === "lost" && !checking) {
    try {
      adopt(await acquireGpu());
    } catch (e) {
      app.selfTestFinished(
        `no new GPU device could be had (${message(e)}); reload the page to run the checks again.`,
      );
      return;
    }
  }
  if (booted && useApp.getState().gpu === "ready") await runChecks(booted, true);
}

/** The built bundle's URL (its name carries the code's hash); null in development, where code changes under it. */
const build = (): string | null => (import.meta.env.DEV ? null : import.meta.url);

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // blocked (privacy settings, a sandboxed frame)
  }
}

async function runChecks(ctx: GpuContext, fresh: boolean): Promise<void> {
  if (checking) return;
  checking = true;
  const app = useApp.getState();
  try {
    const key = checksKey(build(), navigator.userAgent, ctx.adapter, ctx.hasTimestamps);
    const kept = fresh ? null : keptChecks(storage(), key, Date.now());
    if (kept) {
      app.checksRestored(kept);
      return;
    }
    app.selfTestStarted();
    try {
      await runSelfTest(ctx, app.selfTestResult);
      app.selfTestFinished();
    } catch (e) {
      app.selfTestFinished(message(e));
    }
    let perf = null;
    try {
      perf = await measureMatmulThroughput(ctx);
      app.perfMeasured(perf);
    } catch (e) {
      app.perfMeasured(null, perfFailure(e, useApp.getState().gpu === "lost"));
    }
    const s = useApp.getState();
    if (s.selfTest === "done" && s.gpu === "ready" && perf)
      keepChecks(storage(), key, { at: Date.now(), results: s.results, perf });
    else forgetChecks(storage());
  } finally {
    checking = false;
  }
}
