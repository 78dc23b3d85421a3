import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The lab is a static single-page app: `vite` serves it, `vite build` writes dist/.
// WGSL kernels are imported as text with `?raw` here, in vitest and (through
// cli/raw-loader.mjs) in the Node CLI: one mechanism everywhere.
export default defineConfig({
  plugins: [react()],
  base: "./",
  build: { target: "es2022", sourcemap: true },
  worker: { format: "es" },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
