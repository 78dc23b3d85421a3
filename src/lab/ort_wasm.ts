/**
 * The URL of onnxruntime-web's WASM in this build: its WASM-only build's file (vite.config.ts points the page's
 * `onnxruntime-web` there), a hashed asset in the built app, node_modules in `vite dev`. The training worker
 * downloads it (./ort_loader.ts), the reward-model worker falls back to it (./rm_worker.ts).
 */
import wasmUrl from "onnxruntime-web/ort-wasm-simd-threaded.wasm?url";

export const ORT_WASM_URL: string = wasmUrl;
