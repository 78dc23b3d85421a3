/** The run strip's "runs 1–2 of 3 in view" and the ‹ › buttons' targets (one-column layout). */
import { describe, expect, it } from "vitest";
import { scrollTarget, stripView } from "./strip_view";

// Three cards of 330 px with a 12 px gap, in a strip 800 px wide (a 853 px window): content 1014 px.
const cards = [0, 342, 684].map((left) => ({ left, width: 330 }));

describe("run strip view", () => {
  it("is null when the cards fit, else names the cards at least half in view", () => {
    expect(stripView(cards, 0, 1100, 1014)).toBeNull();
    expect(stripView(cards, 0, 1014, 1014)).toBeNull();
    expect(stripView([], 0, 300, 600)).toBeNull();
    expect(stripView(cards, 0, 800, 1014)).toEqual({ first: 0, last: 1, count: 3 }); // third: 116 of 330 in view
    expect(stripView(cards, 214, 800, 1014)).toEqual({ first: 1, last: 2, count: 3 }); // scrolled to the end
    expect(stripView(cards, 100, 800, 1014)).toEqual({ first: 0, last: 2, count: 3 }); // first 230, third 216: both ≥ 165
    // A strip narrower than half a card: the card under its middle.
    expect(stripView(cards, 300, 120, 1014)).toEqual({ first: 1, last: 1, count: 3 });
  });

  it("› brings the next card wholly into view at the right edge, ‹ the previous one at the left", () => {
    const start = stripView(cards, 0, 800, 1014);
    if (!start) throw new Error("no view");
    expect(scrollTarget(cards, start, 1, 800)).toBe(214); // 684 + 330 − 800
    const end = stripView(cards, 214, 800, 1014);
    if (!end) throw new Error("no view");
    expect(scrollTarget(cards, end, -1, 800)).toBe(0);
    // At an end, the button goes to the end card itself (it is disabled there in the page).
    expect(scrollTarget(cards, end, 1, 800)).toBe(214);
  });
});
