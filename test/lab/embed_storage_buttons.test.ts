/**
 * The answers the notice offers when the lab is embedded and the browser keeps it from saving
 * (src/ui/lab/EmbedStorageButtons.tsx): "Open in its own tab ↗" only. A "Let it save" button once asked for
 * storage access, which cannot work: Chromium opens IndexedDB to an embedded page only through the handle that
 * requestStorageAccess({indexedDB: true}) returns, which idb's openDB (on the global indexedDB) does not take,
 * and the grant ends with the document. Rendered with react-dom/server in Node; useState reports what the
 * browser's answer would make it (a frame that can ask), and the store holds the embedded notice.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { EMBEDDED_NO_STORAGE_LINE } from "../../src/ui/lab/embed_storage";

const { line } = vi.hoisted(() => ({
  line: "This lab is embedded in another site's page, and the browser keeps embedded pages from saving. Runs will not survive a reload.",
}));
vi.mock("react", async (original) => {
  const react = await original<typeof import("react")>();
  // A boolean state starting false reads true: as if the browser had said this frame could ask for storage.
  const useState = (init: unknown) => [init === false ? true : init, () => {}];
  return { ...react, default: { ...react, useState }, useState };
});
vi.mock("../../src/ui/lab_store", async (original) => {
  const store = await original<typeof import("../../src/ui/lab_store")>();
  const state = { notice: `Opened the lab. ${line}` };
  return { ...store, useLab: (pick: (s: typeof state) => unknown) => pick(state) };
});
const { EmbedStorageButtons } = await import("../../src/ui/lab/EmbedStorageButtons");

describe("the embedded notice's answers", () => {
  beforeEach(() => {
    vi.stubGlobal("location", { href: "https://lab.example/#s=x" });
    // A browser with the Storage Access API, this frame without access yet.
    vi.stubGlobal("document", {
      requestStorageAccess: async () => {},
      hasStorageAccess: async () => false,
    });
  });

  it("offers Open in its own tab, and no Let it save even where requestStorageAccess exists", () => {
    expect(EMBEDDED_NO_STORAGE_LINE).toBe(line);
    const html = renderToStaticMarkup(createElement(EmbedStorageButtons));
    expect(html).toContain('data-testid="open-own-tab"');
    expect(html).toContain("Open in its own tab ↗");
    expect(html).toContain('href="https://lab.example/#s=x"');
    expect(html).not.toContain("let-it-save");
    expect(html).not.toContain("Let it save");
  });
});
