/**
 * Bring a run's card into view once the page has added it (Add run, Duplicate, Import): a new run lands at the
 * end of the run column, often below the fold, and nothing on screen would show that it came. Called by those
 * actions only, so a reload or a restore never scrolls. No-op without a DOM (Node tests).
 */
export function revealRunCard(runId: string): void {
  if (typeof document === "undefined" || typeof requestAnimationFrame === "undefined") return;
  // Two frames: the store's update has been drawn by then.
  requestAnimationFrame(() =>
    requestAnimationFrame(() =>
      document
        .querySelector(`[data-testid="run-card-${CSS.escape(runId)}"]`)
        ?.scrollIntoView({ block: "nearest", behavior: "smooth" }),
    ),
  );
}
