/**
 * How the training worker loads ONNX reward models: each in a reward-model worker of its own (./rm_worker.ts,
 * onnxruntime-web's WASM there), with the time limits of ./rm_isolated.ts, so a model that works too long is
 * ended without stopping training.
 */
import * as Comlink from "comlink";
import { errorMessage } from "../util/errors";
import { ORT_WASM_URL } from "./ort_wasm";
import { type OnnxLoader, RewardSourceError } from "./reward_sources";
import { isolatedOnnxLoader, RM_TIME_LIMITS, type RmWorkerHandle } from "./rm_isolated";
import type { RmWorkerApi } from "./rm_worker_api";
import { NOT_SERVED } from "./shipped_fetch";
import { workerStopReason } from "./worker_script";

/** Why a reward-model worker stopped when its script did not load (the training worker's wording too). */
export { SCRIPT_NOT_LOADED } from "./worker_script";

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
      // A script that does not load fires a bare Event (no message): ./worker_script.ts says why.
      worker.addEventListener("error", (e) => cb(workerStopReason(e)));
      worker.addEventListener("messageerror", () => cb("a message could not be read"));
    },
  };
}

/**
 * loadOnnxRewardModel in a worker of its own, with the lab's time limits. onnxruntime-web's WASM (14 MB) is
 * downloaded here once, with `fetchFn` (the page's progressFetch: the loading line shows its bytes), and each
 * reward-model worker gets a copy; a failed download is tried again at the next load. `onStarting` is told
 * when a worker starts compiling it (the loading line's next stage).
 * @throws (the loader) RewardSourceError naming the file and the cause when the download fails.
 */
export function workerOnnxLoader(fetchFn: typeof fetch = fetch, onStarting?: () => void): OnnxLoader {
  let wasm: Promise<ArrayBuffer> | null = null;
  const runtime = async () => {
    wasm ??= downloadRuntime(fetchFn).catch((e) => {
      wasm = null;
      throw e;
    });
    const bytes = await wasm;
    onStarting?.();
    return bytes;
  };
  return isolatedOnnxLoader(spawnRmWorker, RM_TIME_LIMITS, runtime);
}

/**
 * onnxruntime-web's WASM bytes.
 * @throws RewardSourceError naming the network's or the server's answer (HTTP 404: shipped_fetch's NOT_SERVED).
 */
async function downloadRuntime(fetchFn: typeof fetch): Promise<ArrayBuffer> {
  const url = new URL(ORT_WASM_URL, globalThis.location?.href ?? "http://localhost/");
  const failed = (why: string) =>
    new RewardSourceError(
      `could not download onnxruntime's WebAssembly (${url.pathname}, 14 MB): ${why}; check the connection, then choose the reward model again`,
    );
  let res: Response;
  try {
    res = await fetchFn(url);
  } catch (e) {
    throw failed(errorMessage(e));
  }
  // The lab ships this file: a 404 is the server refusing .wasm (README: Hosting the lab), not the network.
  if (res.status === 404) throw new RewardSourceError(`could not download ${url.pathname}: ${NOT_SERVED}`);
  if (!res.ok) throw failed(`the server answered HTTP ${res.status}`);
  try {
    return await res.arrayBuffer();
  } catch (e) {
    throw failed(errorMessage(e));
  }
}
