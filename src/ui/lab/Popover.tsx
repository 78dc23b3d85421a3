/**
 * A hover/focus card positioned next to its anchor, rendered into <body> (position: fixed) so the run
 * column's scrolling and the charts' clipping cannot cut it off. Used by the knob tooltips and the tokens.
 */
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";

/**
 * Place a card of the given size below the anchor (above when there is no room), always inside the viewport
 * (even when the anchor is scrolled out of it). Viewport size defaults to the window's.
 */
export function place(
  anchor: Pick<DOMRect, "left" | "top" | "bottom">,
  w: number,
  h: number,
  view = { width: window.innerWidth, height: window.innerHeight },
): { left: number; top: number } {
  const margin = 8;
  const left = Math.max(margin, Math.min(anchor.left, view.width - w - margin));
  const below = anchor.bottom + 6;
  const wanted = below + h + margin > view.height ? anchor.top - h - 6 : below;
  const top = Math.max(margin, Math.min(wanted, view.height - h - margin));
  return { left, top };
}

/** The floating card for `anchor` (null hides it). `id` lets the anchor point at it with aria-describedby. */
export function Popover({
  anchor,
  id,
  children,
}: {
  anchor: DOMRect | null;
  id?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    if (!anchor || !ref.current) return setPos(null);
    const r = ref.current.getBoundingClientRect();
    setPos(place(anchor, r.width, r.height));
  }, [anchor]);
  if (!anchor) return null;
  return createPortal(
    <div
      ref={ref}
      id={id}
      role="tooltip"
      className="popover"
      style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: 0 }}
    >
      {children}
    </div>,
    document.body,
  );
}
