/**
 * What the reward-model worker (./rm_worker.ts) offers the training worker: one ONNX reward model, loaded and
 * checked, then run batch by batch. Shared by the worker entry and by tests, which call it in-process.
 */
import type { OnnxRewardModel } from "../rewards/onnx_reward_model";

/** What a loaded model is, without its session (it stays in the reward-model worker). */
export interface RmLoaded {
  vocabSize: number;
  maxLength: number | null;
  metadata: Record<string, string>;
  warnings: string[];
}

/** The reward-model worker's API (comlink). One model per worker: a second load is refused. */
export interface RmWorkerApi {
  /**
   * Start onnxruntime-web (compile its WASM — `wasm`, its bytes as the training worker downloaded them, or
   * fetched here without them — seconds in a fresh worker on a busy machine), so that the time limit of `load`
   * counts the model's own work. Idempotent (a second call's `wasm` is ignored).
   */
  ready(wasm?: ArrayBuffer): Promise<void>;
  /**
   * Load and check a model (loadOnnxRewardModel's contract).
   * @throws OnnxRewardModelError naming what is wrong; Error when this worker holds a model already.
   */
  load(bytes: Uint8Array, vocabSize: number, padId: number): Promise<RmLoaded>;
  /**
   * Scores [B] of left-padded rows ids/mask [B·T] (OnnxRewardModel.run).
   * @throws Error before load; whatever the model's run throws.
   */
  run(ids: Int32Array, mask: Uint8Array, B: number, T: number): Promise<Float64Array>;
}

/** The API over a loader (loadOnnxRewardModel with the worker's onnxruntime-web settings, or a test's). */
export function createRmWorkerApi(
  loadModel: (bytes: Uint8Array, vocabSize: number, padId: number) => Promise<OnnxRewardModel>,
  /** Start the runtime, from the WASM bytes when given (default: nothing to start). */
  start: (wasm?: ArrayBuffer) => Promise<void> = async () => {},
): RmWorkerApi {
  let model: OnnxRewardModel | null = null;
  let loading = false;
  let started: Promise<void> | null = null;
  return {
    ready(wasm) {
      started ??= start(wasm);
      return started;
    },
    async load(bytes, vocabSize, padId) {
      if (model || loading) throw new Error("this reward-model worker holds a model already");
      loading = true;
      model = await loadModel(bytes, vocabSize, padId).finally(() => {
        loading = false;
      });
      const { maxLength, metadata, warnings } = model;
      return { vocabSize: model.vocabSize, maxLength, metadata, warnings };
    },
    run(ids, mask, B, T) {
      if (!model) return Promise.reject(new Error("no reward model is loaded in this worker"));
      return model.run(ids, mask, B, T);
    },
  };
}
