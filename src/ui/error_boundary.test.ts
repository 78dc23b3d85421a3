import { describe, expect, it } from "vitest";
import { notDownloaded } from "./not_downloaded";

describe("the crash card tells a download failure from a bug", () => {
  it("reads the browsers' and Vite's words for a chunk that did not download", () => {
    for (const m of [
      "Failed to fetch dynamically imported module: http://lab/assets/ExplainDialog-_mtiJFiY.js", // Chrome
      "error loading dynamically imported module: http://lab/assets/x.js", // Firefox
      "Importing a module script failed.", // Safari
      "Unable to preload CSS for /assets/ExplainDialog-Bq1.css", // Vite's preloader
    ])
      expect(notDownloaded(new Error(m)), m).toBe(true);
    for (const m of ["Cannot read properties of undefined (reading 'spec')", "Minified React error #185"])
      expect(notDownloaded(new Error(m)), m).toBe(false);
  });
});
