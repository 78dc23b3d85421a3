/**
 * The lab store's reducer for the worker's RunUpdates (lab_store.ts applyUpdates): new points, markers,
 * samples and views; rewinds (a lost device, Reset) and what they undo; the step in flight's progress.
 */
import type { LiveProgress, RunUpdate } from "../lab/protocol";
import { restartedRun } from "../lab/run_labels";
import type { LabState, RunState, ShownProgress } from "./lab_store";

/** Nothing but the step in flight's progress changed: the run's state (and the charts) stay as they are. */
function progressOnly(u: RunUpdate, r: RunState): boolean {
  return (
    u.progress !== undefined &&
    !u.points.length &&
    !u.markers?.length &&
    u.samples === undefined &&
    u.inspect === undefined &&
    u.error === undefined &&
    u.rewindTo === undefined &&
    u.notice === undefined &&
    u.status === r.status &&
    u.step === r.step &&
    !r.resuming
  );
}

/**
 * The state after `updates`: only the parts that changed are new objects. `now` (Date.now(), ms) dates a step's
 * start from the worker's elapsed time (ShownProgress.since).
 */
export function applyRunUpdates(
  s: Pick<LabState, "runs" | "spec" | "stepProgress">,
  updates: readonly RunUpdate[],
  now = Date.now(),
): Partial<Pick<LabState, "runs" | "spec" | "stepProgress">> {
  let runs = s.runs;
  const put = (id: string, r: RunState) => {
    if (runs === s.runs) runs = { ...s.runs };
    runs[id] = r;
  };
  let progress = s.stepProgress;
  const setProgress = (id: string, p: ShownProgress | undefined) => {
    if (progress[id] === p) return;
    const { [id]: _, ...rest } = progress;
    progress = p ? { ...rest, [id]: p } : rest;
  };
  // The step's start as first heard (later reports would move it by their delivery delay: the count would jump),
  // for the same step only: a report of the next step can come before the worker's null for this one (an update
  // it sent before the page had read the last one replaces the null), with the run's step count moved on.
  const shown = (id: string, step: number, { elapsedMs, ...p }: LiveProgress): ShownProgress => {
    const before = progress[id];
    return { ...p, step, since: before && before.step === step ? before.since : now - elapsedMs };
  };
  for (const u of updates) {
    const r = runs[u.runId];
    if (!r) continue;
    // Kept only while a step can be in flight; the worker sends null when it ends.
    const inFlight = u.status === "running" || u.status === "finishing";
    setProgress(
      u.runId,
      u.progress !== undefined
        ? u.progress
          ? shown(u.runId, u.step, u.progress)
          : undefined
        : inFlight
          ? progress[u.runId]
          : undefined,
    );
    if (progressOnly(u, r)) continue;
    // Restored, its checkpoint still loading: the worker's word from before (the run as added, step 0).
    const stale = u.rewindTo === undefined && u.step < r.step && !u.points.length && u.status !== "error";
    if (r.resuming && stale) continue;
    const at = u.rewindTo;
    const kept = at === undefined ? r.history : r.history.filter((p) => p.step <= at);
    // A rewind drops the markers of the steps it undoes; back at 0 the run starts over: nothing of the old
    // run stays (its samples, its settings note).
    const marks = at === undefined ? r.markers : r.markers.filter((m) => at > 0 && m.step <= at);
    put(u.runId, {
      ...r,
      status: u.status,
      step: u.step,
      history: u.points.length ? kept.concat(u.points) : kept,
      markers: u.markers?.length ? [...marks, ...u.markers] : marks,
      samples: u.samples ?? (at === 0 ? [] : r.samples),
      // A new step without its view (sent only once paused): the old step's view is stale.
      inspect: u.inspect ?? (u.points.length || u.rewindTo !== undefined ? undefined : r.inspect),
      error: u.error ?? (u.status === "error" ? r.error : null),
      retryable: u.error !== undefined ? u.retryable : u.status === "error" ? r.retryable : undefined,
      errorKind: u.error !== undefined ? u.errorKind : u.status === "error" ? r.errorKind : undefined,
      noWeights: u.error !== undefined ? u.noWeights : u.status === "error" ? r.noWeights : undefined,
      // A step landed: it trained with the settings as they are (a rewind keeps the note).
      untrained: u.step > r.step || at === 0 ? undefined : r.untrained,
      resuming: undefined,
    });
  }
  // A run rewound (device lost: back to its last checkpoint) before a fork's fork step trains those steps
  // anew: its forks share its history only up to where it rewound to.
  let specs = s.spec.runs;
  for (const u of updates) {
    const at = u.rewindTo;
    if (!at || !specs.some((r) => r.forkOf?.id === u.runId && r.forkOf.step > at)) continue;
    specs = specs.map((r) =>
      r.forkOf?.id === u.runId && r.forkOf.step > at ? { ...r, forkOf: { id: u.runId, step: at } } : r,
    );
  }
  // Back at step 0 (Reset, a run rebuilt from the start model after a lost GPU): a fork of nothing, labelled as
  // the worker labels it (run_labels.ts; in id order, as restartedSpecs numbers a Reset's forks).
  const restarted = updates.filter((u) => u.rewindTo === 0 && runs[u.runId]).map((u) => u.runId);
  restarted.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  for (const id of restarted) specs = restartedRun(specs, id);
  if (specs.length === s.spec.runs.length && specs.every((r, i) => r === s.spec.runs[i])) specs = s.spec.runs;
  if (specs !== s.spec.runs)
    for (const r of specs) {
      const run = runs[r.id];
      if (run && (run.spec.forkOf !== r.forkOf || run.spec.label !== r.label)) put(r.id, { ...run, spec: r });
    }
  return {
    ...(runs !== s.runs && { runs }),
    ...(specs !== s.spec.runs && { spec: { ...s.spec, runs: specs } }),
    ...(progress !== s.stepProgress && { stepProgress: progress }),
  };
}
