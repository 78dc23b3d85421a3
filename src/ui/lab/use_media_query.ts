/**
 * Whether a CSS media query matches now, re-rendering when that changes (window.matchMedia; false where there
 * is none, as in server rendering).
 */
import { useSyncExternalStore } from "react";

/** The lab's one-column layout (a projector, a zoomed page); lab.css uses the same width. */
export const ONE_COLUMN_QUERY = "(max-width: 980px)";

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const q = window.matchMedia?.(query);
      q?.addEventListener("change", onChange);
      return () => q?.removeEventListener("change", onChange);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
