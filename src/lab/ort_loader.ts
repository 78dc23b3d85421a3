/**
 * How the training worker loads ONNX reward models: each in a reward-model worker of its own (./rm_worker.ts,
 * onnxruntime-web's WASM there), with the time limits of ./rm_isolated.ts, so a model that works too long is
 * ended without stopping training.
 */
import * as Comlink from "comlink";
import { isolatedOnnxLoader, type RmWorkerHandle } from "./rm_isolated";
import type { RmWorkerApi } from "./rm_worker_api";

/** Why a reward-model worker stopped when its script did not load. */
export const SCRIPT_NOT_LOADED =
  "its script could not be downloaded: the lab was updated on its server since this page opened, or the network is down; reload the page";

/** Start a reward-model worker (a module worker; Chrome lets a dedicated worker start one). */
function spawnRmWorker(): RmWorkerHandle {
  const worker = new Worker(new URL("./rm_worker.ts", import.meta.url), {
    type: "module",
    name: "reward-model",
  });
  return {
    api: Comlink.wrap<RmWorkerApi>(worker) as unknown as RmWorkerApi,
    terminate: () => worker.terminate(),
    onCrash: (cb) => {
      // A script that does not load fires a bare Event (no message): a page opened before the lab was updated
      // on its server asks for a file the server no longer has, or the network is down.
      worker.addEventListener("error", (e) => cb(e.message || SCRIPT_NOT_LOADED));
      worker.addEventListener("messageerror", () => cb("a message could not be read"));
    },
  };
}

/** loadOnnxRewardModel in a worker of its own, with the lab's time limits. */
export const workerOnnxLoader = isolatedOnnxLoader(spawnRmWorker);
