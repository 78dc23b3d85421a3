/**
 * A native modal <dialog> opened on mount: Esc (the browser's), a click on the backdrop (outside the dialog's
 * box) or `dialog.close()` closes it, and every way out calls `onClose` once (the dialog's close event). Shared
 * by the explain panel and the top bar's "Change…" dialog.
 */
import { type RefObject, useEffect, useRef } from "react";

export function useModalDialog(ref: RefObject<HTMLDialogElement | null>, onClose: () => void): void {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    // A click on the backdrop lands on the dialog element itself, outside its box.
    const onBackdrop = (e: MouseEvent) => {
      if (e.target !== d) return;
      const r = d.getBoundingClientRect();
      const inside =
        e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) d.close();
    };
    // Only a dialog that is closed now: under StrictMode the effect's clean-up closes the dialog and the rerun
    // reopens it before that close event arrives.
    const onClosed = () => {
      if (!d.open) close.current();
    };
    d.addEventListener("click", onBackdrop);
    d.addEventListener("close", onClosed);
    return () => {
      d.removeEventListener("click", onBackdrop);
      d.removeEventListener("close", onClosed);
      if (d.open) d.close();
    };
  }, [ref]);
}
