import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";
import { WARM_STATE } from "./e2e/global-setup";

/**
 * End-to-end tests of the built app (`npm run test:e2e` builds it first) in Chromium with WebGPU on
 * SwiftShader, a software adapter: no GPU needed, but slow (~1 GFLOP/s), hence the generous timeouts.
 * Uses the system Chromium (Debian `chromium`); set CHROMIUM_PATH to use another Chrome or Chromium.
 */
/** Preview port (E2E_PORT lets several checkouts run their e2e tests side by side). */
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 180_000,
  expect: { timeout: 120_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  // Runs the page's GPU checks once (self-test, matmul throughput, the worker's kernel pick) in this run's build
  // and browser and keeps them for every test: a fresh profile spends 10–14 s on them at its first load.
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Only those kept checks (no saved experiment); a test that needs a fresh profile empties it with test.use.
    storageState: WARM_STATE,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
  projects: [
    {
      name: "chromium",
      use: {
        browserName: "chromium",
        headless: true,
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
});
