/**
 * Which of a sideways-scrolling strip's items are in view (the run cards at one column, 980 px or less), so
 * the page can say that the strip scrolls and let a button scroll it: a cut card at the right edge and a
 * scrollbar are easy to miss.
 */
import { type RefObject, useEffect, useState } from "react";

/** Items [first, last] (0-based) at least half in view, of `count`; null when everything fits. */
export interface StripView {
  first: number;
  last: number;
  count: number;
}

/** An item's horizontal extent inside the strip's content (offsetLeft, offsetWidth). */
export interface Extent {
  left: number;
  width: number;
}

/**
 * The items at least half inside [scrollLeft, scrollLeft + clientWidth]; null when the content fits (nothing
 * to scroll, within 1 px). With no item half in view (a strip narrower than half a card), the one under the
 * middle of the view.
 */
export function stripView(
  items: readonly Extent[],
  scrollLeft: number,
  clientWidth: number,
  scrollWidth: number,
): StripView | null {
  if (!items.length || scrollWidth <= clientWidth + 1) return null;
  const right = scrollLeft + clientWidth;
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
    return { first: i, last: i, count: items.length };
  }
  return { first: shown[0], last: shown[shown.length - 1], count: items.length };
}

/**
 * The scrollLeft that brings the next (+1) item wholly into view at the right edge, or the previous (−1) one
 * at the left edge.
 */
export function scrollTarget(
  items: readonly Extent[],
  view: StripView,
  dir: 1 | -1,
  clientWidth: number,
): number {
  const i = dir > 0 ? Math.min(items.length - 1, view.last + 1) : Math.max(0, view.first - 1);
  const it = items[i];
  return Math.max(0, dir > 0 ? it.left + it.width - clientWidth : it.left);
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
        v === next || (v && next && v.first === next.first && v.last === next.last && v.count === next.count)
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

/** The strip's items (children marked data-strip-item) as extents in the strip's scrolled content. */
export function extents(el: HTMLElement): Extent[] {
  const box = el.getBoundingClientRect();
  return [...el.children]
    .filter((c): c is HTMLElement => c instanceof HTMLElement && c.hasAttribute("data-strip-item"))
    .map((c) => {
      const r = c.getBoundingClientRect();
      return { left: r.left - box.left + el.scrollLeft, width: r.width };
    });
}
