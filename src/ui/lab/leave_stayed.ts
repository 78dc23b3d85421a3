/**
 * After the page asked the browser for another address (./saving.ts go), the browser may ask "Leave site?" first
 * (a tab that does not save and trained since: ./saving_elsewhere.ts). Answered "Stay", the page is still here,
 * and would stay "leaving" for good (no later move would be checked, the address would name the link not opened).
 * The prompt holds the page's script until it is answered; a page still here a moment after stayed.
 */

/** How long after the prompt was answered a page still here counts as having stayed. */
export const STAYED_MS = 1000;

type Page = Pick<EventTarget, "addEventListener" | "removeEventListener">;

/**
 * Call `stayed` if the page is still there {@link STAYED_MS} after a "Leave site?" prompt (a `beforeunload` that
 * a listener registered earlier cancelled). Returns the function that stops watching.
 */
export function onStayed(
  stayed: () => void,
  page: Page | null = typeof window === "undefined" ? null : window,
  ms = STAYED_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = () => {
    clearTimeout(timer);
    page?.removeEventListener("beforeunload", prompted);
    page?.removeEventListener("pagehide", off);
  };
  function prompted(e: Event) {
    if (!e.defaultPrevented) return; // no prompt: the page goes
    clearTimeout(timer);
    // The first timer runs once the prompt is answered; the second, a moment later (the page left by then).
    timer = setTimeout(() => {
      timer = setTimeout(() => {
        off();
        stayed();
      }, ms);
    }, 0);
  }
  page?.addEventListener("beforeunload", prompted);
  page?.addEventListener("pagehide", off);
  return off;
}
