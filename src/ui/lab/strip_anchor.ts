/**
 * The run cards keep their place across the one-column switch (980 px): the card first in view in the column
 * (scrolled down) comes first in view in the strip (scrolled sideways), and back, so resizing a window or
 * zooming a page does not send the student back to the first run.
 */
import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";
import { extents, STRIP_FADE, stripItems } from "./strip_view";
import { ONE_COLUMN_QUERY } from "./use_media_query";

/** A card's place along the scroll axis, in the container's scrolled content (px). */
export interface Span {
  start: number;
  size: number;
}

/** The first card at least half past `scroll` along the axis (0 when none, or no cards). */
export function firstInView(spans: readonly Span[], scroll: number): number {
  const i = spans.findIndex((s) => s.start + s.size / 2 >= scroll);
  return i < 0 ? Math.max(0, spans.length - 1) : i;
}

/** The cards (children marked data-strip-item) along the axis: sideways in the strip, down the column. */
function spans(el: HTMLElement, sideways: boolean): Span[] {
  if (sideways) return extents(el).map((e) => ({ start: e.left, size: e.width }));
  const box = el.getBoundingClientRect();
  return stripItems(el).map((c) => {
    const r = c.getBoundingClientRect();
    return { start: r.top - box.top + el.scrollTop, size: r.height };
  });
}

/**
 * Remember the card first in view as the user scrolls `ref` (sideways when `oneColumn`, else down), and scroll
 * it back into first place when the layout switches (in the strip clear of its left fade).
 */
export function useAnchorAcrossLayouts(ref: RefObject<HTMLElement | null>, oneColumn: boolean): void {
  const anchor = useRef(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      // The switch itself scrolls the container back to 0 (its old axis no longer overflows) before React
      // hears of the new layout: that scroll is the layout's, not the user's.
      if (globalThis.matchMedia?.(ONE_COLUMN_QUERY).matches !== oneColumn) return;
      anchor.current = firstInView(spans(el, oneColumn), oneColumn ? el.scrollLeft : el.scrollTop);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [ref, oneColumn]);
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the layout switches, not on mount.
  useLayoutEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const el = ref.current;
    const index = anchor.current;
    if (!el || index === 0) return;
    // In the next frame: a position assigned in the commit that switches the layout does not hold.
    const frame = requestAnimationFrame(() => {
      const at = spans(el, oneColumn)[index];
      if (!at) return;
      if (oneColumn) el.scrollLeft = Math.max(0, at.start - STRIP_FADE);
      else el.scrollTop = at.start;
    });
    return () => cancelAnimationFrame(frame);
  }, [oneColumn]);
}
