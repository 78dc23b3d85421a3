/**
 * The e2e specs run in Playwright's Node, which loads TypeScript but not the `?raw` WGSL imports Vite and vitest
 * turn into strings: a src module an e2e file imports must not reach a kernel. One did (rm_isolated.ts →
 * csp_blocked.ts → reward_sources.ts → the kernels: "Unknown file extension .wgsl" before any spec ran, in CI only,
 * since vitest loads WGSL). Every src module the e2e files import is loaded here in a plain Node with tsx, as
 * Playwright does.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const E2E = resolve("e2e");

/** The src modules imported (values or types) by the e2e folder's .ts files, as absolute paths. */
function e2eSrcImports(): string[] {
  const found = new Set<string>();
  for (const f of readdirSync(E2E).filter((n) => n.endsWith(".ts"))) {
    const text = readFileSync(join(E2E, f), "utf8");
    for (const m of text.matchAll(/from "(\.\.\/src\/[^"]+)"/g)) found.add(resolve(E2E, `${m[1]}.ts`));
  }
  return [...found].sort();
}

describe("the e2e specs' src imports", () => {
  it("load in plain Node (no WGSL reached)", () => {
    const modules = e2eSrcImports();
    expect(modules.length).toBeGreaterThan(5);
    const script = `const ms = ${JSON.stringify(modules.map((m) => `file://${m}`))};
for (const m of ms) { try { await import(m); } catch (e) { console.log("FAIL " + m + ": " + e.message); } }`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(
      out.split("\n").filter((l) => l.startsWith("FAIL")),
      out,
    ).toEqual([]);
  }, 150_000);
});
