/**
 * Training that stood still because the browser did: Chrome freezes a background tab to save energy (Energy
 * Saver, or a tab hidden for long on a device short of power) and may discard one to save memory, reloading it
 * when the user comes back. Either way the runs did not train meanwhile; without a word, that reads as a stall
 * of the lab. The page says what happened when it runs again.
 *
 * Page Lifecycle API (https://wicg.github.io/page-lifecycle/): `freeze` and `resume` on the document,
 * `document.wasDiscarded` on the reloaded page.
 */

import { durationText } from "./step_progress";

/** A freeze shorter than this (ms) is not worth a word (the tab was only switched away for a moment). */
export const FROZEN_MIN_MS = 10_000;

/** The line for a freeze of `ms` while the runs trained. */
export function frozenLine(ms: number): string {
  return (
    `The browser paused this tab for ${durationText(ms)} (it freezes background tabs to save energy): the runs did ` +
    "not train meanwhile and go on now. Keep the lab's tab in front, or exempt this site from the browser's " +
    "energy saving, to train in the background."
  );
}

/** The line for a page the browser discarded (to save memory) and reloaded as the user came back. */
export const DISCARDED_LINE =
  "The browser closed this tab in the background to save memory and reopened it now: the runs stopped there " +
  "and come back from what was saved.";

/**
 * Say so when the page resumes from a freeze of at least FROZEN_MIN_MS that began while `training()`.
 * `doc`: where `freeze`/`resume` fire (document; tests: a stub); `now`: a monotonic clock in ms.
 * Returns the function that stops listening.
 */
export function noticeWhenThawed(
  say: (line: string) => void,
  training: () => boolean,
  doc: EventTarget | null = typeof document === "undefined" ? null : document,
  now: () => number = () => performance.now(),
): () => void {
  let frozenAt: number | null = null;
  const freeze = () => {
    frozenAt = training() ? now() : null;
  };
  const resume = () => {
    if (frozenAt !== null && now() - frozenAt >= FROZEN_MIN_MS) say(frozenLine(now() - frozenAt));
    frozenAt = null;
  };
  doc?.addEventListener("freeze", freeze);
  doc?.addEventListener("resume", resume);
  return () => {
    doc?.removeEventListener("freeze", freeze);
    doc?.removeEventListener("resume", resume);
  };
}

/** DISCARDED_LINE when this page is the reload of a tab the browser discarded, else null. */
export function discardedLine(
  doc: { wasDiscarded?: boolean } | null = typeof document === "undefined"
    ? null
    : (document as unknown as { wasDiscarded?: boolean }),
): string | null {
  return doc?.wasDiscarded === true ? DISCARDED_LINE : null;
}
