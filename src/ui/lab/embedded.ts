/**
 * Whether the lab runs inside another page (an <iframe> of a course page), and how it moves its own address
 * there. Embedded, the frame's history is the host page's too (one joint session history): a lesson opened with
 * location.assign, or an address pushed back after a refused Back, adds an entry to the host's history, and the
 * host's Back then lands in the lab (which refuses it and pushes again: the course page's Back was trapped). So
 * embedded, the lab only replaces its address; in its own tab it keeps a history entry per experiment.
 */

/** The page this was worked out for, and the answer (a test's stubbed page is a new `window`). */
let seen: { page: unknown; embedded: boolean } | null = null;

/**
 * True when the lab is inside a frame (`window.top` is another window; a cross-site top is still a window here).
 * Worked out once per page. False without a window (Node) or without a top (a stubbed or detached page).
 */
export function isEmbedded(): boolean {
  const page = typeof window === "undefined" ? null : window;
  if (seen?.page !== page) {
    let embedded = false;
    try {
      embedded = page !== null && page.top != null && page.top !== page;
    } catch {
      embedded = true; // a top that cannot even be compared is another page's
    }
    seen = { page, embedded };
  }
  return seen.embedded;
}

/**
 * Open `url` in the lab's frame: a new history entry in its own tab (Back returns to the experiment left),
 * in place when embedded (no entry in the host's history).
 */
export function openAddress(url: string): void {
  if (isEmbedded()) location.replace(url);
  else location.assign(url);
}

/**
 * Write the lab's own address `url` without loading it. `push` (a refused move through history, in its own
 * tab): as a new entry, so that the entry Back moved to stays; embedded it replaces the entry, so that a
 * second Back on the host page goes on back (out of the course page) instead of landing here again.
 */
export function writeAddress(url: string, push: boolean): void {
  if (push && !isEmbedded()) history.pushState(null, "", url);
  else history.replaceState(history.state, "", url);
}
