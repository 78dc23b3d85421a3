/**
 * Why a worker (the training worker, src/ui/client_worker.ts; a reward-model worker, ./ort_loader.ts) stopped,
 * from its `error` event: one wording for both, so a page left open across a redeploy says the same thing
 * whichever worker it starts next.
 */

/**
 * Why a worker stopped when its script did not load: the event is a bare Event, with no message, when the
 * module script answers 404 (a page opened before the lab was updated on its server asks for a file the server
 * no longer has) or the network is down.
 */
export const SCRIPT_NOT_LOADED =
  "its script could not be downloaded: the lab was updated on its server since this page opened, or the network is down; reload the page";

/** The reason a worker's `error` event gives: its message (a script that threw at top level), else {@link SCRIPT_NOT_LOADED}. */
export function workerStopReason(ev: Event): string {
  return (ev as Partial<ErrorEvent>).message || SCRIPT_NOT_LOADED;
}
