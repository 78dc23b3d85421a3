/**
 * TF.js's WASM backend (`@tensorflow/tfjs-backend-wasm`, XNNPACK kernels) in Node or the page: the pretraining
 * script's default backend (the same CPU runs it ~50× faster than WebGPU on SwiftShader) and the TF.js side of
 * the shipped-checkpoint test. In Node the .wasm binaries are read from the package's dist folder.
 * Threads: the multi-threaded SIMD build is used when the runtime supports it (SharedArrayBuffer + wasm threads)
 * and `threads` > 1; `threads` = 1 forces the single-threaded SIMD build.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Tf } from "../../cli/bench/tfjs-peer";
import { registerWasmKernels } from "./tfjs-wasm-kernels";

export interface WasmInfo {
  /** "wasm". */
  backend: string;
  simd: boolean;
  /** Threads XNNPACK uses (1 = the single-threaded build). */
  threads: number;
}

/**
 * Make TF.js's WASM backend the active one. `threads` (default: the machine's cores) caps the thread pool.
 * @throws Error when the backend fails to initialise.
 */
export async function tfjsWasm(threads?: number): Promise<{ tf: Tf; info: WasmInfo }> {
  const tf = await import("@tensorflow/tfjs-core");
  const wasm = await import("@tensorflow/tfjs-backend-wasm");
  const require = createRequire(import.meta.url);
  const dist = dirname(require.resolve("@tensorflow/tfjs-backend-wasm/package.json"));
  wasm.setWasmPaths(`${join(dist, "dist")}/`);
  if (threads !== undefined) {
    wasm.setThreadsCount(threads);
    if (threads <= 1) tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  }
  if (!(await tf.setBackend("wasm"))) throw new Error("TF.js WASM backend failed to initialise");
  await tf.ready();
  registerWasmKernels(tf);
  const simd = Boolean(await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT"));
  const mt = Boolean(await tf.env().getAsync("WASM_HAS_MULTITHREAD_SUPPORT"));
  return { tf, info: { backend: "wasm", simd, threads: mt ? wasm.getThreadsCount() : 1 } };
}
