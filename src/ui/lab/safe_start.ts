/**
 * A start without the saved runs, after a crash: the crash card (src/ui/ErrorBoundary.tsx) asks for it, and the
 * next load of this tab (src/ui/lab/session.ts) keeps the saved session under Recent experiments and opens the
 * default experiment, so that saved runs the page cannot draw do not crash it on every reload.
 */
import type { MarkerStorage } from "./pipeline_guard";
import { raiseTabFlag, takeTabFlag } from "./tab_flag";

/** The sessionStorage key of the request (this tab only; taken by the next load). */
export const SAFE_START_KEY = "rlhf-playground.safe-start";

/** Ask the next load of this tab to start without the saved runs. */
export function askSafeStart(store?: MarkerStorage): void {
  raiseTabFlag(SAFE_START_KEY, store);
}

/** Whether this load was asked to start without the saved runs (the request is used up). */
export function takeSafeStart(store?: MarkerStorage): boolean {
  return takeTabFlag(SAFE_START_KEY, store);
}
