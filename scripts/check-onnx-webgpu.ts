/**
 * `npm run check-onnx-webgpu` — the exported ONNX reward model in a real browser:
 * onnxruntime-web's WebGPU EP vs its WASM EP vs our WGSL forward, on nano models with random weights and
 * left-padded batches (scripts/check-onnx-webgpu/page.ts). Builds the page with Vite into a temporary folder,
 * serves it, and drives Chromium headless with WebGPU (SwiftShader unless CHROMIUM_ARGS says otherwise).
 * Prints one row per case and exits 1 when any difference exceeds 1e-4 (the bound), 2 when the page
 * fails. Chromium: /usr/bin/chromium or CHROMIUM_PATH (as playwright.config.ts). Takes about a minute here.
 * Takes no options but `--help`; anything else is refused with the usage (exit 2) before the build starts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { chromium } from "@playwright/test";
import { build } from "vite";
import { scriptArgs } from "../cli/args";
import type { CheckRow } from "./check-onnx-webgpu/page";

const TOL = 1e-4;
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
};

const USAGE =
  "usage: npm run check-onnx-webgpu   (no options; Chromium from CHROMIUM_PATH, its flags from CHROMIUM_ARGS)";

async function main(): Promise<number> {
  scriptArgs(USAGE, { options: {} });
  const outDir = mkdtempSync(join(tmpdir(), "onnx-webgpu-"));
  try {
    await build({
      root: "scripts/check-onnx-webgpu",
      logLevel: "warn",
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 100_000 },
    });
    const server = createServer((req, res) => {
      const url = decodeURIComponent((req.url ?? "/").split("?")[0]);
      const path = normalize(join(outDir, url === "/" ? "index.html" : url));
      try {
        const body = readFileSync(path);
        res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
        res.end(body);
      } catch {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const { port } = server.address() as { port: number };
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      headless: true,
      args: (process.env.CHROMIUM_ARGS ?? "--enable-unsafe-webgpu --use-webgpu-adapter=swiftshader").split(
        " ",
      ),
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForFunction(() => "onnxCheck" in window, null, { timeout: 300_000 });
      const r = (await page.evaluate(() => (window as unknown as { onnxCheck: unknown }).onnxCheck)) as {
        rows?: CheckRow[];
        error?: string;
      };
      if (!r.rows) {
        console.error(`the page failed: ${r.error}`);
        return 2;
      }
      const e = (x: number) => x.toExponential(2);
      for (const row of r.rows)
        console.log(
          `${row.case.padEnd(16)} webgpu vs wasm ${e(row.webgpuVsWasm)}  webgpu vs wgsl ${e(row.webgpuVsWgsl)}  wasm vs wgsl ${e(row.wasmVsWgsl)}`,
        );
      const worst = Math.max(...r.rows.flatMap((x) => [x.webgpuVsWasm, x.webgpuVsWgsl, x.wasmVsWgsl]));
      console.log(`worst ${e(worst)} (bound ${TOL})`);
      return worst <= TOL ? 0 : 1;
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

process.exit(await main());
