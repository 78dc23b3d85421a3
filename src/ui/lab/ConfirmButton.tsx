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
import { place } from "./popover_place";

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
        if (e.key === "Escape") {
          e.preventDefault(); // used: a pinned chart stays pinned (chart_pin.ts)
          onClose("key");
        } else if (e.key === "Tab") keepTab(e);
      } else if (!inside(e.target as Node)) onClose("pointer");
    };
    // A dialog keeps Tab among its own buttons (it is drawn at the end of <body>: Tab would leave the page).
    const keepTab = (e: KeyboardEvent) => {
      const buttons = [...(card.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
      const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
      // Focus on a card button, or nowhere (a click on the card's text leaves it on the body): stay in the card.
      if (!buttons.length || (at < 0 && document.activeElement !== document.body)) return;
      e.preventDefault();
      const from = at < 0 ? (e.shiftKey ? 0 : buttons.length - 1) : at;
      buttons[(from + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
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
  /** The action; a promise (e.g. a run's removal, answered by the worker) makes `focusAfter` wait for it. */
  onConfirm: () => void | Promise<void>;
  testId: string;
  children: ReactNode;
  /**
   * Where the keyboard's focus goes when the action removes this button (a run's Remove): asked before the
   * action, focused once it is done and drawn, unless the focus has moved on. Absent: it stays where the action
   * leaves it.
   */
  focusAfter?: () => HTMLElement | null;
}

/**
 * Once `done` settles (the action has been applied: a removed run has left the store) and the page has drawn it
 * (two frames), focus `next` if the focus was left nowhere: on the page's body or on `el`, gone.
 */
function focusAfterDone(done: unknown, el: HTMLElement | null, next: HTMLElement | null) {
  if (!next) return;
  Promise.resolve(done)
    .catch(() => {}) // a failed action is reported by itself (actions.ts report)
    .then(() =>
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const active = document.activeElement;
          if (next.isConnected && (active === null || active === document.body || active === el))
            next.focus();
        }),
      ),
    );
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
    focusAfterDone(onConfirm(), button.current, next);
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
