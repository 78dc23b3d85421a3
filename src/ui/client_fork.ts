/**
 * What the page shows of a fork (./client.ts forkRun): the worker has the fork at its source's step, and the
 * store copies the source's history, markers and samples to it; the points the worker has not sent yet come
 * with the fork's own updates.
 */
import type { RunSpec } from "../lab/protocol";
import { type RunState, useLab } from "./lab_store";

/**
 * Show run `forked` (from the worker) as a copy of `src`, the source run as the store holds it now; `src`
 * undefined (the source was removed meanwhile, even when a new run took its id: its history is not the
 * fork's) shows it as a fork of nothing: no `forkOf`, no history.
 */
export function showFork(forked: RunSpec, src: RunState | undefined): void {
  const store = useLab.getState();
  const { forkOf: _, ...orphan } = forked;
  const used = src ? forked : orphan;
  store.upsertRun(used);
  if (src)
    store.restoreRuns([
      {
        spec: used,
        status: src.status === "error" ? "paused" : src.status,
        step: src.step,
        history: src.history,
        markers: src.markers.map((m) => ({ ...m, runId: used.id })),
        samples: src.samples,
        error: null,
        // The fork's weights trained as its source's did (the worker's fork keeps their trainedWith).
        ...(src.untrained && { untrained: src.untrained }),
      },
    ]);
}
