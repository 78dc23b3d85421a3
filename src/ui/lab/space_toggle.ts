/**
 * The space bar plays and pauses the lab (TensorFlow Playground's habit), except where space means something
 * else: typing in a text field (not a knob's number or Stop at), a select, a `<summary>`, a control focused from the keyboard (a button, switch or
 * slider uses space itself), an open dialog or confirmation card. A control focused by a mouse click (a legend
 * chip, a slider) does not keep space: a lecturer who clicked one and presses space means pause. Except inside
 * an element marked data-keeps-space (the inspector, which only shows while paused: Play would hide what was
 * being read).
 */
import { useEffect } from "react";
import { labActions } from "./actions";

/** Controls that take space themselves when focused from the keyboard (buttons, switches, sliders). */
const SPACE_CONTROLS = "button, [role=switch], [role=button], input[type=range], input[type=checkbox]";
/**
 * Inputs where space types a character: all but those marked data-space-plays (a knob's number, Stop at), which
 * hold no space and apply their typed value on space before this plays or pauses (FieldControl, StopAt).
 */
const TEXT_INPUTS = "input:not([data-space-plays])";
/** A focus this soon after a pointer press on (or inside) the focused element was given by that press. */
const POINTER_FOCUS_MS = 500;

export function useSpaceToggle(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    // The control a pointer press focused (null once something else takes the focus). Chromium's
    // :focus-visible cannot tell: a key press makes the focused element match it before the handlers run.
    let pointerAt = Number.NEGATIVE_INFINITY;
    let pointerTarget: Node | null = null;
    let mouseFocused: EventTarget | null = null;
    // Firefox clicks a button on space's keyup even when its keydown was cancelled: cancel that keyup too.
    let swallowKeyUp = false;
    const onPointer = (e: PointerEvent) => {
      pointerAt = performance.now();
      pointerTarget = e.target as Node | null;
      // Clicked while already focused (from the keyboard before): no focusin follows, it is mouse-held now.
      const control = (e.target as Element | null)?.closest?.(SPACE_CONTROLS);
      if (control && control === document.activeElement) mouseFocused = control;
    };
    const onFocus = (e: FocusEvent) => {
      // The window coming back (Alt+Tab) focuses the same element again: it keeps what it was.
      if (e.target === mouseFocused) return;
      const el = e.target as Node;
      // Given by the press only if the press was on it: a confirmation card focusing its button right after a
      // click elsewhere, or a Tab just after a click, is the keyboard's.
      const byPointer =
        performance.now() - pointerAt < POINTER_FOCUS_MS &&
        pointerTarget !== null &&
        el.contains?.(pointerTarget);
      mouseFocused = byPointer ? e.target : null;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.code !== "Space" || e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      // A panel that exists only while paused (the inspector): space there is its controls', however focused.
      if (t?.closest("[data-keeps-space]")) return;
      const control = t?.closest(SPACE_CONTROLS);
      if (
        control
          ? control !== mouseFocused
          : t?.closest(`${TEXT_INPUTS}, textarea, select, summary, [contenteditable]`)
      )
        return;
      // Nor behind an open dialog (the explain panel, Change…) or confirmation card (Reset, Remove…).
      if (document.querySelector("dialog[open], [role=alertdialog]")) return;
      e.preventDefault();
      swallowKeyUp = true;
      labActions.togglePlay();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.code !== "Space" || !swallowKeyUp) return;
      swallowKeyUp = false;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKeyUp, true);
    window.addEventListener("pointerdown", onPointer, true);
    window.addEventListener("focusin", onFocus, true);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKeyUp, true);
      window.removeEventListener("pointerdown", onPointer, true);
      window.removeEventListener("focusin", onFocus, true);
    };
  }, [enabled]);
}
