/**
 * Confirming an action that discards work. {@link ConfirmCard}: a small card next to an element that says what
 * will be lost, with the action and Cancel; Escape, Cancel or a click elsewhere closes it, saying how
 * (`CloseBy`): closed from the keyboard, the focus goes back to the element that opened it; closed with the
 * mouse, to the page (where space plays and pauses). {@link ConfirmButton}: a button whose first click opens
 * that card when `confirm` is a message (there is something to lose), and acts at once when it is null.
 */

/** How a confirmation card was closed: a key (Escape, or Enter/Space on its buttons) or the pointer. */
export type CloseBy = "key" | "pointer";

const by = (e: { detail: number }): CloseBy => (fromKeyboard(e) ? "key" : "pointer");

import {
  type ButtonHTMLAttributes,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { fromKeyboard } from "./click_source";
import { place } from "./Popover";

export function ConfirmCard({
  anchor,
  message,
  confirmLabel,
  testId,
  onConfirm,
  onClose,
}: {
  anchor: RefObject<HTMLElement | null>;
  message: string;
  confirmLabel: string;
  /** The card is `${testId}-confirm-card`, its buttons `${testId}-confirm` and `${testId}-cancel`. */
  testId: string;
  /** `by`: how the action was confirmed (the keyboard's focus may need a new place, see ConfirmButton). */
  onConfirm: (by: CloseBy) => void;
  onClose: (by: CloseBy) => void;
}) {
  const card = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    if (!anchor.current || !card.current) return;
    // A control changed while off screen (keyboard, script) is brought into view with its card.
    anchor.current.scrollIntoView({ block: "nearest" });
    const r = card.current.getBoundingClientRect();
    setPos(place(anchor.current.getBoundingClientRect(), r.width, r.height));
    card.current.querySelector<HTMLButtonElement>("button")?.focus();
  }, [anchor]);
  useEffect(() => {
    const close = (e: Event) => {
      const inside = (n: Node) => card.current?.contains(n) || anchor.current?.contains(n);
      if (e instanceof KeyboardEvent) {
        if (e.key === "Escape") onClose("key");
        else if (e.key === "Tab") keepTab(e);
      } else if (!inside(e.target as Node)) onClose("pointer");
    };
    // A dialog keeps Tab among its own buttons (it is drawn at the end of <body>: Tab would leave the page).
    const keepTab = (e: KeyboardEvent) => {
      const buttons = [...(card.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
      const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
      if (at < 0 || !buttons.length) return;
      e.preventDefault();
      buttons[(at + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
    };
    document.addEventListener("keydown", close);
    document.addEventListener("pointerdown", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("pointerdown", close);
    };
  }, [anchor, onClose]);
  return createPortal(
    <div
      ref={card}
      role="alertdialog"
      aria-label={confirmLabel}
      className="popover confirm-card"
      data-testid={`${testId}-confirm-card`}
      style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: 0 }}
    >
      <p>{message}</p>
      <div className="confirm-actions">
        <button
          type="button"
          className="danger"
          data-testid={`${testId}-confirm`}
          onClick={(e) => {
            onClose(by(e));
            onConfirm(by(e));
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" data-testid={`${testId}-cancel`} onClick={(e) => onClose(by(e))}>
          Cancel
        </button>
      </div>
    </div>,
    document.body,
  );
}

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick"> {
  /** What will be lost, as a sentence; null: nothing to lose, act at once. */
  confirm: string | null;
  /** The confirming button's text, e.g. "Reset". */
  confirmLabel: string;
  onConfirm: () => void;
  testId: string;
  children: ReactNode;
  /**
   * Where the keyboard's focus goes when the action removes this button (a run's Remove): asked before the
   * action, focused once the button has left the page. Absent: the focus stays where the action leaves it.
   */
  focusAfter?: () => HTMLElement | null;
}

/** Focus `next` once `el` has left the page (an action answered by a worker: within a minute), unless the user moved on. */
function focusWhenGone(el: HTMLElement | null, next: HTMLElement | null) {
  if (!el || !next) return;
  const until = performance.now() + 60_000;
  const tick = () => {
    const active = document.activeElement;
    if (active !== el && active !== document.body && active !== null) return; // the user went elsewhere
    if (!el.isConnected) {
      if (next.isConnected) next.focus();
      return;
    }
    if (performance.now() < until) setTimeout(tick, 100);
  };
  setTimeout(tick, 0);
}

export function ConfirmButton({
  confirm,
  confirmLabel,
  onConfirm,
  testId,
  children,
  focusAfter,
  ...rest
}: Props) {
  const button = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  // Closed from the keyboard: the focus goes back to the button (not to the page's body).
  const close = useRef((how: CloseBy) => {
    setOpen(false);
    if (how === "key") button.current?.focus();
  }).current;
  const act = (how: CloseBy) => {
    const next = how === "key" ? (focusAfter?.() ?? null) : null;
    onConfirm();
    focusWhenGone(button.current, next);
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
          // After a mouse click, give the keyboard back to the page (space plays/pauses).
          if (by(e) === "pointer") e.currentTarget.blur();
          if (confirm) setOpen((o) => !o);
          else act(by(e));
        }}
      >
        {children}
      </button>
      {open && confirm && (
        <ConfirmCard
          anchor={button}
          message={confirm}
          confirmLabel={confirmLabel}
          testId={testId}
          onConfirm={act}
          onClose={close}
        />
      )}
    </>
  );
}
