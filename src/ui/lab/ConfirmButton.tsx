/**
 * A button whose action discards work: when `confirm` is a message (there is something to lose), the first
 * click opens a small card next to the button that says what will be lost, with the action and Cancel; Escape,
 * Cancel or a click elsewhere closes it. With `confirm` null the action runs at once (nothing to lose).
 */
import {
  type ButtonHTMLAttributes,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { place } from "./Popover";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick"> {
  /** What will be lost, as a sentence; null: nothing to lose, act at once. */
  confirm: string | null;
  /** The confirming button's text, e.g. "Reset". */
  confirmLabel: string;
  onConfirm: () => void;
  testId: string;
  children: ReactNode;
}

export function ConfirmButton({ confirm, confirmLabel, onConfirm, testId, children, ...rest }: Props) {
  const button = useRef<HTMLButtonElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    if (!open || !button.current || !card.current) return setPos(null);
    const r = card.current.getBoundingClientRect();
    setPos(place(button.current.getBoundingClientRect(), r.width, r.height));
    card.current.querySelector<HTMLButtonElement>("button")?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      const inside = (n: Node) => card.current?.contains(n) || button.current?.contains(n);
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !inside(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", close);
    document.addEventListener("pointerdown", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("pointerdown", close);
    };
  }, [open]);
  const act = () => {
    setOpen(false);
    onConfirm();
  };
  return (
    <>
      <button
        {...rest}
        ref={button}
        type="button"
        data-testid={testId}
        aria-expanded={confirm ? open : undefined}
        onClick={(e) => {
          // Give the keyboard back to the page (space plays/pauses).
          e.currentTarget.blur();
          if (confirm) setOpen((o) => !o);
          else onConfirm();
        }}
      >
        {children}
      </button>
      {open &&
        confirm &&
        createPortal(
          <div
            ref={card}
            role="alertdialog"
            aria-label={confirmLabel}
            className="popover confirm-card"
            data-testid={`${testId}-confirm-card`}
            style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: 0 }}
          >
            <p>{confirm}</p>
            <div className="confirm-actions">
              <button type="button" className="danger" data-testid={`${testId}-confirm`} onClick={act}>
                {confirmLabel}
              </button>
              <button type="button" data-testid={`${testId}-cancel`} onClick={() => setOpen(false)}>
                Cancel
              </button>
            </div>
          </div>,
          document.body,
        )}
    </>
  );
}
