import { defineConfig } from "vitest/config";
import { buildDefines } from "./build/version.ts";
import { SWIFTSHADER_ICD } from "./test/gpu-env.ts";

// Unit tests run in Node. Kernel tests get a real WebGPU adapter from Dawn (npm `webgpu`);
// on machines without a GPU, Chromium's SwiftShader Vulkan driver provides one.
export default defineConfig({
  // The same build stamp as vite.config.ts (src/lab/build_info.ts reads it).
  define: buildDefines(),
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    environment: "node",
    // Dawn is a native addon: one forked process per file is the most robust host for it.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: process.env.VK_ICD_FILENAMES ? {} : { VK_ICD_FILENAMES: SWIFTSHADER_ICD },
    reporters: ["default"],
  },
});
