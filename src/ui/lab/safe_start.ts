/**
 * A start without the saved runs, after a crash: the crash card (src/ui/ErrorBoundary.tsx) asks for it, and the
 * next load of this tab (src/ui/lab/session.ts) keeps the saved session under Recent experiments and opens the
 * default experiment, so that saved runs the page cannot draw do not crash it on every reload.
 */
import { type MarkerStorage, tabStorage } from "./pipeline_guard";

/** The sessionStorage key of the request (this tab only; taken by the next load). */
export const SAFE_START_KEY = "rlhf-playground.safe-start";

/** Ask the next load of this tab to start without the saved runs. */
export function askSafeStart(store: MarkerStorage | undefined = tabStorage()): void {
  try {
    store?.setItem(SAFE_START_KEY, "1");
  } catch {
    // Storage refused: the next load restores as usual.
  }
}

/** Whether this load was asked to start without the saved runs (the request is used up). */
export function takeSafeStart(store: MarkerStorage | undefined = tabStorage()): boolean {
  try {
    const asked = store?.getItem(SAFE_START_KEY) === "1";
    store?.removeItem(SAFE_START_KEY);
    return asked;
  } catch {
    return false;
  }
}
