/**
 * A pinned card stays at its data point (pin_anchor.ts, PinnedTip.tsx): when new steps widen the x axis the card
 * moves with its x (it stayed at its click's fraction of the plot, pointing at a later step), and an x past the
 * plot's edge is held there with a note. A click pins the x under it from its own coordinates (chart_pin.ts
 * plotClick), with no mousemove before it: recharts' active label, which it used, is the last mousemove's
 * (none for a click or a tap straight away: nothing was pinned).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type Pin, pinPlace, pinReducer, plotClick } from "./chart_pin";
import type { DrawnSeries } from "./chart_types";
import { PinnedTip } from "./PinnedTip";
import { clickedX, createPlotBox, type PlotScale, pinAnchor, pxToX, xToPx } from "./pin_anchor";

/** A 500 px chart box whose plot area is 400 px wide from px 60, over steps [x0, x1]. */
const scale = (x0: number, x1: number): PlotScale => ({ left: 60, top: 8, width: 400, height: 200, x0, x1 });

const series: DrawnSeries[] = [
  {
    id: "ppo-1-reward",
    line: { runId: "ppo-1", runLabel: "PPO", colour: "red", metric: "reward", history: [] },
    points: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((x) => ({ step: x, x, raw: x / 10, smooth: x / 10, sx: x })),
    drawn: [],
    total: 10,
  },
];

/** PinnedTip's markup for `pin` on a 500 px wide chart whose drawn scale is `box`'s. */
function cardHtml(pin: Pin, box = createPlotBox()): string {
  return renderToStaticMarkup(
    createElement(PinnedTip, {
      pin,
      width: 500,
      box,
      onClose: () => {},
      series,
      xLabel: "step",
      drawn: "raw",
    }),
  );
}

/** The card's left (px) as PinnedTip renders it. */
function cardLeft(pin: Pin, box = createPlotBox()): number {
  return Number(/left:(-?[\d.]+)px/.exec(cardHtml(pin, box))?.[1]);
}

describe("a pinned card follows its x as the axis rescales", () => {
  it("maps x to px and back on the plot area", () => {
    const s = scale(0, 10);
    expect(xToPx(s, 0)).toBe(60);
    expect(xToPx(s, 10)).toBe(460);
    expect(pxToX(s, 260)).toBe(5);
    expect(xToPx(scale(3, 3), 3)).toBe(260); // one step: the middle
  });

  it("is drawn beside its step after new steps widen the axis, not at its old fraction", () => {
    // Pinned at step 10, the last of 10, clicked at the plot's right end (px 458 of 500).
    const pin = pinReducer(null, { type: "click", x: 10, left: 458, width: 500 }) as Pin;
    const box = createPlotBox();
    box.set(scale(1, 10));
    expect(pinAnchor(pin, box.get(), 500)).toEqual({ at: 460 });
    expect(cardLeft(pin, box)).toBe(Math.round(460 - 12)); // not measured (0 px wide): its right edge at 448
    // Training went on to step 30: step 10 is now under px 60 + 9/29 of 400 ≈ 184, left of the middle.
    box.set(scale(1, 30));
    const at = 60 + (9 / 29) * 400;
    expect(pinAnchor(pin, box.get(), 500).at).toBeCloseTo(at, 9);
    expect(cardLeft(pin, box)).toBe(Math.round(at + 12)); // was 446: over step ~28
  });

  it("holds a card whose x is past the plot's edge at that edge, and says so", () => {
    const pin: Pin = { x: 40, frac: 0.9 };
    expect(pinAnchor(pin, scale(0, 20), 500)).toEqual({ at: 460, off: "right" });
    expect(pinAnchor({ x: -1, frac: 0 }, scale(0, 20), 500)).toEqual({ at: 60, off: "left" });
    const box = createPlotBox();
    box.set(scale(0, 20));
    const html = cardHtml(pin, box);
    expect(html).toContain('data-off="right"');
    expect(html).toContain("step 40 is off the plot");
  });

  it("uses the click's fraction until the chart has published its scale", () => {
    expect(pinAnchor({ x: 3, frac: 0.25 }, undefined, 400)).toEqual({ at: 100 });
    expect(pinPlace({ x: 3, frac: 0.25 }, 400, 100)).toEqual({ left: 112 });
    expect(pinPlace({ x: 3, frac: 0.25 }, 400, 100, 300)).toEqual({ left: 188 }); // beside `at`, left of it
  });

  it("tells its listeners of a new scale only", () => {
    const box = createPlotBox();
    let calls = 0;
    const stop = box.subscribe(() => calls++);
    box.set(scale(0, 10));
    box.set(scale(0, 10));
    box.set(scale(0, 11));
    stop();
    box.set(scale(0, 12));
    expect(calls).toBe(2);
  });
});

describe("a click pins from its own coordinates", () => {
  const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

  it("pins the drawn x nearest the click, with no mousemove before it (no active label)", () => {
    const s = scale(1, 10);
    // px 60 + 400 × (6.4 − 1) / 9 = 300: step 6.4 under the click, step 6 drawn nearest.
    const action = plotClick({}, { x: 300, y: 100 }, s, xs, 500);
    expect(action).toEqual({ type: "click", x: 6, left: 300, width: 500 });
    expect(pinReducer(null, action)).toEqual({ x: 6, frac: 0.6 });
    // recharts' stale label (the last mousemove's) does not override where the click was.
    expect(plotClick({ activeLabel: 2 }, { x: 300, y: 100 }, s, xs, 500).x).toBe(6);
  });

  it("pins nothing off the plot area (an axis, a margin) or with nothing drawn", () => {
    const s = scale(1, 10);
    expect(clickedX(s, 30, 100, xs)).toBeUndefined(); // on the y axis
    expect(clickedX(s, 300, 230, xs)).toBeUndefined(); // below the plot: the x axis
    expect(clickedX(s, 300, 100, [])).toBeUndefined();
    expect(clickedX(s, 460, 100, xs)).toBe(10);
  });

  it("falls back to recharts' label before the scale is known, or for a click without coordinates", () => {
    expect(
      plotClick({ activeLabel: 4, activeCoordinate: { x: 200 } }, undefined, scale(1, 10), xs, 500),
    ).toEqual({ type: "click", x: 4, left: 200, width: 500 });
    expect(plotClick({ activeLabel: "7" }, { x: 300, y: 100 }, undefined, xs, 500).x).toBe(7);
  });
});
