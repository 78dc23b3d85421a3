/**
 * The page's footer (src/ui/Credits.tsx, in App): a "Licences and credits" link to the built site's
 * THIRD_PARTY_NOTICES.txt (the file build/notices.ts emits) and a credits line naming AFINN-165 under ODbL and
 * the Moby-Dick text under PDDL/CC0.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NOTICES_FILE } from "../../build/notices_text";
import { Credits, NOTICES_HREF } from "./Credits";

describe("the credits footer", () => {
  const html = renderToStaticMarkup(createElement(Credits));

  it("links the built site's notices file, opening it in a new tab", () => {
    expect(NOTICES_HREF).toBe(`./${NOTICES_FILE}`);
    expect(html).toMatch(
      /<a href="\.\/THIRD_PARTY_NOTICES\.txt" target="_blank" rel="noopener"[^>]*>Licences and credits<\/a>/,
    );
  });

  it("credits AFINN-165 (ODbL) and Moby-Dick (PDDL, CC0) and says the project is MIT", () => {
    expect(html).toContain("AFINN-165 by Finn Årup Nielsen (DTU)");
    expect(html).toContain('href="https://opendatacommons.org/licenses/odbl/1-0/"');
    expect(html).toMatch(/ODbL v1\.0/);
    expect(html).toMatch(/Moby-Dick<\/i> text from @stdlib\/datasets-moby-dick \(PDDL v1\.0, CC0 v1\.0\)/);
    expect(html).toContain("MIT-licensed");
  });

  it("is on every page state: App renders it after main", () => {
    const app = readFileSync(join(import.meta.dirname, "App.tsx"), "utf8");
    expect(app).toMatch(/<\/main>\s*<Credits \/>/);
  });
});
