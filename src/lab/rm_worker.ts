/**
 * The reward-model worker: one ONNX reward model (the task's shipped proxy or a user's file) checked and run
 * with onnxruntime-web in a dedicated worker of its own, spawned by the training worker (./ort_loader.ts). A
 * model that computes too long or takes too much memory is ended with its worker (./rm_isolated.ts), and its
 * memory goes with it; training, in the other worker, is never blocked by it.
 *
 * onnxruntime-web runs the WASM execution provider on one thread (a worker has no cross-origin isolation for
 * threads; the reward models are tiny), from its WASM-only build (vite.config.ts). Its .wasm (14 MB) comes as
 * bytes from the training worker, which downloads it once with the page's progress line (./ort_loader.ts);
 * without them, from the file's URL given explicitly. That URL comes from Vite (`?url`), so the same code finds
 * the file in `vite dev` (served from node_modules) and in the built app (a hashed asset); ORT's own guess (next
 * to its bundled .mjs) fails under Vite's dependency pre-bundling.
 */
import * as Comlink from "comlink";
import * as ort from "onnxruntime-web";
import { encodeModel, GraphBuilder } from "../onnx/graph";
import { loadOnnxRewardModel } from "../rewards/onnx_reward_model";
import { ORT_WASM_URL } from "./ort_wasm";
import { createRmWorkerApi } from "./rm_worker_api";

/** Execution providers for reward models in the worker. */
export const WORKER_RM_PROVIDERS = ["wasm"];

ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.wasm.wasmPaths = { wasm: new URL(ORT_WASM_URL, self.location.href).href };

/** A one-node model (Identity of an int64 [1]): its session starts onnxruntime-web's WASM. */
function startModel(): Uint8Array {
  const g = new GraphBuilder("start");
  g.node("Identity", [g.input("x", "int64", [1])], {}, "y");
  g.output("y", "int64", [1]);
  return encodeModel(g.graph());
}

Comlink.expose(
  createRmWorkerApi(
    (bytes, vocabSize, padId) =>
      loadOnnxRewardModel(bytes, vocabSize, { padId, executionProviders: WORKER_RM_PROVIDERS }),
    async (wasm) => {
      if (wasm) ort.env.wasm.wasmBinary = wasm;
      const session = await ort.InferenceSession.create(startModel(), {
        executionProviders: WORKER_RM_PROVIDERS,
        logSeverityLevel: 4,
      });
      await session.release();
    },
  ),
);
