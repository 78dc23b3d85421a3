/**
 * onnxruntime-web for the training worker, loaded on first use (the worker starts without it): the WASM
 * execution provider on one thread (a worker has no cross-origin isolation for threads, and the reward
 * models are tiny), with the .wasm file's URL given explicitly. That URL comes from Vite (`?url`), so the same
 * code finds the file in `vite dev` (served from node_modules) and in the built app (a hashed asset); ORT's
 * own guess (next to its bundled .mjs) fails under Vite's dependency pre-bundling.
 */
import wasmUrl from "onnxruntime-web/ort-wasm-simd-threaded.jsep.wasm?url";
import type { OnnxLoader } from "./reward_sources";

/** Execution providers for reward models in the worker. */
export const WORKER_RM_PROVIDERS = ["wasm"];

/** loadOnnxRewardModel with the worker's onnxruntime-web settings (imported lazily). */
export const workerOnnxLoader: OnnxLoader = async (bytes, vocabSize, padId) => {
  const [ort, { loadOnnxRewardModel }] = await Promise.all([
    import("onnxruntime-web"),
    import("../rewards/onnx_reward_model"),
  ]);
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = { wasm: new URL(wasmUrl, self.location.href).href };
  return loadOnnxRewardModel(bytes, vocabSize, { padId, executionProviders: WORKER_RM_PROVIDERS });
};
