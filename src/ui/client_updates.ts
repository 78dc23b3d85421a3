/**
 * How the training worker's updates reach the page (./client.ts): each batch goes into the lab store
 * (src/ui/lab_store.ts), is counted for the update-rate figures, shows its notices, and stops Play once no run
 * can step any more; it is acknowledged only once the page has painted it, and the worker sends its next batch
 * only then (backpressure: a page that renders slowly gets fewer, larger updates, never a growing queue).
 */
import * as Comlink from "comlink";
import type { RunUpdate } from "../lab/protocol";
import type { StartStage } from "../lab/start_progress";
import { without } from "./client_notices";
import { useStarting } from "./lab/starting";
import { useLab } from "./lab_store";

/** Longest wait for a frame before an update is acknowledged anyway (hidden tabs paint no frames). */
const ACK_TIMEOUT_MS = 1000;

/**
 * Resolves once the browser has painted the current state (the next animation frame, then the task after it),
 * or after ACK_TIMEOUT_MS. The worker waits for this before its next update, so a page that renders slowly
 * receives fewer, larger updates instead of a growing queue.
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ACK_TIMEOUT_MS);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

/** Update counters (tests and the update-rate figure), and the worker's latest notice. */
export interface ClientStats {
  updates: number;
  firstUpdateAt: number | null;
  lastUpdateAt: number | null;
  /** The notice the worker sent last (where runs went on after a lost device or a rewind), as shown. */
  workerNotice?: string;
}

/**
 * The worker's onUpdate (a comlink proxy): applies each batch while `current()` holds (the updates of a worker
 * replaced since are ignored), counting it in `stats`, and acknowledges it once the page has painted it.
 * `onRewardFailure`: a run's reward failed while scoring (a retryable error: a reward model may have been stopped).
 */
export function updateReceiver(current: () => boolean, stats: ClientStats, onRewardFailure?: () => void) {
  return Comlink.proxy((updates: RunUpdate[]) => {
    if (current()) {
      apply(updates, stats);
      if (updates.some((u) => u.retryable)) onRewardFailure?.();
    }
    return afterPaint();
  });
}

/**
 * The worker's onStage (a comlink proxy): the loading line's stage (./lab/starting.ts) while `current()` holds,
 * so a replaced start's late reports are not shown. Clears the line's stage.
 */
export function stageReceiver(current: () => boolean) {
  useStarting.getState().report(null);
  return Comlink.proxy((s: StartStage) => {
    if (current()) useStarting.getState().report(s);
  });
}

function apply(updates: RunUpdate[], stats: ClientStats): void {
  const now = performance.now();
  stats.updates++;
  stats.firstUpdateAt ??= now;
  stats.lastUpdateAt = now;
  const s = useLab.getState();
  s.applyUpdates(updates);
  const notices = updates.flatMap((u) => (u.notice ? [u.notice] : []));
  if (notices.length) {
    // It takes the place of the worker's last notice only: the page's own (say, an export that failed as the
    // device was lost) stays beside it.
    const line = [...new Set(notices)].join(" ");
    const rest = withoutWorkerNotice(s.notice, stats);
    s.setNotice(rest && !rest.includes(line) ? `${rest} ${line}` : line);
    stats.workerNotice = line;
  }
  // The worker stops by itself when no run can step any more (in error, or at the lesson's last step).
  const runs = Object.values(useLab.getState().runs);
  const stopAt = useLab.getState().spec.steps ?? 0;
  const done = (r: (typeof runs)[number]) => r.status === "error" || (stopAt > 0 && r.step >= stopAt);
  if (s.playing && runs.length > 0 && runs.every(done)) s.setPlaying(false);
  // Or when it says so (after the GPU device was lost twice on one run's step).
  if (s.playing && updates.some((u) => u.stopped)) s.setPlaying(false);
}

/** `notice` without the worker's last notice (null when nothing else is left); forgets it. */
export function withoutWorkerNotice(notice: string | null, stats: ClientStats): string | null {
  const line = stats.workerNotice;
  stats.workerNotice = undefined;
  return line ? without(notice, [line]) : notice;
}
