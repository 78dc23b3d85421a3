import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { thirdPartyNotices } from "./build/notices.ts";
import { buildDefines } from "./build/version.ts";

// The lab is a static single-page app: `vite` serves it, `vite build` writes dist/.
// WGSL kernels are imported as text with `?raw` here, in vitest and (through
// cli/raw-loader.mjs) in the Node CLI: one mechanism everywhere.
// `vite build` also writes THIRD_PARTY_NOTICES.txt (build/notices.ts): the page's and the workers' packages.
const notices = thirdPartyNotices();
export default defineConfig({
  plugins: [react(), notices.page],
  // The lab's version, git commit and shipped models' SHA-256, for exports and the footer (build/version.ts).
  define: buildDefines(),
  // The page runs ONNX reward models on onnxruntime-web's WASM execution provider only (src/lab/rm_worker.ts):
  // its WASM-only build downloads a 14 MB .wasm, the default build's WebGPU one 28 MB. (vitest and the Node CLI
  // keep the package's Node build; only `vite` and `vite build` read this file.)
  resolve: { alias: [{ find: /^onnxruntime-web$/, replacement: "onnxruntime-web/wasm" }] },
  base: "./",
  build: {
    target: "es2022",
    sourcemap: true,
    // The largest JS chunks are big by design: index 1,396 kB (React, recharts, the lab), data 1,205 kB (the
    // Moby-Dick text the sentiment task samples from), worker 552 kB (the WGSL engine). Just above the largest
    // today, so that the warning says something again when a chunk grows past it. kB, minified.
    chunkSizeWarningLimit: 1500,
    // No [PLUGIN_TIMINGS] report (Rolldown's per-plugin build times): it is printed on every build and would hide
    // a real new warning in CI logs. Turn it back on here to profile a slow build.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: {
    format: "es",
    plugins: () => [notices.worker()],
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
