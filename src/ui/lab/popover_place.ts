/**
 * Where a popover goes beside its anchor, kept on screen (./Popover.tsx).
 */
/**
 * Place a card of the given size below the anchor (above when there is no room), always inside the viewport
 * (even when the anchor is scrolled out of it). Viewport size defaults to the window's. With `clear` (a box the
 * card must not cover, such as the run card whose knob it explains, so the knobs below stay in sight) the card
 * goes beside that box, its top at the anchor's, right of it or else left of it; below the anchor only when the
 * box leaves no room on either side (a narrow window).
 */
export function place(
  anchor: Pick<DOMRect, "left" | "top" | "bottom">,
  w: number,
  h: number,
  view = { width: window.innerWidth, height: window.innerHeight },
  clear?: Pick<DOMRect, "left" | "right">,
): { left: number; top: number } {
  const margin = 8;
  const gap = 8;
  const fitTop = (top: number) => Math.max(margin, Math.min(top, view.height - h - margin));
  if (clear && clear.right + gap + w + margin <= view.width)
    return { left: clear.right + gap, top: fitTop(anchor.top) };
  if (clear && clear.left - gap - w >= margin) return { left: clear.left - gap - w, top: fitTop(anchor.top) };
  const left = Math.max(margin, Math.min(anchor.left, view.width - w - margin));
  const below = anchor.bottom + 6;
  const wanted = below + h + margin > view.height ? anchor.top - h - 6 : below;
  return { left, top: fitTop(wanted) };
}
