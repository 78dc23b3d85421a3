import { describe, expect, it } from "vitest";
import { place } from "./popover_place";

const view = { width: 1280, height: 800 };
const at = (left: number, top: number, h = 20) => ({ left, top, bottom: top + h });

describe("place (floating cards)", () => {
  it("puts a card below its anchor, or above when there is no room below", () => {
    expect(place(at(100, 100), 200, 100, view)).toEqual({ left: 100, top: 126 });
    expect(place(at(100, 740), 200, 100, view)).toEqual({ left: 100, top: 634 });
  });
  it("keeps the card inside the viewport even when the anchor is scrolled out of it", () => {
    expect(place(at(100, -500), 200, 100, view).top).toBe(8);
    expect(place(at(100, 2000), 200, 100, view).top).toBe(692);
    expect(place(at(1250, 100), 200, 100, view).left).toBe(1072);
    expect(place(at(-50, 100), 200, 100, view).left).toBe(8);
  });
  it("goes beside a box it must not cover (a run card), right of it, else left, else below the anchor", () => {
    const card = { left: 24, right: 350 };
    expect(place(at(40, 300), 330, 170, view, card)).toEqual({ left: 358, top: 300 });
    expect(place(at(40, 700), 330, 170, view, card)).toEqual({ left: 358, top: 622 });
    expect(place(at(1000, 300), 330, 170, view, { left: 900, right: 1270 })).toEqual({ left: 562, top: 300 });
    expect(place(at(40, 300), 330, 170, { width: 700, height: 800 }, { left: 8, right: 692 })).toEqual({
      left: 40,
      top: 326,
    });
  });
});
