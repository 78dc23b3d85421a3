/** Which run card is first in view, the place the cards keep across the one-column switch (strip_anchor.ts). */
import { describe, expect, it } from "vitest";
import { firstInView } from "./strip_anchor";

describe("the card first in view", () => {
  // Three cards 400 px tall with 12 px gaps (the column), or 330 px wide (the strip).
  const column = [0, 412, 824].map((start) => ({ start, size: 400 }));
  it("is the first at least half past the scroll position", () => {
    expect(firstInView(column, 0)).toBe(0);
    expect(firstInView(column, 200)).toBe(0); // exactly half of the first still in view
    expect(firstInView(column, 201)).toBe(1);
    expect(firstInView(column, 700)).toBe(2);
    expect(firstInView(column, 5000)).toBe(2); // past the end: the last
    expect(firstInView([], 100)).toBe(0);
  });
});
