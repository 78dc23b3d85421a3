/**
 * Rebuilding one run slot: from its last checkpoint, the scheduler's two ways back (every run after a lost GPU
 * device, Scheduler.recover; one run in error that the user sends back to where it last was sound,
 * Scheduler.rewindRun: a non-finite metric, say, after a learning rate too high); or from the start model with
 * new settings (Scheduler.setConfig before a run's first step, or after its weights were lost).
 */
import type { RunSpec } from "./protocol";
import { restartedRun } from "./run_labels";
import type { RunSlot } from "./run_slot";
import type { Restored, RunFactory } from "./sched_run";

/** What to show for a restored run: the chart marker at the step it resumes after, and the page's notice. */
export type RestoreText = (spec: RunSpec, step: number) => { marker: string; notice: string };

/**
 * Replace the slot's run by `rebuild(spec)` (its last checkpoint, or the start model at step 0), go back to that
 * step (the page drops the history after it) and mark the step; its error stays the caller's. Returns the step.
 * Back at step 0 after some steps, it is a fork or import of nothing any more: its label and the other slots'
 * (`all`) go as the page's store makes them go on that rewind (run_labels.ts restartedRun).
 * @throws whatever `rebuild` throws; the slot then has no run object (its old one is destroyed first).
 */
export async function restoreSlot(
  e: RunSlot,
  rebuild: (spec: RunSpec) => Promise<Restored>,
  text: RestoreText,
  all: readonly RunSlot[] = [e],
): Promise<number> {
  const before = e.step;
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
  if (step === 0 && before > 0) relabelRestarted(e, e.spec, all);
  return step;
}

/** Give every slot of `all` the label the page's store gives it when `e` (now with `spec`) goes back to step 0. */
function relabelRestarted(e: RunSlot, spec: RunSpec, all: readonly RunSlot[]): void {
  const specs = restartedRun(
    all.map((x) => (x === e ? spec : x.spec)),
    spec.id,
  );
  all.forEach((x, i) => {
    x.spec = specs[i];
  });
}

/**
 * Rebuild slot `e` from the start model with `spec`'s settings (`all`: every slot, whose specs may change):
 * before its first step it just takes the new run; after some steps its weights were lost (a device-loss
 * restore failed), so it starts over at step 0 (the page drops its history) and is a fork of nothing from then
 * on, as after Reset. Its error and pending change markers are cleared.
 * @throws RangeError from the factory on an invalid config (the slot is unchanged then).
 */
export async function rebuildSlot(
  e: RunSlot,
  spec: RunSpec,
  all: readonly RunSlot[],
  factory: RunFactory,
): Promise<void> {
  const run = await factory.create(spec);
  e.run?.destroy();
  if (e.step > 0) {
    factory.forget?.(spec.id);
    e.rewind(run, 0, `${spec.label} starts over from the start model with its new settings`);
    // The page's store does the same on the rewind.
    relabelRestarted(e, spec, all);
  } else {
    e.run = run;
    e.spec = spec;
  }
  e.clearError();
  e.forgetChanges();
  e.touch();
}
