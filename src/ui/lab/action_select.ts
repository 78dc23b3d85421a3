/**
 * Keyboard handling of a `<select>` that acts when its value changes ("+ Add run…", "Lessons…"). In Chromium
 * an arrow key on a closed select changes its value, so browsing the list would add runs or open a lesson:
 * here the browsing keys open the list instead (showPicker), where arrows move and Enter picks.
 */
const BROWSE = new Set(["ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End"]);

export function actionSelectKeyDown(e: {
  key: string;
  altKey: boolean;
  preventDefault(): void;
  currentTarget: { showPicker?: () => void };
}): void {
  if (!BROWSE.has(e.key) || e.altKey) return;
  e.preventDefault();
  try {
    e.currentTarget.showPicker?.();
  } catch {
    // showPicker needs a user gesture and a rendered select; the keystroke is one, so this is rare.
  }
}
