/**
 * TF.js's WebGPU backend on OUR device: the benchmark peer (same process, same adapter, same GPU queue), so a
 * ratio ours/TF.js means something on any machine. Node has no navigator.gpu: the backend's import-time check
 * gets a placeholder and its backend is re-registered on our GPUDevice.
 */
import type { GpuContext } from "../../src/gpu/context";

export type Tf = typeof import("@tensorflow/tfjs-core");

export async function tfjsOnDevice(ctx: GpuContext): Promise<Tf> {
  const g = globalThis as { navigator?: { gpu?: unknown } };
  if (!g.navigator)
    Object.defineProperty(globalThis, "navigator", { value: { gpu: {} }, configurable: true });
  else if (!g.navigator.gpu) Object.defineProperty(g.navigator, "gpu", { value: {}, configurable: true });
  const tf = await import("@tensorflow/tfjs-core");
  const { WebGPUBackend } = await import("@tensorflow/tfjs-backend-webgpu");
  if (tf.findBackendFactory("webgpu")) tf.removeBackend("webgpu");
  tf.registerBackend("webgpu", () => new WebGPUBackend(ctx.device));
  if (!(await tf.setBackend("webgpu")))
    throw new Error("TF.js WebGPU backend failed to initialise on our device");
  await tf.ready();
  return tf;
}
