/**
 * Test harness for WGSL kernels in Node: a real WebGPU adapter (Dawn via npm `webgpu`; SwiftShader on machines
 * without a GPU) and a comparison against the CPU twin. No adapter → the test FAILS with instructions; it
 * never skips.
 */
import { afterAll, expect } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { acquireGpu } from "../../src/gpu/device";
import { GpuUnavailableError, WEBGPU_HELP } from "../../src/gpu/errors";
import { compareArrays, describeComparison, type Tolerance } from "../../src/kernels/compare";
import { UnwrittenFillContext, unwrittenElements } from "./unwritten";

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

let filled: Promise<GpuContext> | null = null;

/**
 * The kernel tests' context: testGpu()'s device, but every tensor created without data holds the bits
 * 0x7fc00000 (NaN) instead of WebGPU's zeros, so an output element a kernel never writes fails expectClose
 * (unwritten.ts). Create an output the kernel accumulates into (+=) with the data the real code gives it.
 */
export function kernelGpu(): Promise<GpuContext> {
  if (!filled) {
    filled = testGpu().then((ctx) => new UnwrittenFillContext(ctx.device, ctx.adapter));
    afterAll(() => {
      filled = null;
    });
  }
  return filled;
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
  // Same class as ctx, so a kernel test's split context keeps its unwritten fill.
  return new (ctx.constructor as typeof GpuContext)(device, ctx.adapter);
}

/**
 * Assert |gpu − ref| ≤ atol + rtol·|ref| elementwise over a non-empty array; always logs the worst element, its
 * two values named by `sides` (default "gpu", "ref"; pass ["twin", "fd"] for a twin vs finite differences).
 * Fails first, naming them, when elements of `gpu` still hold kernelGpu()'s fill (never written).
 */
export function expectClose(
  label: string,
  gpu: ArrayLike<number>,
  ref: ArrayLike<number>,
  tol: Tolerance,
  sides?: readonly [string, string],
): void {
  const skipped = unwrittenElements(gpu, ref);
  const first = skipped.slice(0, 5).map((i) => `[${i}] ref=${ref[i]}`);
  expect(
    skipped.length,
    `${label}: ${skipped.length} of ${gpu.length} elements never written (still the test's fill, bits 0x7fc00000): ${first.join(", ")}`,
  ).toBe(0);
  const c = compareArrays(gpu, ref, tol);
  const line = describeComparison(label, c, tol, sides);
  console.log(line);
  expect(c.n, `${label}: nothing to compare`).toBeGreaterThan(0);
  expect(c.ok, line).toBe(true);
}
