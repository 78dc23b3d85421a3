import { describe, expect, it } from "vitest";
import { place } from "./Popover";

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
});
