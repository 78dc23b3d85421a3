/**
 * Bring a run's card into view once the page has added it (Add run, Duplicate, Import): a new run lands at the
 * end of the run column, often below the fold, and nothing on screen would show that it came. The keyboard
 * goes with it (the card is focusable by script): the control that added it may now be out of view, and Tab
 * goes on from the new card's first setting. Called by those actions only, so a reload or a restore never
 * scrolls. No-op without a DOM (Node tests).
 */
import { scrollMotion } from "../motion";
export function revealRunCard(runId: string): void {
  if (typeof document === "undefined" || typeof requestAnimationFrame === "undefined") return;
  // Two frames: the store's update has been drawn by then.
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const card = document.querySelector<HTMLElement>(`[data-testid="run-card-${CSS.escape(runId)}"]`);
      if (!card) return;
      card.scrollIntoView({ block: "nearest", behavior: scrollMotion() });
      // Not while a dialog or a typed value has the keyboard (an import's notice, a half-typed setting).
      const active = document.activeElement;
      if (!active || active === document.body || active.closest(".top-actions, .run-card"))
        card.focus({ preventScroll: true });
    }),
  );
}
