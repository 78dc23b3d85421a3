/**
 * A hover/focus card positioned next to its anchor, rendered into <body> (position: fixed) so the run
 * column's scrolling and the charts' clipping cannot cut it off. Used by the knob tooltips and the tokens.
 */
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { place } from "./popover_place";

/**
 * The floating card for `anchor` (null hides it). `id` lets the anchor point at it with aria-describedby;
 * `clear` is a box it must not cover (see place).
 */
export function Popover({
  anchor,
  id,
  clear,
  children,
}: {
  anchor: DOMRect | null;
  id?: string;
  clear?: DOMRect | null;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    if (!anchor || !ref.current) return setPos(null);
    const r = ref.current.getBoundingClientRect();
    setPos(place(anchor, r.width, r.height, undefined, clear ?? undefined));
  }, [anchor, clear]);
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
