/**
 * Where a pinned hover card (./chart_pin.ts, ./PinnedTip.tsx) points, and which x a click pins, from the plot's
 * x scale as drawn. ./PlotProbe.tsx reads the scale inside the recharts chart and publishes it in a PlotBox, so
 * the card follows its x as the axis rescales (new steps widen it) without redrawing the chart, and a click pins
 * the x under it without a mousemove before it (recharts' own active label comes from the last mousemove: none
 * for a click or tap straight away, a stale one on a loaded machine). Pure apart from the box's listeners.
 */

/**
 * The plot's linear x scale as drawn: its area (px from the chart box's top left: `left`, `top`, `width`,
 * `height`) and the x values at the area's left and right edges (`x0`, `x1`, in the axis's unit).
 */
export interface PlotScale {
  left: number;
  top: number;
  width: number;
  height: number;
  x0: number;
  x1: number;
}

/** The px (from the chart box's left) where x is drawn; the area's middle for a one-value domain. */
export function xToPx(s: PlotScale, x: number): number {
  return s.x1 === s.x0 ? s.left + s.width / 2 : s.left + ((x - s.x0) / (s.x1 - s.x0)) * s.width;
}

/** The x drawn at `px` (from the chart box's left). */
export function pxToX(s: PlotScale, px: number): number {
  return s.width > 0 ? s.x0 + ((px - s.left) / s.width) * (s.x1 - s.x0) : s.x0;
}

/**
 * The x a click at (px, py) (from the chart box's top left) pins: of `xs` (the x values drawn), the one nearest
 * the x under the click; undefined off the plot area (the axes, the margins: as recharts, which pins nothing
 * there) or with nothing drawn.
 */
export function clickedX(s: PlotScale, px: number, py: number, xs: Iterable<number>): number | undefined {
  const slack = 0.5;
  if (px < s.left - slack || px > s.left + s.width + slack) return undefined;
  if (py < s.top - slack || py > s.top + s.height + slack) return undefined;
  const at = pxToX(s, px);
  let best: number | undefined;
  for (const x of xs)
    if (Number.isFinite(x) && (best === undefined || Math.abs(x - at) < Math.abs(best - at))) best = x;
  return best;
}

/**
 * Where a pinned card points, in px from the chart box's left: at its x as drawn now (the axis rescaled since
 * the click moves it along), clamped into the plot area, with `off` saying which edge its x fell past (a run
 * hidden, the domain shrunk). Without a scale yet: `frac` of the box's `width` (where it was clicked).
 */
export function pinAnchor(
  pin: { x: number; frac: number },
  scale: PlotScale | undefined,
  width: number,
): { at: number; off?: "left" | "right" } {
  if (!scale || !(scale.width > 0)) return { at: pin.frac * width };
  const at = xToPx(scale, pin.x);
  if (at < scale.left - 0.5) return { at: scale.left, off: "left" };
  if (at > scale.left + scale.width + 0.5) return { at: scale.left + scale.width, off: "right" };
  return { at };
}

/** One chart's drawn scale, published by PlotProbe and read by its pinned card and its clicks. */
export interface PlotBox {
  get(): PlotScale | undefined;
  /** A new scale (listeners called only when a number changed). */
  set(s: PlotScale | undefined): void;
  subscribe(listener: () => void): () => void;
}

export function createPlotBox(): PlotBox {
  let now: PlotScale | undefined;
  const listeners = new Set<() => void>();
  const same = (a: PlotScale | undefined, b: PlotScale | undefined) =>
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.left === b.left &&
      a.top === b.top &&
      a.width === b.width &&
      a.height === b.height &&
      a.x0 === b.x0 &&
      a.x1 === b.x1);
  return {
    get: () => now,
    set(s) {
      if (same(now, s)) return;
      now = s;
      for (const l of listeners) l();
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
