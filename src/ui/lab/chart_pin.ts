/**
 * A chart's pinned hover card: a click on the plot freezes the card at the clicked x (a step, or samples,
 * tokens, KL where that is the axis), with its numbers at full precision and selectable; the mouse moving on
 * leaves it where it is. × or Escape unpins it, and so does a change of the x axis (the pinned x would mean
 * something else). The state is a pure reducer (chart_pin.test.ts); useChartPin wires it to a chart.
 */
import { useCallback, useEffect, useReducer } from "react";

/** Where a card is pinned: the x it shows, and the click's offset in the plot (px, for placing the card). */
export interface Pin {
  x: number;
  left: number;
}

export type PinAction =
  /** A click on the plot: x is recharts' active label there (undefined off the data). */
  | { type: "click"; x: number | undefined; left: number | undefined }
  /** ×, Escape, or a new x axis. */
  | { type: "unpin" };

/** The next pin: a click on the data pins (or moves the pin to) its x; a click off the data changes nothing. */
export function pinReducer(pin: Pin | null, action: PinAction): Pin | null {
  if (action.type === "unpin") return null;
  const x = action.x;
  if (x === undefined || !Number.isFinite(x)) return pin;
  if (pin && pin.x === x) return pin;
  return { x, left: Number.isFinite(action.left) ? (action.left as number) : 0 };
}

/** Where the card sits: beside the click, on the side with more room (the plot is `width` px wide). */
export function pinPlace(pin: Pin, width: number): { left?: number; right?: number } {
  const gap = 12;
  return width > 0 && pin.left > width / 2 ? { right: width - pin.left + gap } : { left: pin.left + gap };
}

/** What recharts passes a chart's onClick (the hovered x's label and the cursor's place). */
interface PlotClick {
  activeLabel?: unknown;
  activeCoordinate?: { x: number };
}

/**
 * A chart's pin state: unpinned on Escape (anywhere on the page, while pinned) and when `axis` changes.
 * Returns the pin, the chart's onClick, and the card's unpin.
 */
export function useChartPin(axis: string): [Pin | null, (s: PlotClick) => void, () => void] {
  const [pin, dispatch] = useReducer(pinReducer, null);
  const onClick = useCallback(
    (s: PlotClick) =>
      dispatch({
        type: "click",
        x: s.activeLabel == null ? undefined : Number(s.activeLabel),
        left: s.activeCoordinate?.x,
      }),
    [],
  );
  const unpin = useCallback(() => dispatch({ type: "unpin" }), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new axis is the trigger
  useEffect(() => dispatch({ type: "unpin" }), [axis]);
  useEffect(() => {
    if (!pin) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") dispatch({ type: "unpin" });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [pin]);
  return [pin, onClick, unpin];
}
