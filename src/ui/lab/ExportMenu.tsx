/**
 * A run card's Export menu: metrics (CSV, JSON), config, checkpoint, TRL script (./export_run.ts). The list is
 * drawn in <body> next to its button (the run column scrolls and would clip it) and closes on a choice, Escape
 * (focus back on the button) or a click elsewhere.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { labActions } from "./actions";
import { EXPORTS, exportRun } from "./export_run";
import { DownloadIcon } from "./icons";
import { place } from "./Popover";

export const ExportMenu = memo(function ExportMenu(props: {
  runId: string;
  label: string;
  disabled: boolean;
}) {
  const { runId, label, disabled } = props;
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    if (!open || !button.current || !list.current) return setPos(null);
    const r = list.current.getBoundingClientRect();
    const b = button.current.getBoundingClientRect();
    // Right-aligned with the button, inside the viewport.
    setPos(place(new DOMRect(b.right - r.width, b.top, r.width, b.height), r.width, r.height));
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!list.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    const onScroll = (e: Event) => {
      if (!list.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("scroll", onScroll, true);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("scroll", onScroll, true);
    };
  }, [open]);
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
        onClick={() => setOpen((o) => !o)}
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
          >
            {EXPORTS.map((x) => (
              <li key={x.kind}>
                <button
                  type="button"
                  title={x.hint}
                  data-testid={`export-${runId}-${x.kind}`}
                  disabled={disabled && (x.kind === "checkpoint" || x.kind === "onnx")}
                  onClick={() => {
                    setOpen(false);
                    exportRun(runId, x.kind, labActions);
                  }}
                >
                  {x.label}
                  <span className="muted">{x.hint}</span>
                </button>
              </li>
            ))}
          </ul>,
          document.body,
        )}
    </>
  );
});
