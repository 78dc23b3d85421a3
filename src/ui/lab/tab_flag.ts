/**
 * A one-shot request from this page to the next load of the same tab (sessionStorage): raised before a reload or
 * a navigation, taken (and so cleared) by the load after it. Storage that refuses drops the request. Never throws.
 */
import { type MarkerStorage, tabStorage } from "./pipeline_guard";

/** Ask the next load of this tab for `key`. */
export function raiseTabFlag(key: string, store: MarkerStorage | undefined = tabStorage()): void {
  try {
    store?.setItem(key, "1");
  } catch {
    // Storage refused: the next load goes as usual.
  }
}

/** Whether this load was asked for `key` (the request is used up). */
export function takeTabFlag(key: string, store: MarkerStorage | undefined = tabStorage()): boolean {
  try {
    const asked = store?.getItem(key) === "1";
    store?.removeItem(key);
    return asked;
  } catch {
    return false;
  }
}
