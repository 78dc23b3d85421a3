/**
 * Whether a CSS media query matches now, re-rendering when that changes (window.matchMedia; false where there
 * is none, as in server rendering).
 */
import { useCallback, useSyncExternalStore } from "react";

/** The lab's one-column layout, 980 CSS px wide or less (a projector, a zoomed page); layout.css uses the same. */
export const ONE_COLUMN_QUERY = "(max-width: 980px)";

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const q = window.matchMedia?.(query);
      q?.addEventListener("change", onChange);
      return () => q?.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
