/**
 * React Fast Refresh (README "Contributing: the dev server") swaps an edited .tsx in place only when it exports
 * components alone; one that also exports a function (a helper, a hook) is remounted instead: open menus and
 * half-typed knob values were lost ("Could not Fast Refresh ("forkedNote" export is incompatible)"). Biome's
 * useComponentExportOnlyModules enforces it in `npm run lint`; this is the same rule as a plain scan (a
 * lower-case exported function or const in a .tsx under src/), and a check that the lint rule stays on.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src");

function tsx(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsx(p) : name.endsWith(".tsx") ? [p] : [];
  });
}

/** The names a module exports that are not components: lower-case functions and consts (hooks included). */
function nonComponents(src: string): string[] {
  return [...src.matchAll(/^export (?:async )?(?:function\*? |const |let )([a-z_]\w*)/gm)].map((m) => m[1]);
}

describe("component modules export components only", () => {
  const files = tsx(SRC).map((p) => relative(SRC, p));

  it.each(files)("%s", (f) => {
    expect(nonComponents(readFileSync(join(SRC, f), "utf8")), `${f}: move these into a .ts sibling`).toEqual(
      [],
    );
  });

  it("the lint rule is on", () => {
    const config = readFileSync(join(ROOT, "biome.jsonc"), "utf8");
    expect(config).toMatch(/"useComponentExportOnlyModules": \{ "level": "error"/);
  });
});
