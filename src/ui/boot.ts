/**
 * Start-up, outside React: acquire the GPU, wire its error hooks to the store, run the kernel self-test, then
 * measure the matmul throughput for the performance card.
 * Called once from main.tsx (not from an effect, so React's development double-mount cannot run it twice).
 */
import type { GpuContext } from "../gpu/context";
import { acquireGpu } from "../gpu/device";
import { GpuDeviceLostError, GpuUnavailableError } from "../gpu/errors";
import { runSelfTest } from "../kernels/selftest";
import { measureMatmulThroughput } from "../kernels/throughput";
import { errorMessage as message } from "../util/errors";
import { useApp } from "./store";

/** Resolves with the context once the self-test has run, or null when there is no usable GPU. */
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
  app.gpuReady(ctx.adapter, ctx.hasTimestamps);
  ctx.onError((e) => {
    if (e instanceof GpuDeviceLostError) app.deviceLost(e.message);
    else app.reportError(`GPU ${e.kind} error: ${e.message}`);
  });

  app.selfTestStarted();
  try {
    await runSelfTest(ctx, app.selfTestResult);
    app.selfTestFinished();
  } catch (e) {
    app.selfTestFinished(message(e));
  }
  try {
    app.perfMeasured(await measureMatmulThroughput(ctx));
  } catch (e) {
    app.perfMeasured(null, message(e));
  }
  return ctx;
}
