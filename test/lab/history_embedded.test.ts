/**
 * Embedded in another site's page (an <iframe>: `window.top` is another window), the lab adds no entry to the
 * host page's history (src/ui/lab/embedded.ts): a lesson opened inside it replaces its address, and a refused
 * Back writes this experiment's address over the entry Back moved to instead of pushing a new one — a reviewer's
 * course page could not be left by Back: each press landed in the lab, which pushed its address again. In its
 * own tab (test/lab/history_leave*.test.ts) both still add an entry. In Node: the stubbed page of ./session_page.ts.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { encode } from "../../src/lab/url";
import { useLeaveAsk } from "../../src/ui/lab/history_leave";
import { openAnyway } from "../../src/ui/lab/open_anyway";
import { leaveFor } from "../../src/ui/lab/saving";
import { back, openOver, seedLink, stubLeavePage } from "./leave_page";
import { page } from "./session_page";

stubLeavePage();
// The host page's window: the lab's frame is not the top one.
beforeEach(() => void Object.assign(window, { top: new EventTarget() }));

describe("embedded in another page", () => {
  it("opens another experiment in place: location.replace, no history entry", async () => {
    const { assign, push } = await openOver([]);
    const replace = vi.fn();
    Object.assign(page.loc, { replace });
    // A lesson picked in the lab (the Lessons menu leaves for its link as the Change… dialog does).
    expect(await leaveFor(seedLink(5))).toBe(true);
    expect(replace).toHaveBeenCalledTimes(1);
    expect(replace.mock.calls[0][0]).toBe(seedLink(5));
    expect(assign).not.toHaveBeenCalled();
    expect(push).not.toHaveBeenCalled();
  });

  it("a refused Back writes this experiment's address over the entry it moved to: a second Back goes on back", async () => {
    // Six kept experiments, each with more training: leaving would not keep this one, so the lab asks.
    const { assign, push, here } = await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    const replace = vi.fn();
    Object.assign(page.loc, { replace });
    const rewrite = vi.spyOn(history, "replaceState");
    expect(await back(9)).toBe(false);
    expect(push).not.toHaveBeenCalled();
    expect(rewrite).toHaveBeenCalledTimes(1);
    expect(page.loc.hash).toBe(here);
    expect(useLeaveAsk.getState().ask?.url).toBe(seedLink(9));
    // Open anyway: the link opens in place.
    expect(await openAnyway()).toBe(true);
    expect(replace.mock.calls).toEqual([[`http://lab.test/#${encode({ ...defaultExperiment(), seed: 9 })}`]]);
    expect(assign).not.toHaveBeenCalled();
  });
});
