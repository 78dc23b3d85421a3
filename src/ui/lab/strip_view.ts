/**
 * Which of a sideways-scrolling strip's items are in view (the run cards at one column, 980 px or less), so
 * the page can say that the strip scrolls and let a button scroll it: a cut card at the right edge and a
 * scrollbar are easy to miss.
 */
import { type RefObject, useEffect, useState } from "react";

/**
 * Items [first, last] (0-based) at least half in view, of `count`, and whether the strip can scroll further
 * left or right (cards cut or hidden there); null when everything fits.
 */
export interface StripView {
  first: number;
  last: number;
  count: number;
  moreLeft: boolean;
  moreRight: boolean;
}

/** An item's horizontal extent inside the strip's content (px from the content's left edge). */
export interface Extent {
  left: number;
  width: number;
}

/** The width (px) of the fade at an edge with more cards (run_strip.css); › and ‹ keep a card clear of it. */
export const STRIP_FADE = 56;

/**
 * The strip's view at `scrollLeft`: the items at least half inside [scrollLeft, scrollLeft + clientWidth]
 * (with none, the one under the middle of the view), and whether there is more to either side (1 px slack);
 * null when the content fits.
 */
export function stripView(
  items: readonly Extent[],
  scrollLeft: number,
  clientWidth: number,
  scrollWidth: number,
): StripView | null {
  if (!items.length || scrollWidth <= clientWidth + 1) return null;
  const right = scrollLeft + clientWidth;
  const more = { moreLeft: scrollLeft > 1, moreRight: right < scrollWidth - 1 };
  const shown = items.flatMap((it, i) => {
    const inView = Math.min(it.left + it.width, right) - Math.max(it.left, scrollLeft);
    return inView >= it.width / 2 ? [i] : [];
  });
  if (!shown.length) {
    const mid = scrollLeft + clientWidth / 2;
    const i = Math.max(
      0,
      items.findIndex((it) => it.left + it.width > mid),
    );
    return { first: i, last: i, count: items.length, ...more };
  }
  return { first: shown[0], last: shown[shown.length - 1], count: items.length, ...more };
}

/**
 * The scrollLeft for › (+1): the first item not wholly in view on the right comes wholly into view, clear of
 * the right edge's fade; for ‹ (−1) the last item not wholly in view on the left, clear of the left fade.
 * Clamped to [0, scrollWidth − clientWidth]; where nothing is cut on that side, the end of the strip.
 */
export function scrollTarget(
  items: readonly Extent[],
  dir: 1 | -1,
  scrollLeft: number,
  clientWidth: number,
  scrollWidth: number,
): number {
  const max = Math.max(0, scrollWidth - clientWidth);
  const clamp = (x: number) => Math.min(max, Math.max(0, x));
  const right = scrollLeft + clientWidth;
  // Clear of the fade where the strip has room for it on both sides of the card (a phone's has not).
  const margin = (it: Extent) => Math.min(STRIP_FADE, Math.max(0, (clientWidth - it.width) / 2));
  if (dir > 0) {
    const next = items.find((it) => it.left + it.width > right + 1);
    return next ? clamp(next.left + next.width + margin(next) - clientWidth) : max;
  }
  const prev = items.findLast((it) => it.left < scrollLeft - 1);
  return prev ? clamp(prev.left - margin(prev)) : 0;
}

/** The strip's view, kept up to date on scroll, resize and when its items change (`key`). */
export function useStripView(
  ref: RefObject<HTMLElement | null>,
  enabled: boolean,
  key: string,
): StripView | null {
  const [view, setView] = useState<StripView | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` changes with the items: measure and observe them again.
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled) {
      setView(null);
      return;
    }
    const measure = () => {
      const next = stripView(extents(el), el.scrollLeft, el.clientWidth, el.scrollWidth);
      setView((v) =>
        v === next ||
        (v &&
          next &&
          v.first === next.first &&
          v.last === next.last &&
          v.count === next.count &&
          v.moreLeft === next.moreLeft &&
          v.moreRight === next.moreRight)
          ? v
          : next,
      );
    };
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    ro?.observe(el);
    for (const c of el.children) ro?.observe(c);
    return () => {
      el.removeEventListener("scroll", measure);
      ro?.disconnect();
    };
  }, [ref, enabled, key]);
  return view;
}

/** The strip's items: its children marked data-strip-item (the run cards). */
export function stripItems(el: HTMLElement): HTMLElement[] {
  return [...el.children].filter(
    (c): c is HTMLElement => c instanceof HTMLElement && c.hasAttribute("data-strip-item"),
  );
}

/** The strip's items as extents in the strip's scrolled content. */
export function extents(el: HTMLElement): Extent[] {
  const box = el.getBoundingClientRect();
  return stripItems(el).map((c) => {
    const r = c.getBoundingClientRect();
    return { left: r.left - box.left + el.scrollLeft, width: r.width };
  });
}
