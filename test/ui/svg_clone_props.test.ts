/**
 * A saved chart image inlines every style property the page's CSS sets that changes what an SVG element draws
 * (svg_clone.ts INLINED): one left out draws differently in the file. paint-order was: a marker label's halo
 * (charts.css .marker-label: paint-order stroke) was painted over its letters, which vanished in every image.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INLINED } from "../../src/ui/lab/chart_image/svg_clone";

/** Properties that change what an SVG element draws (presentation and text properties an SVG honours). */
const SVG_DRAWING = new Set([
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "paint-order",
  "marker",
  "marker-start",
  "marker-mid",
  "marker-end",
  "opacity",
  "visibility",
  "display",
  "shape-rendering",
  "vector-effect",
  "text-anchor",
  "dominant-baseline",
  "alignment-baseline",
  "baseline-shift",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "font-variant-numeric",
  "letter-spacing",
  "word-spacing",
  "text-transform",
]);
/** A shorthand the CSS may use, as the longhands an SVG text reads. */
const LONGHANDS: Record<string, string[]> = {
  font: ["font-family", "font-size", "font-weight", "font-style"],
};

/** The page's stylesheets (screen: print.css and forced_colors.css never apply while saving an image). */
function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? stylesheets(join(dir, d.name))
      : d.name.endsWith(".css") && !["print.css", "forced_colors.css"].includes(d.name)
        ? [join(dir, d.name)]
        : [],
  );
}

describe("the properties a saved chart inlines", () => {
  it("cover every SVG-drawing property the page's CSS sets", () => {
    const set = new Set<string>();
    for (const file of stylesheets("src/ui")) {
      const css = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      for (const m of css.matchAll(/[{;]\s*([a-z-]+)\s*:/g))
        for (const p of LONGHANDS[m[1]] ?? [m[1]]) if (SVG_DRAWING.has(p)) set.add(p);
    }
    expect(set.has("paint-order")).toBe(true); // the marker label's halo
    const inlined = new Set<string>(INLINED);
    expect([...set].filter((p) => !inlined.has(p))).toEqual([]);
  });
});
