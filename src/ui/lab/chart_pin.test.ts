/**
 * The chart's pinned hover card (chart_pin.ts, PinnedTip.tsx): a click on the data pins the card at its x, a
 * click off the data keeps what is there, × / Escape unpin; the pinned card writes its numbers at full
 * precision (as the CSV does), the hover card still at 3 significant digits.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartTip } from "./ChartParts";
import { type Pin, pinPlace, pinReducer } from "./chart_pin";
import type { DrawnSeries } from "./chart_types";
import { exact } from "./numbers";
import { PinnedTip } from "./PinnedTip";

describe("pinReducer", () => {
  it("pins at the clicked x, moves to a new click, and stays put otherwise", () => {
    const pinned = pinReducer(null, { type: "click", x: 12, left: 240 });
    expect(pinned).toEqual({ x: 12, left: 240 });
    // A click off the data (no active label) leaves it, as it leaves no pin.
    expect(pinReducer(pinned, { type: "click", x: undefined, left: 10 })).toBe(pinned);
    expect(pinReducer(null, { type: "click", x: undefined, left: 10 })).toBeNull();
    expect(pinReducer(pinned, { type: "click", x: Number.NaN, left: 10 })).toBe(pinned);
    // The same x again: the same pin (no redraw).
    expect(pinReducer(pinned, { type: "click", x: 12, left: 300 })).toBe(pinned);
    expect(pinReducer(pinned, { type: "click", x: 30, left: 400 })).toEqual({ x: 30, left: 400 });
    expect(pinReducer(null, { type: "click", x: 3, left: undefined })).toEqual({ x: 3, left: 0 });
  });

  it("unpins on × / Escape / a new axis", () => {
    expect(pinReducer({ x: 12, left: 0 }, { type: "unpin" })).toBeNull();
    expect(pinReducer(null, { type: "unpin" })).toBeNull();
  });

  it("places the card beside the click, on the side with more room", () => {
    const at = (left: number): Pin => ({ x: 1, left });
    expect(pinPlace(at(100), 600)).toEqual({ left: 112 });
    expect(pinPlace(at(500), 600)).toEqual({ right: 112 });
    expect(pinPlace(at(500), 0)).toEqual({ left: 512 }); // not measured yet
  });
});

describe("the pinned card's numbers", () => {
  const raw = -0.30000000000000004; // -(0.1 + 0.2)
  const smooth = -0.10234567890123457;
  const series: DrawnSeries[] = [
    {
      id: "ppo-1-reward",
      line: { runId: "ppo-1", runLabel: "PPO", colour: "red", metric: "reward", history: [] },
      points: [
        { step: 1, x: 1, raw: 0.5, smooth: 0.5, sx: 1 },
        { step: 2, x: 2, raw, smooth, sx: 2 },
      ],
      drawn: [],
      total: 2,
    },
  ];
  const props = { series, xLabel: "step", drawn: "smooth" as const };

  it("are at full precision, as the CSV writes them, when pinned", () => {
    const html = renderToStaticMarkup(
      createElement(PinnedTip, { ...props, pin: { x: 2, left: 50 }, width: 600, onClose: () => {} }),
    );
    expect(html).toContain(`>${exact(smooth)}<`);
    expect(html).toContain(`raw ${exact(raw)}`);
    expect(exact(raw)).toBe("-0.30000000000000004");
    expect(Number(exact(raw))).toBe(raw); // round-trips
    expect(html).toContain('data-testid="chart-tip-close"');
    expect(html).toContain("step 2");
  });

  it("stay at 3 significant digits in the hover card", () => {
    const html = renderToStaticMarkup(createElement(ChartTip, { ...props, x: 2 }));
    expect(html).toContain(">-0.102<");
    expect(html).toContain("raw -0.3<");
  });
});
