/**
 * A chart's pinned hover card: a click on the plot freezes the card at the clicked x (a step, or samples,
 * tokens, KL where that is the axis), with its numbers at full precision and selectable; the mouse moving on
 * leaves it where it is. × or Escape unpins it, and so does a change of the x axis (the pinned x would mean
 * something else). Escape unpins only a chart it concerns (escapeUnpins): focus in that chart's figure, or on
 * the page's body (then only the most recently pinned chart); never an Escape a knob, a rename, a confirm, a
 * menu or a dialog already used. The state is a pure reducer (chart_pin.test.ts); useChartPin wires it up.
 */
import { type RefObject, useCallback, useEffect, useReducer, useRef } from "react";
import { clickedX, type PlotBox, type PlotScale } from "./pin_anchor";

/**
 * Where a card is pinned: the x it shows, and where the click was across the plot (0 its left edge, 1 its
 * right), so the card follows the plot when the window is resized.
 */
export interface Pin {
  x: number;
  frac: number;
}

export type PinAction =
  /** A click on the plot: x is recharts' active label there (undefined off the data); left its px, of width. */
  | { type: "click"; x: number | undefined; left: number | undefined; width: number | undefined }
  /** ×, Escape, or a new x axis. */
  | { type: "unpin" };

/** The next pin: a click on the data pins (or moves the pin to) its x; a click off the data changes nothing. */
export function pinReducer(pin: Pin | null, action: PinAction): Pin | null {
  if (action.type === "unpin") return null;
  const x = action.x;
  if (x === undefined || !Number.isFinite(x)) return pin;
  if (pin && pin.x === x) return pin;
  const { left, width } = action;
  const frac = Number.isFinite(left) && width !== undefined && width > 0 ? (left as number) / width : 0;
  return { x, frac: Math.min(1, Math.max(0, frac)) };
}

/**
 * Where the card sits in its plot (`width` px wide now): beside `at` (px from the left: its pinned x as drawn
 * now, pin_anchor.ts pinAnchor; by default the click's fraction of the plot), on the side with more room, and
 * always inside the plot — its left in [0, width − cardWidth] (0 where the card is the wider: it is at most as
 * wide as the plot, PinnedTip).
 */
export function pinPlace(
  pin: Pin,
  width: number,
  cardWidth: number,
  at = pin.frac * width,
): { left: number } {
  const gap = 12;
  const left = at > width / 2 ? at - gap - cardWidth : at + gap;
  return { left: Math.round(Math.max(0, Math.min(left, width - cardWidth))) };
}

/** What recharts passes a chart's onClick (the hovered x's label and the cursor's place). */
interface PlotClick {
  activeLabel?: unknown;
  activeCoordinate?: { x: number };
}

/**
 * The pin action of a click on a plot. With the plot's scale drawn (`scale`) and the click's place (`at`, px from
 * the chart box's top left), the drawn x (`xs`) nearest the x under the click (pin_anchor.ts clickedX): a
 * click or tap with no mousemove before it pins too, and a quick click pins where it was, not where the last
 * mousemove recharts had handled was. Without them, recharts' active label. `width`: the plot box's px.
 */
export function plotClick(
  state: PlotClick,
  at: { x: number; y: number } | undefined,
  scale: PlotScale | undefined,
  xs: Iterable<number>,
  width: number | undefined,
): Extract<PinAction, { type: "click" }> {
  if (at && scale && scale.width > 0)
    return { type: "click", x: clickedX(scale, at.x, at.y, xs), left: at.x, width };
  return {
    type: "click",
    x: state.activeLabel == null ? undefined : Number(state.activeLabel),
    left: state.activeCoordinate?.x,
    width,
  };
}

/** A click's place in px from `el`'s top left (undefined without coordinates: a synthetic click). */
function placeIn(el: Element | null | undefined, e: unknown): { x: number; y: number } | undefined {
  const c = e as { clientX?: unknown; clientY?: unknown } | undefined;
  if (!el || typeof c?.clientX !== "number" || typeof c.clientY !== "number") return undefined;
  const r = el.getBoundingClientRect();
  return { x: c.clientX - r.left, y: c.clientY - r.top };
}

/** What escapeUnpins reads of an element: where it sits (closest) and whether it is editable text. */
interface Place {
  closest(selector: string): unknown;
  isContentEditable?: boolean;
}

/** An Escape there is another control's: a dialog's (it closes), a text field's (it reverts), a popover's. */
const OWNS_ESCAPE = 'dialog, [role="dialog"], [role="alertdialog"], [role="menu"], input, select, textarea';

/**
 * Whether a keydown unpins a chart: an Escape nobody used (not defaultPrevented), not typed in a dialog or a
 * text field, with focus (the key's target) inside the chart's figure (its pinned card included), or on the
 * page's body, where it unpins only the most recently pinned chart (`latest`).
 */
export function escapeUnpins(
  e: { key: string; defaultPrevented: boolean; target: unknown },
  figure: { contains(node: never): boolean } | null,
  body: unknown,
  latest: boolean,
): boolean {
  if (e.key !== "Escape" || e.defaultPrevented) return false;
  const t = e.target as Place | null;
  if (t === body || t === null) return latest;
  if (typeof t.closest !== "function") return false;
  if (t.isContentEditable || t.closest(OWNS_ESCAPE)) return false;
  return figure?.contains(t as never) === true;
}

/** The charts pinned now, the most recently pinned last (a body Escape unpins that one). */
const pinned: object[] = [];

/**
 * A chart's pin state: unpinned when `axis` changes, and on an Escape that concerns it (escapeUnpins, with
 * `figure` the chart's figure). A click pins the x under it (plotClick) by the scale in `box` (its PlotProbe's)
 * among `xs`, the x values drawn. Returns the pin, the chart's onClick, and the card's unpin.
 */
export function useChartPin(
  axis: string,
  figure: RefObject<HTMLElement | null>,
  box: PlotBox,
  xs: Iterable<number>,
): [Pin | null, (s: PlotClick, e?: unknown) => void, () => void] {
  const [pin, dispatch] = useReducer(pinReducer, null);
  const drawn = useRef(xs);
  drawn.current = xs;
  const onClick = useCallback(
    (s: PlotClick, e?: unknown) => {
      const plot = figure.current?.querySelector(".chart-plot");
      const at = placeIn(plot?.querySelector(".recharts-wrapper"), e);
      dispatch(plotClick(s, at, box.get(), drawn.current, plot?.clientWidth));
    },
    [figure, box],
  );
  const unpin = useCallback(() => dispatch({ type: "unpin" }), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new axis is the trigger
  useEffect(() => dispatch({ type: "unpin" }), [axis]);
  useEffect(() => {
    if (!pin) return;
    const me = {};
    pinned.push(me); // a new pin (or a moved one) is the latest
    const onKey = (e: KeyboardEvent) => {
      if (escapeUnpins(e, figure.current, document.body, pinned[pinned.length - 1] === me)) {
        dispatch({ type: "unpin" });
      }
    };
    // On window: after the page's own document listeners (a confirm card, a menu) have used the key.
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      pinned.splice(pinned.indexOf(me), 1);
    };
  }, [pin, figure]);
  return [pin, onClick, unpin];
}
