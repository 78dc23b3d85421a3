/**
 * The training worker's way back from a lost GPU device (./worker.ts): a device is asked for again (a few
 * times, some seconds apart), the runs' resources move to it, and every run is rebuilt from its last CPU
 * checkpoint (./runs.ts, every CHECKPOINT_EVERY steps); the page is told where each run resumed. If no device
 * can be had again, every run goes to "error" with the reason. It all happens in one of the scheduler's turns,
 * so a Reset, add or fork sent meanwhile waits for it (Scheduler.recover).
 */
import type { GpuContext } from "../gpu/context";
import { type GpuDeviceLostError, GpuUnavailableError } from "../gpu/errors";
import { errorMessage as message } from "../util/errors";
import { DEVICE_LOST_MARKER, type RunSpec } from "./protocol";
import { CHECKPOINT_EVERY } from "./runs";
import type { Restored } from "./sched_run";
import type { GoneForGood, Scheduler } from "./scheduler";

/** Tries to get a device back after a loss, with this many ms between them. */
export const REACQUIRE_DELAYS_MS = [0, 500, 2000, 5000];

/** What the recovery needs of the worker. */
export interface RecoveryDeps {
  /** A new device (rejects when none answers). */
  acquire(): Promise<GpuContext>;
  /** Move everything to `ctx` and watch it for its own loss. @throws GpuDeviceLostError when `ctx` is lost too. */
  adopt(ctx: GpuContext): void;
  /** A run's replacement on the new device, from its last checkpoint. */
  restore(spec: RunSpec): Promise<Restored>;
}

/**
 * Recover the scheduler's runs from `lost`. Each loss queues its own recovery: a device lost again while the
 * runs are rebuilt is recovered from next (its runs are left for that one, not put in error). Never rejects.
 */
export async function recoverFromLoss(
  s: Scheduler,
  lost: GpuDeviceLostError,
  d: RecoveryDeps,
  delays: readonly number[] = REACQUIRE_DELAYS_MS,
): Promise<void> {
  s.halt();
  // "destroyed" says something; "unknown" (what most losses report) says nothing and is left out.
  const why = lost.reason && lost.reason !== "unknown" ? ` (${lost.reason})` : "";
  const reacquire = async (): Promise<GoneForGood | null> => {
    let failure: unknown = null;
    for (const delay of delays) {
      await new Promise((r) => setTimeout(r, delay));
      try {
        // A device that is lost as it arrives (right after a GPU-process crash) fails here: the next try.
        d.adopt(await d.acquire());
        return null;
      } catch (e) {
        failure = e;
      }
    }
    return goneForGood(why, failure);
  };
  // A run's step lost the device twice in a row: resuming would lose it again (a batch too large for this GPU, a
  // driver's time limit), so the runs come back paused instead of looping. (Asked once the device is back: the
  // step that lost it has failed by then.)
  await s
    .recover(
      (spec) => d.restore(spec),
      (_spec, step) => {
        const again = s.repeatedLoss;
        return {
          marker: `${DEVICE_LOST_MARKER}: resumed from step ${step}`,
          notice: again
            ? `The GPU device was lost again${why}, on a step of ${again.label} as the last time; it has been re-acquired and the runs are back at their last checkpoints, paused. That run's step may be more than this GPU can do: give it fewer prompts per step, fewer samples per prompt or a smaller model, then press Play.`
            : `The GPU device was lost${why} and has been re-acquired; the runs resumed from their last checkpoints (taken every ${CHECKPOINT_EVERY} steps; the charts mark where).`,
        };
      },
      () => s.repeatedLoss === null,
      reacquire,
    )
    .catch((e) => console.error("recovery from a lost GPU device failed", e));
}

/**
 * What the runs say when no device could be had again after a loss (`why`: " (destroyed)" or ""): each card a
 * short reason (e.g. "no GPU adapter is available now"), and the lab's notice, once, the whole of `failure`'s
 * message (for a browser without WebGPU, what to use instead).
 */
export function goneForGood(why: string, failure: unknown): GoneForGood {
  const full = message(failure);
  const short = !(failure instanceof GpuUnavailableError)
    ? full
    : failure.reason === "no-adapter"
      ? "no GPU adapter is available now"
      : failure.reason === "no-webgpu" || failure.reason === "insecure-context"
        ? "WebGPU is not available now"
        : "the GPU adapter gave no device";
  return {
    error: `The GPU device was lost${why}, and no GPU device could be had again (${short}). Reload the page to retry.`,
    notice: `Every run stopped: the GPU device was lost${why} and no GPU device could be had again. ${/[.!?]$/.test(full) ? full : `${full}.`} Reload the page to retry.`,
  };
}
