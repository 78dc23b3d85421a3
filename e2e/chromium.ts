/**
 * The Chromium the e2e tests and scripts/profile-ui.ts drive: the system browser (Debian `chromium`, or
 * CHROMIUM_PATH), with WebGPU on SwiftShader and without background traffic. Playwright's browser downloads
 * are never used.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--enable-unsafe-webgpu",
  "--use-webgpu-adapter=swiftshader",
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
