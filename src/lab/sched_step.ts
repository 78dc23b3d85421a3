/**
 * One step of one run slot, as the scheduler (./scheduler.ts) takes it: the step, its record, the factory's
 * afterStep, the step's progress for a slow step, and what a failure means (the run's error, or a lost device).
 */

import { GpuValidationError } from "../gpu/errors";
import { OnnxRewardModelError } from "../rewards/onnx_rm_error";
import { errorMessage as message } from "../util/errors";
import type { RunErrorKind, StepProgress } from "./protocol";
import { RewardSourceError } from "./reward_sources";
import type { RunSlot } from "./run_slot";
import type { SchedRun, SchedulerOptions } from "./sched_run";

/**
 * Take one step of `e` (runnable). A step still in flight `progressAfterMs` after it began says where it is
 * (RunSlot.setProgress, then `changed()`): its latest stage then, and every stage after, with the step's start
 * (the page hears how long the step has run); a shorter step never
 * does, and the progress is cleared when the step ends. A failure the options' isDeviceLoss recognises leaves
 * the run as it was and returns "lost"; any other puts the run in error naming the step. Never throws.
 */
export async function takeStep(
  e: RunSlot,
  o: Pick<SchedulerOptions, "factory" | "isDeviceLoss">,
  progressAfterMs: number,
  /** The slot has something new for the page. */
  changed: () => void,
): Promise<"ok" | "lost"> {
  const run = e.run as SchedRun;
  e.inFlight = true;
  let latest: StepProgress | null = null;
  let shown = false;
  const began = performance.now();
  const show = (p: StepProgress) => {
    e.setProgress(p, began);
    changed();
  };
  // A stage that began before the mark and lasts (a long update) shows at the mark, not at the next stage.
  const timer = setTimeout(() => {
    shown = true;
    if (latest) show(latest);
  }, progressAfterMs);
  try {
    const out = await run.step((p) => {
      latest = p;
      if (shown) show(p);
    });
    clearTimeout(timer);
    e.setProgress(null);
    e.recordStep(out);
    await o.factory.afterStep?.(e.spec.id, run, out);
  } catch (err) {
    if (o.isDeviceLoss?.(err)) return "lost";
    const gpu = err instanceof GpuValidationError ? gpuFailure(err) : null;
    // A reward model's failure reads as words on the run card, without its kind (for code).
    const text = gpu?.text ?? (err instanceof OnnxRewardModelError ? err.detail : message(err));
    e.fail(/step \d+/.test(text) ? text : `step ${e.step + 1} failed: ${text}`, gpu?.kind);
    // Rewards are scored before any update: the run is as it was, and may try the step again.
    e.retryable = err instanceof OnnxRewardModelError || err instanceof RewardSourceError;
  } finally {
    clearTimeout(timer);
    e.inFlight = false;
    e.setProgress(null);
  }
  return "ok";
}

/**
 * A GPU error raised during a step, in the user's terms (src/gpu only knows the driver's): out of memory is the
 * step's size, whatever the learning rate; a validation or internal error is a bug in the lab, the driver's text
 * kept as the detail.
 */
export function gpuFailure(err: GpuValidationError): { text: string; kind: RunErrorKind } {
  if (err.kind === "out-of-memory")
    return {
      text: "the GPU ran out of memory on this step. Give the run fewer prompts per step, fewer samples per prompt, shorter completions or a smaller model",
      kind: "gpu-memory",
    };
  return {
    text: `an internal GPU error stopped it: a bug in the lab, not in the run's settings (the driver said: ${err.message})`,
    kind: "gpu-internal",
  };
}
