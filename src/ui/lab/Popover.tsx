/**
 * A hover/focus card positioned next to its anchor, rendered into <body> (position: fixed) so the run
 * column's scrolling and the charts' clipping cannot cut it off. Used by the knob tooltips and the tokens.
 */
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";

/** Place a card of the given size below the anchor (above when there is no room), inside the viewport. */
export function place(anchor: DOMRect, w: number, h: number): { left: number; top: number } {
  const margin = 8;
  const left = Math.min(Math.max(margin, anchor.left), window.innerWidth - w - margin);
  const below = anchor.bottom + 6;
  const top = below + h + margin > window.innerHeight ? Math.max(margin, anchor.top - h - 6) : below;
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
