/**
 * The chart's pinned hover card (chart_pin.ts, PinnedTip.tsx): a click on the data pins the card at its x, a
 * click off the data keeps what is there, × / Escape unpin; the pinned card writes its numbers at full
 * precision (as the CSV does), the hover card still at 3 significant digits; an Escape unpins only a chart it
 * concerns (escapeUnpins).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartTip } from "./ChartParts";
import { escapeUnpins, type Pin, pinPlace, pinReducer } from "./chart_pin";
import type { DrawnSeries } from "./chart_types";
import { exact } from "./numbers";
import { PinnedTip } from "./PinnedTip";

describe("pinReducer", () => {
  it("pins at the clicked x, moves to a new click, and stays put otherwise", () => {
    const click = (x: number | undefined, left: number | undefined, width: number | undefined = 800) =>
      ({ type: "click", x, left, width }) as const;
    const pinned = pinReducer(null, click(12, 240));
    expect(pinned).toEqual({ x: 12, frac: 0.3 });
    // A click off the data (no active label) leaves it, as it leaves no pin.
    expect(pinReducer(pinned, click(undefined, 10))).toBe(pinned);
    expect(pinReducer(null, click(undefined, 10))).toBeNull();
    expect(pinReducer(pinned, click(Number.NaN, 10))).toBe(pinned);
    // The same x again: the same pin (no redraw).
    expect(pinReducer(pinned, click(12, 300))).toBe(pinned);
    expect(pinReducer(pinned, click(30, 400))).toEqual({ x: 30, frac: 0.5 });
    expect(pinReducer(null, click(3, undefined))).toEqual({ x: 3, frac: 0 });
    expect(pinReducer(null, click(3, 50, 0))).toEqual({ x: 3, frac: 0 }); // plot not measured
    expect(pinReducer(null, click(3, 900))).toEqual({ x: 3, frac: 1 });
  });

  it("unpins on × / Escape / a new axis", () => {
    expect(pinReducer({ x: 12, frac: 0 }, { type: "unpin" })).toBeNull();
    expect(pinReducer(null, { type: "unpin" })).toBeNull();
  });

  it("places the card beside the click, on the side with more room", () => {
    const at = (frac: number): Pin => ({ x: 1, frac });
    expect(pinPlace(at(100 / 600), 600, 200)).toEqual({ left: 112 });
    expect(pinPlace(at(500 / 600), 600, 200)).toEqual({ left: 288 }); // its right edge 12 px left of the click
    expect(pinPlace(at(0.5), 0, 0)).toEqual({ left: 0 }); // not measured yet
  });

  it("keeps the card inside its plot: left in [0, width − card], 0 where the card is the wider", () => {
    // The KL chart at 1280×800: 418 px, clicked two-thirds across; the card was 707 px wide at x = −51.
    for (const [frac, card] of [
      [2 / 3, 400],
      [2 / 3, 707],
      [0.05, 300],
      [0.95, 300],
      [0.45, 380],
      [0.55, 380],
    ])
      for (const width of [418, 273, 900]) {
        const { left } = pinPlace({ x: 1, frac }, width, card);
        expect(left, `${frac} of ${width}, card ${card}`).toBeGreaterThanOrEqual(0);
        if (card <= width) expect(left + card).toBeLessThanOrEqual(width);
        else expect(left).toBe(0);
      }
  });

  it("follows the plot's width: after a resize the card is placed from the same fraction of it", () => {
    const pin = pinReducer(null, { type: "click", x: 4, left: 300, width: 418 }) as Pin;
    const before = pinPlace(pin, 418, 150).left; // right edge 12 px left of the click
    expect(before).toBe(300 - 12 - 150);
    const after = pinPlace(pin, 330, 150).left; // the window narrowed: the plot is 330 px
    expect(after).toBe(Math.round((300 / 418) * 330 - 12 - 150));
    expect(after + 150).toBeLessThanOrEqual(330);
  });
});

describe("escapeUnpins: which Escape unpins which chart", () => {
  /** A fake element: `inside` lists the selectors it sits in (closest matches one of them). */
  const el = (inside: string[] = [], editable = false) => ({
    closest: (sel: string) => (sel.split(", ").some((s) => inside.includes(s)) ? {} : null),
    isContentEditable: editable,
  });
  const body = el();
  const inChart = el();
  const elsewhere = el();
  const figure = { contains: (n: never) => n === (inChart as never) };
  const key = (target: unknown, defaultPrevented = false, k = "Escape") => ({
    key: k,
    defaultPrevented,
    target,
  });

  it("unpins on Escape from inside the chart's figure (its pinned card included)", () => {
    expect(escapeUnpins(key(inChart), figure, body, false)).toBe(true);
    expect(escapeUnpins(key(inChart, false, "Enter"), figure, body, true)).toBe(false);
  });

  it("leaves the pin on an Escape already used: a knob reverted, a rename or a confirm cancelled", () => {
    expect(escapeUnpins(key(inChart, true), figure, body, true)).toBe(false);
    expect(escapeUnpins(key(body, true), figure, body, true)).toBe(false);
  });

  it("leaves the pin on an Escape in a dialog (the explain dialog closes), a text field or editable text", () => {
    expect(escapeUnpins(key(el(["dialog"])), figure, body, true)).toBe(false);
    expect(escapeUnpins(key(el(['[role="alertdialog"]'])), figure, body, true)).toBe(false);
    for (const field of ["input", "select", "textarea"]) {
      expect(escapeUnpins(key(el([field])), figure, body, true)).toBe(false);
    }
    expect(escapeUnpins(key(el([], true)), figure, body, true)).toBe(false);
  });

  it("leaves it when focus is elsewhere; on the body, unpins only the most recently pinned chart", () => {
    expect(escapeUnpins(key(elsewhere), figure, body, true)).toBe(false);
    expect(escapeUnpins(key(body), figure, body, true)).toBe(true);
    expect(escapeUnpins(key(body), figure, body, false)).toBe(false);
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
      createElement(PinnedTip, { ...props, pin: { x: 2, frac: 0.1 }, width: 600, onClose: () => {} }),
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
