/**
 * Rebuilding one run slot from its last checkpoint, shared by the scheduler's two ways back: every run after a
 * lost GPU device (Scheduler.recover), and one run in error that the user sends back to where it last was
 * sound (Scheduler.rewindRun: a non-finite metric, say, after a learning rate too high).
 */
import type { RunSpec } from "./protocol";
import type { RunSlot } from "./run_slot";
import type { Restored } from "./sched_run";

/** What to show for a restored run: the chart marker at the step it resumes after, and the page's notice. */
export type RestoreText = (spec: RunSpec, step: number) => { marker: string; notice: string };

/**
 * Replace the slot's run by `rebuild(spec)` (its last checkpoint, or the start model at step 0), go back to that
 * step (the page drops the history after it) and mark the step; its error stays the caller's. Returns the step.
 * @throws whatever `rebuild` throws; the slot then has no run object (its old one is destroyed first).
 */
export async function restoreSlot(
  e: RunSlot,
  rebuild: (spec: RunSpec) => Promise<Restored>,
  text: RestoreText,
): Promise<number> {
  try {
    e.run?.destroy();
  } catch {
    // A lost device's buffers may already be gone.
  }
  e.run = null;
  const r = await rebuild(e.spec);
  const step = Math.min(r.step, e.step);
  const t = text(e.spec, step);
  e.rewind(r.run, step, t.notice);
  e.mark(step, t.marker);
  return step;
}
