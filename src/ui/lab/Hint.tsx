/**
 * A label that explains itself: hovering or focusing it (it is a button, so keyboard users reach it) shows a
 * card (Popover) with the given content.
 */
import { type ReactNode, useId, useState } from "react";
import { Popover } from "./Popover";

export function Hint({
  children,
  card,
  className,
  testId,
}: {
  children: ReactNode;
  card: ReactNode;
  className?: string;
  testId?: string;
}) {
  const id = useId();
  const [anchor, setAnchor] = useState<DOMRect | null>(null);
  const show = (e: { currentTarget: HTMLElement }) => setAnchor(e.currentTarget.getBoundingClientRect());
  const hide = () => setAnchor(null);
  return (
    <button
      type="button"
      className={`hint ${className ?? ""}`}
      aria-describedby={anchor ? id : undefined}
      data-testid={testId}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => {
        if (e.key === "Escape" && anchor) {
          e.stopPropagation(); // this Escape is the card's
          hide();
        }
      }}
    >
      {children}
      <Popover anchor={anchor} id={id}>
        {card}
      </Popover>
    </button>
  );
}
