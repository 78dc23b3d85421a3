/**
 * A label that explains itself: hovering or focusing it (it is a button, so keyboard users reach it) shows a
 * card (Popover) with the given content. `beside`: a selector of an ancestor the card must not cover (it goes
 * beside it; the run card, so the knobs below the one explained stay in sight).
 */
import { type ReactNode, useId, useState } from "react";
import { Popover } from "./Popover";

export function Hint({
  children,
  card,
  className,
  testId,
  beside,
}: {
  children: ReactNode;
  card: ReactNode;
  className?: string;
  testId?: string;
  beside?: string;
}) {
  const id = useId();
  const [anchor, setAnchor] = useState<DOMRect | null>(null);
  const [clear, setClear] = useState<DOMRect | null>(null);
  const show = (e: { currentTarget: HTMLElement }) => {
    setClear((beside && e.currentTarget.closest(beside)?.getBoundingClientRect()) || null);
    setAnchor(e.currentTarget.getBoundingClientRect());
  };
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
      <Popover anchor={anchor} id={id} clear={clear}>
        {card}
      </Popover>
    </button>
  );
}
