/** The run strip's "runs 1–2 of 3 in view", its fades and the ‹ › buttons' targets (one-column layout). */
import { describe, expect, it } from "vitest";
import { STRIP_FADE, scrollTarget, stripView } from "./strip_view";

// Three cards of 330 px with a 12 px gap, in a strip 800 px wide (a 853 px window): content 1014 px.
const cards = [0, 342, 684].map((left) => ({ left, width: 330 }));
const W = 800;
const SW = 1014;

describe("run strip view", () => {
  it("is null when the cards fit, else names the cards at least half in view and where more is", () => {
    expect(stripView(cards, 0, 1100, SW)).toBeNull();
    expect(stripView(cards, 0, SW, SW)).toBeNull();
    expect(stripView([], 0, 300, 600)).toBeNull();
    // Third card: 116 of 330 px in view.
    expect(stripView(cards, 0, W, SW)).toEqual({
      first: 0,
      last: 1,
      count: 3,
      moreLeft: false,
      moreRight: true,
    });
    expect(stripView(cards, 214, W, SW)).toEqual({
      first: 1,
      last: 2,
      count: 3,
      moreLeft: true,
      moreRight: false,
    });
    // Both end cards more than half in view, both cut: more on both sides all the same.
    expect(stripView(cards, 100, W, SW)).toEqual({
      first: 0,
      last: 2,
      count: 3,
      moreLeft: true,
      moreRight: true,
    });
    // A strip narrower than half a card: the card under its middle.
    expect(stripView(cards, 300, 120, SW)).toMatchObject({ first: 1, last: 1 });
  });

  it("› brings the first card cut on the right wholly into view, clear of the fade; ‹ the last one cut on the left", () => {
    // From the start: the third card is cut; its right edge (1014) is the strip's end, so the end of the strip.
    expect(scrollTarget(cards, 1, 0, W, SW)).toBe(SW - W);
    // From the end: the first card is cut on the left: back to the start (clamped at 0).
    expect(scrollTarget(cards, -1, SW - W, W, SW)).toBe(0);
    // Nothing cut on that side: the end of the strip that way.
    expect(scrollTarget(cards, 1, SW - W, W, SW)).toBe(SW - W);
    expect(scrollTarget(cards, -1, 0, W, SW)).toBe(0);
    // Five cards, 700 px strip: from 0, the third card (684–1014) is cut; it ends STRIP_FADE px inside the edge.
    const five = [0, 342, 684, 1026, 1368].map((left) => ({ left, width: 330 }));
    const to = scrollTarget(five, 1, 0, 700, 1698);
    expect(to).toBe(1014 + STRIP_FADE - 700);
    // And back: the second card (342–672) is cut on the left at 370: it starts STRIP_FADE px inside the left edge.
    expect(scrollTarget(five, -1, to, 700, 1698)).toBe(342 - STRIP_FADE);
  });

  it("on a phone (a strip hardly wider than a card) › and ‹ show each card whole, one press a card either way", () => {
    // 330 px cards, 12 px gap, a 360 px strip: room for 15 px beside a card, not for the fade's 56.
    const four = [0, 342, 684, 1026].map((left) => ({ left, width: 330 }));
    const W4 = 360;
    const SW4 = 1356;
    const wholly = (x: number) => {
      const v = four.filter((c) => c.left >= x - 0.5 && c.left + c.width <= x + W4 + 0.5);
      return four.indexOf(v[0]);
    };
    let x = 0;
    const seen: number[] = [];
    for (const dir of [1, 1, -1, -1, 1] as const) {
      x = scrollTarget(four, dir, x, W4, SW4);
      seen.push(wholly(x));
    }
    expect(seen).toEqual([1, 2, 1, 0, 1]);
  });
});
