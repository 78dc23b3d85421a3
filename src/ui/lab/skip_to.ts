/**
 * Moving the keyboard to a region of the page (./SkipLinks.tsx).
 */

/** Focus the element with this id (it carries tabIndex −1) and scroll it to the top of the window. */
export function skipTo(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) return false;
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "start" });
  return true;
}
