/**
 * `vite build` prints nothing a CI log reader must learn to skip (vite.config.ts): the chunk-size warning's
 * limit sits just above today's largest JS chunk (index 1,396 kB; data, the Moby-Dick text, 1,205 kB), and
 * Rolldown's [PLUGIN_TIMINGS] report is off for the page and its workers, so a new warning stands out.
 * (Checked by hand: `npx vite build --outDir /tmp/x` prints neither.)
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Read as text: importing vite.config.ts here would load Vite's Node build inside vitest's.
const config = readFileSync(resolve(__dirname, "../../vite.config.ts"), "utf8");

/** The text of the config's top-level `key: { … }` object, on one line or several (braces matched). */
function block(key: string): string {
  const start = config.search(new RegExp(`^ {2}${key}: \\{`, "m"));
  if (start < 0) return "";
  let depth = 0;
  for (let i = config.indexOf("{", start); i < config.length; i++) {
    if (config[i] === "{") depth++;
    else if (config[i] === "}" && --depth === 0) return config.slice(start, i + 1);
  }
  return "";
}

describe("vite build's report", () => {
  it("warns only for a chunk larger than today's largest (1,396 kB), and not far above it", () => {
    const limit = Number(/^\s*chunkSizeWarningLimit: (\d+),/m.exec(config)?.[1] ?? 500);
    expect(limit).toBeGreaterThan(1396);
    expect(limit).toBeLessThanOrEqual(1600);
  });

  it("prints no plugin-timings report, for the page or its workers", () => {
    expect(config).toMatch(/^ {4}rolldownOptions: \{ checks: \{ bundlerTimings: false \} \},$/m); // build
    expect(block("worker")).toMatch(/rolldownOptions: \{ checks: \{ bundlerTimings: false \} \}/);
  });
});
