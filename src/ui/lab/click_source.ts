/**
 * Whether a click came from the keyboard (Enter or Space on a button) or a script rather than a pointer: the
 * click's `detail` (its click count) is 0 then. Keyboard-made clicks keep or return the focus; pointer-made
 * ones give the keyboard back to the page, where space plays and pauses.
 */
export function fromKeyboard(e: { detail: number }): boolean {
  return e.detail === 0;
}
