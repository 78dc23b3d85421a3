/**
 * Test harness for WGSL kernels in Node: a real WebGPU adapter (Dawn via npm `webgpu`; SwiftShader on machines
 * without a GPU) and a comparison against the CPU twin. No adapter → the test FAILS with instructions; it
 * never skips.
 */
import { afterAll, expect } from "vitest";
import { GpuContext } from "../../src/gpu/context";
import { acquireGpu } from "../../src/gpu/device";
import { GpuUnavailableError, WEBGPU_HELP } from "../../src/gpu/errors";
import { compareArrays, describeComparison, type Tolerance } from "../../src/kernels/compare";

let shared: Promise<GpuContext> | null = null;

/** The test file's GPU context (one device per file), destroyed after the file's tests. */
export function testGpu(): Promise<GpuContext> {
  if (!shared) {
    shared = acquireGpu().catch((e) => {
      if (e instanceof GpuUnavailableError)
        throw new Error(
          `No WebGPU adapter for the kernel tests (${e.reason}): ${e.message}\n${WEBGPU_HELP.node}`,
        );
      throw e;
    });
    afterAll(async () => {
      const ctx = await shared?.catch(() => null);
      if (ctx) {
        ctx.destroy();
        await ctx.lost; // let Dawn finish tearing the device down before the worker exits
      }
      shared = null;
    });
  }
  return shared;
}

/**
 * A second context on `ctx`'s device that believes the device allows `max` workgroups per dimension, so a linear
 * dispatch past `max` workgroups is split over y as on a real GPU past 65,535 (kernels must index rows by
 * wid.x + wid.y · nwg.x).
 */
export function splitDispatchGpu(ctx: GpuContext, max: number): GpuContext {
  const limits = new Proxy(ctx.device.limits, {
    get: (t, k) => (k === "maxComputeWorkgroupsPerDimension" ? max : Reflect.get(t, k, t)),
  });
  const device = new Proxy(ctx.device, {
    get(t, k) {
      if (k === "limits") return limits;
      const v = Reflect.get(t, k, t);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
  return new GpuContext(device, ctx.adapter);
}

/**
 * Assert |gpu − ref| ≤ atol + rtol·|ref| elementwise over a non-empty array; always logs the worst element, its
 * two values named by `sides` (default "gpu", "ref"; pass ["twin", "fd"] for a twin vs finite differences).
 */
export function expectClose(
  label: string,
  gpu: ArrayLike<number>,
  ref: ArrayLike<number>,
  tol: Tolerance,
  sides?: readonly [string, string],
): void {
  const c = compareArrays(gpu, ref, tol);
  const line = describeComparison(label, c, tol, sides);
  console.log(line);
  expect(c.n, `${label}: nothing to compare`).toBeGreaterThan(0);
  expect(c.ok, line).toBe(true);
}
