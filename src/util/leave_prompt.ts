/**
 * The browser's own "Leave site?" prompt (a `beforeunload` listener that cancels the event): asked by the lab
 * before a reload, a tab close or a typed address would lose training (src/lab/autosave.ts, a Pipeline stage in
 * training, a tab that no longer saves). When the page itself leaves for another experiment (src/ui/lab/saving.ts
 * go) the page has already said what is lost and the user confirmed (or nothing is): the browser must not ask a
 * second time, and a "Stay" there would leave the page half gone (stuck leaving, its address written back while
 * the next one loads). That navigation alone is let through unasked.
 */

/** The page is leaving on its own, already confirmed: the next `beforeunload` does not ask. */
let unasked = false;

/**
 * Let the page's next unload go without the browser's prompt (the page's own navigation); the prompt is back once
 * that `beforeunload` has been dispatched (a navigation the browser then cancelled does not disarm later ones).
 */
export function leaveUnasked(page: EventTarget | null = typeof window === "undefined" ? null : window): void {
  unasked = true;
  const passed = () => {
    page?.removeEventListener("beforeunload", passed);
    setTimeout(askAgain, 0); // after every listener of this event ran
  };
  page?.addEventListener("beforeunload", passed);
}

/** The prompt asks again (a new lab opened in this page). */
export function askAgain(): void {
  unasked = false;
}

/**
 * Ask before the page unloads (the browser's "Leave site?"), unless the page is leaving on its own after the user
 * confirmed ({@link leaveUnasked}). For a `beforeunload` listener that found something would be lost.
 */
export function askBeforeUnload(e: Event): void {
  if (unasked) return;
  e.preventDefault();
  // Browsers before the standard's preventDefault (Chrome and Edge < 119) need returnValue set.
  if (typeof BeforeUnloadEvent !== "undefined" && e instanceof BeforeUnloadEvent) e.returnValue = true;
}
