/**
 * Watching the training worker once it has started (./client.ts): an error it does not handle reaches the page's
 * error banner (the worker goes on: such an error ends only the task that threw); a worker that stops answering
 * (closed, crashed, killed for memory: no event comes for those) becomes the lab's error, with what to do; and
 * one that answers again after all (it was only busy) gives the lab back.
 */

/** What the page does with what the watch sees. */
export interface WorkerWatch {
  /** An error the worker did not handle (its message). */
  onError(message: string): void;
  /** The worker answered no ping for `silentTicks` checks in a row. */
  onSilent(): void;
  /** After onSilent, the worker answered after all. */
  onBack(): void;
}

/** A check every `everyMs`; silent after this many unanswered checks in a row (≥ 30 s of the page's timers). */
export const WATCH_EVERY_MS = 5000;
export const SILENT_TICKS = 6;

/**
 * Watch `worker` (started) through `ping` (the worker's answer to a no-op call). Unanswered checks are counted,
 * not the wall time since the last answer: a laptop that slept does not read as a dead worker when it wakes.
 * Returns the function that stops the watch.
 */
export function watchWorker(
  worker: Pick<Worker, "addEventListener" | "removeEventListener">,
  ping: () => Promise<unknown>,
  w: WorkerWatch,
  everyMs = WATCH_EVERY_MS,
  silentTicks = SILENT_TICKS,
): () => void {
  const onError = (ev: Event) => {
    ev.preventDefault();
    const e = ev as ErrorEvent;
    w.onError(e.message || "an error without a message");
  };
  worker.addEventListener("error", onError);
  let waiting: Promise<unknown> | null = null;
  let unanswered = 0;
  let silent = false;
  const timer = setInterval(() => {
    if (waiting) {
      unanswered++;
      if (unanswered >= silentTicks && !silent) {
        silent = true;
        w.onSilent();
      }
      return;
    }
    // Any answer counts, a rejection too: the worker is there to give it.
    const answered = () => {
      if (waiting !== p) return;
      waiting = null;
      unanswered = 0;
      if (silent) {
        silent = false;
        w.onBack();
      }
    };
    const p = ping().then(answered, answered);
    waiting = p;
  }, everyMs);
  return () => {
    clearInterval(timer);
    worker.removeEventListener("error", onError);
  };
}
