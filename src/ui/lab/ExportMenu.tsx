/**
 * A run card's Export menu: metrics (CSV, JSON), config, checkpoint, TRL script (./export_run.ts). The list is
 * drawn in <body> next to its button (the run column scrolls and would clip it) and closes on a choice, Escape
 * (focus back on the button) or a click elsewhere. When a page or column scrolls, the list follows its button
 * and closes only once the button has left the window: a scroll event arrives a frame after the scroll, so one
 * that ended just before the click (a trackpad's momentum, a test driver bringing the button into view) must not
 * close the menu it opened.
 */
import {
  memo,
  type KeyboardEvent as ReactKeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { labActions } from "./actions";
import { fromKeyboard } from "./click_source";
import { EXPORTS, exportRun } from "./export_run";
import { DownloadIcon } from "./icons";
import { place } from "./popover_place";
import { shown } from "./shown";

export const ExportMenu = memo(function ExportMenu(props: {
  runId: string;
  label: string;
  disabled: boolean;
  /** Why the run has no weights in the worker (a comparison run; one that could not start): its checkpoint and
   * ONNX are off, said in their tooltip. Null or absent: it has weights. */
  noWeights?: string | null;
}) {
  const { runId, label, disabled, noWeights = null } = props;
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  // Opened from the keyboard (true): the focus goes into the list (it is drawn at the end of the page).
  const openedByKeyboard = useRef(false);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  /** Put the list next to the button (right-aligned, inside the window); false when the button is scrolled out of view. */
  const follow = useCallback((): boolean => {
    if (!button.current || !list.current) return false;
    const r = list.current.getBoundingClientRect();
    const b = button.current.getBoundingClientRect();
    setPos(place(new DOMRect(b.right - r.width, b.top, r.width, b.height), r.width, r.height));
    return shown(button.current);
  }, []);
  useLayoutEffect(() => {
    if (!open) return setPos(null);
    follow();
    if (openedByKeyboard.current)
      list.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
  }, [open, follow]);
  /** ↑/↓ move between the items; Tab leaves the list from its button (Shift+Tab onto it), closing it. */
  const onListKey = (e: ReactKeyboardEvent<HTMLUListElement>) => {
    const items = [...(list.current?.querySelectorAll<HTMLButtonElement>("button:not(:disabled)") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (e.key === "Tab") {
      setOpen(false);
      // The list belongs right after its button: Tab goes on from the button, Shift+Tab lands on it.
      if (e.shiftKey) e.preventDefault();
      button.current?.focus();
    }
  };
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault(); // used: a pinned chart stays pinned (chart_pin.ts)
      setOpen(false);
      button.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!list.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    const onScroll = (e: Event) => {
      if (!list.current?.contains(e.target as Node) && !follow()) setOpen(false);
    };
    const onResize = () => {
      if (!follow()) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("scroll", onScroll, true);
    window.addEventListener("resize", onResize);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("scroll", onScroll, true);
      window.removeEventListener("resize", onResize);
    };
  }, [open, follow]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`icon-button menu-summary${disabled ? " is-disabled" : ""}`}
        title="Export this run"
        aria-label={`Export ${label}`}
        aria-expanded={open}
        data-testid={`export-${runId}`}
        onClick={(e) => {
          openedByKeyboard.current = fromKeyboard(e);
          setOpen((o) => !o);
        }}
      >
        <DownloadIcon />
      </button>
      {open &&
        createPortal(
          <ul
            ref={list}
            aria-label={`Export ${label}`}
            className="menu-list menu-floating"
            style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: 0 }}
            onKeyDown={onListKey}
          >
            {EXPORTS.map((x) => {
              const needsWeights = x.kind === "checkpoint" || x.kind === "onnx";
              const off = needsWeights ? noWeights : null;
              return (
                <li key={x.kind}>
                  <button
                    type="button"
                    title={off ? `${off}.` : x.hint}
                    data-testid={`export-${runId}-${x.kind}`}
                    disabled={needsWeights && (disabled || off !== null)}
                    onClick={(e) => {
                      setOpen(false);
                      // Chosen from the keyboard: the focus goes back to the Export button, not to the page.
                      if (fromKeyboard(e)) button.current?.focus();
                      exportRun(runId, x.kind, labActions);
                    }}
                  >
                    {x.label}
                    <span className="muted">{off ?? x.hint}</span>
                  </button>
                </li>
              );
            })}
          </ul>,
          document.body,
        )}
    </>
  );
});
