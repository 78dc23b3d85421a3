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
