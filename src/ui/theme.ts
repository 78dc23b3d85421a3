/**
 * Light and dark themes: the user's choice (kept in localStorage) or else the system's
 * prefers-color-scheme. The theme is the `data-theme` attribute on <html>; styles.css does the rest.
 */
export type Theme = "light" | "dark";

const STORAGE_KEY = "rlhf-playground.theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The theme chosen with the toggle, or null when the user has not chosen (follow the system). */
export function storedTheme(): Theme | null {
  try {
    const t = localStorage.getItem(STORAGE_KEY);
    return t === "light" || t === "dark" ? t : null;
  } catch {
    return null; // storage blocked (privacy mode, sandboxed iframe)
  }
}

export function systemTheme(): Theme {
  return window.matchMedia?.(DARK_QUERY).matches ? "dark" : "light";
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** Apply and remember the user's choice. */
export function chooseTheme(theme: Theme): void {
  applyTheme(theme);
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // not remembered; still applied
  }
}

/** Follow system changes while the user has not chosen. Returns an unsubscribe function. */
export function followSystemTheme(onChange: (t: Theme) => void): () => void {
  const query = window.matchMedia?.(DARK_QUERY);
  if (!query) return () => {};
  const listener = () => {
    if (storedTheme()) return;
    const t = systemTheme();
    applyTheme(t);
    onChange(t);
  };
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

/**
 * Print in the light theme (dark text on white paper) whatever the screen's: the theme switches for the print
 * (`beforeprint`) and back after (`afterprint`). Returns the function that stops it.
 */
export function printInLight(
  win: Pick<Window, "addEventListener" | "removeEventListener"> = window,
): () => void {
  let printing = false;
  let screen: string | undefined;
  const before = () => {
    if (printing) return; // a print within a print (nested events): the screen's theme is already kept
    printing = true;
    screen = document.documentElement.dataset.theme;
    applyTheme("light");
  };
  const after = () => {
    if (!printing) return;
    printing = false;
    if (screen === "light" || screen === "dark") applyTheme(screen);
    else delete document.documentElement.dataset.theme;
  };
  win.addEventListener("beforeprint", before);
  win.addEventListener("afterprint", after);
  return () => {
    win.removeEventListener("beforeprint", before);
    win.removeEventListener("afterprint", after);
  };
}
