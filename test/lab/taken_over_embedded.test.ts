/**
 * The notice of a lab that another copy took saving from (src/ui/lab/saving_tabs.ts takenOverLine): in its own
 * tab, "Another tab …"; embedded in a page, where the other copy may be a second embed on the same page (a
 * reviewer's course page with two labs read "Another tab opened the lab"), it names both.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RELOAD_LINE, takenOverLine } from "../../src/ui/lab/saving_tabs";

afterEach(() => vi.unstubAllGlobals());

describe("who took saving over", () => {
  it("in its own tab: another tab", () => {
    vi.stubGlobal("window", new EventTarget());
    expect(takenOverLine("opened")).toBe(
      `Another tab opened the lab and now saves this browser's experiment: this tab no longer saves. ${RELOAD_LINE}`,
    );
  });

  it("embedded: another copy of the lab, a tab or another embed on the page", () => {
    vi.stubGlobal("window", Object.assign(new EventTarget(), { top: new EventTarget() }));
    expect(takenOverLine("opened")).toBe(
      "Another copy of the lab (another tab, or another embed on this page) opened and now saves this browser's " +
        `experiment: this one no longer saves. ${RELOAD_LINE}`,
    );
    expect(takenOverLine("save-here")).toBe(
      "Another copy of the lab (another tab, or another embed on this page) took over (Save here) and now saves " +
        `this browser's experiment: this one no longer saves. ${RELOAD_LINE}`,
    );
  });
});
