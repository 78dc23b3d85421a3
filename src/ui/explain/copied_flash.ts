/**
 * The "Copied" a copy button shows for a moment: set now, back to the button's own label after COPIED_MS.
 * Pure timers, no React (copied_flash.test.ts); CopyBibtex keeps the cancel and calls it on unmount.
 */

/** How long "Copied" stays before the button reads "Copy BibTeX" again, ms. */
export const COPIED_MS = 2000;

/** Sets `copied` now and `idle` after `ms`; returns the cancel (a new click or unmount calls it). */
export function flashCopied<S>(set: (s: S) => void, copied: S, idle: S, ms = COPIED_MS): () => void {
  set(copied);
  const timer = setTimeout(() => set(idle), ms);
  return () => clearTimeout(timer);
}
