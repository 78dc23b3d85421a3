/**
 * One step of one run slot, as the scheduler (./scheduler.ts) takes it: the step, its record, the factory's
 * afterStep, the step's progress for a slow step, and what a failure means (the run's error, or a lost device).
 */
import type { RunSlot } from "./run_slot";
import type { SchedRun, SchedulerOptions } from "./sched_run";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Take one step of `e` (runnable). A step that takes over `progressAfterMs` says where it is
 * (RunSlot.setProgress, then `changed()`); shorter ones never do, and the progress is cleared when it ends.
 * A failure the options' isDeviceLoss recognises leaves the run as it was and returns "lost"; any other puts
 * the run in error naming the step. Never throws.
 */
export async function takeStep(
  e: RunSlot,
  o: Pick<SchedulerOptions, "factory" | "isDeviceLoss">,
  progressAfterMs: number,
  /** Something the page should hear changed; false: the slot was removed meanwhile (nothing to report). */
  changed: () => boolean,
): Promise<"ok" | "lost"> {
  const run = e.run as SchedRun;
  e.inFlight = true;
  const t0 = performance.now();
  try {
    const out = await run.step((p) => {
      if (performance.now() - t0 < progressAfterMs) return;
      e.setProgress(p);
      changed();
    });
    e.setProgress(null);
    e.recordStep(out);
    await o.factory.afterStep?.(e.spec.id, run, out);
  } catch (err) {
    if (o.isDeviceLoss?.(err)) return "lost";
    const text = message(err);
    e.error = /step \d+/.test(text) ? text : `step ${e.step + 1} failed: ${text}`;
  } finally {
    e.inFlight = false;
    e.setProgress(null);
  }
  return "ok";
}
