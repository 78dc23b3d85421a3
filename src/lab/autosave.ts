/**
 * Keeps IndexedDB (src/lab/persist.ts) in step with the lab's state while the page lives.
 *
 * How often:
 * - a settings change (the experiment's spec): at once (the page's link names it at once: a reload compares
 *   the two, and runs whose saved settings are older than the link's start over);
 * - specs, statuses, markers and metric history: every {@link AutosaveOptions.historyEveryMs} (default 5 s)
 *   when something changed, only the runs that changed, and only their newest history chunk; also at once
 *   when the lab pauses and when the page is hidden or closed (best effort: the browser may not wait);
 * - checkpoints (the worker's exportCheckpoint, a GPU readback of the policy): every
 *   {@link AutosaveOptions.checkpointEveryMs} (default 30 s) while training, for each run that stepped since
 *   its last one; at once when the lab pauses and when a step lands while it is not playing (the Step button,
 *   or a step that was in flight at the pause); besides, at a 5 s tick, for a run's first step. A reload
 *   resumes from the newest checkpoint, so at most ~30 s of training is lost while playing (none once a
 *   paused step's export has returned); a run reloaded before its first checkpoint starts over.
 * A run imported for comparison (no weights in the worker) has its curves saved, never a checkpoint.
 * The counters stored with a checkpoint are the run's last metric point when the export returns; while
 * training, the worker may be one or two steps further (exact after a pause).
 *
 * Reading the state through a tiny interface (getState/subscribe) keeps this module free of React and
 * zustand: the lab store (src/ui/lab_store.ts) fits it as it is.
 */

import { errorMessage, isQuotaError } from "../util/errors";
import { askBeforeUnload } from "../util/leave_prompt";
import type { AutosaveOptions, Autosaver, PersistableState } from "./autosave_options";
import { checkpointPoint, checkpointStep } from "./checkpoint_point";
import { NotWriterError, type RunSnapshot } from "./persist";
import type { ExperimentSpec, Marker, MetricPoint, RunSpec, RunStatus } from "./protocol";
import { pageStorage, saveReached } from "./reached";

export type { AutosaveOptions, Autosaver, PersistableState, StateSource } from "./autosave_options";

/** What was last written for a run. */
interface Written {
  spec: RunSpec;
  status: RunStatus;
  history: readonly MetricPoint[];
  /** The first point object: a different one means the history was replaced (reset, rewind). */
  first: MetricPoint | undefined;
  markers: readonly Marker[];
  /** Imported for comparison (a run that failed to load its checkpoint becomes one with the same history). */
  comparison: boolean;
  /** Step of the last saved checkpoint (0: none). */
  ckStep: number;
}

const CLEARED_LINE =
  "This browser's saved lab was deleted (its site data was cleared, here or in another tab): this page saves its runs again, but the experiments kept under Recent experiments are gone.";
const NEWER_LINE =
  "A newer version of the lab opened in another tab and now keeps this browser's runs: this tab no longer saves (reload it to get the newer version; export runs first to keep the steps since the last “saved”).";

/** Start saving. The first flush writes the whole session and forgets saved runs not in the experiment. */
export function startAutosave(o: AutosaveOptions): Autosaver {
  const { persistence, source } = o;
  const written = new Map<string, Written>();
  let lastSpec: ExperimentSpec | null = null;
  let first = true;
  let queue: Promise<void> = Promise.resolve();
  const reported = new Set<string>();

  /** The last write failed (none has succeeded since): steps past the checkpoints are then at risk paused too. */
  let failing = false;
  const fail = (e: unknown) => {
    // Another tab claimed the session since (persist.ts): this tab's last writes are dropped, not a failure to
    // report (that tab's lab says so in this one's notice).
    if (e instanceof NotWriterError) return;
    // The browser took the database away again while it was being reopened (site data still being cleared):
    // not saved, as the notice says; the write is tried again when told (onLost below).
    if (persistence.lost === "cleared") {
      failing = true;
      o.onFailed?.(CLEARED_LINE);
      return;
    }
    const msg =
      persistence.lost === "newer"
        ? NEWER_LINE
        : isQuotaError(e)
          ? "Saving the lab in this browser failed: its storage for this page is full. Runs since the last “saved” " +
            "are not kept; remove kept experiments (Change… → Recent experiments) or free space in the browser's " +
            "site settings, and saving goes on by itself."
          : `Saving the lab in this browser failed: ${errorMessage(e).replace(/[.\s]*$/, "")}.`; // a sentence: notices join
    failing = true;
    o.onFailed?.(msg);
    if (!reported.has(msg)) {
      reported.add(msg);
      o.onError?.(msg);
    }
  };
  /** Run `job` after the previous one (writes never interleave). */
  let pending = 0;
  const serial = (job: () => Promise<void>) => {
    if (pending++ === 0) o.onBusy?.(true);
    queue = queue
      .then(job)
      .then(() => {
        failing = false;
        o.onFailed?.(null);
        if (reported.size) {
          // Told again if it fails again (the user may have closed the notice); said no more meanwhile.
          const lines = [...reported];
          reported.clear();
          o.onRecovered?.(lines);
        }
      }, fail)
      .finally(() => {
        if (--pending === 0) o.onBusy?.(false);
      });
    return queue;
  };

  const saveRun = async (r: RunSnapshot) => {
    const w = written.get(r.spec.id);
    const unchanged =
      w &&
      w.history === r.history &&
      w.markers === r.markers &&
      w.status === r.status &&
      w.spec === r.spec &&
      w.comparison === (r.comparison === true);
    if (unchanged) return;
    // Only added to: its first and its last written points are still in place (a rewind that trained back past
    // its old length keeps the first point but not the last: it is a rewritten history).
    const lastWritten = w?.history.length ? w.history[w.history.length - 1] : undefined;
    const appended =
      w &&
      w.first === r.history[0] &&
      r.history.length >= w.history.length &&
      (lastWritten === undefined || r.history[w.history.length - 1] === lastWritten);
    const savedPoints = appended ? w.history.length : 0;
    await persistence.saveRun(r, savedPoints);
    let ckStep = w?.ckStep ?? 0;
    // First write of a run at step 0: a checkpoint saved under its id belongs to the weights of an earlier
    // experiment (or of a run that started over), and a reload would resume from it.
    if (!w && r.step === 0) await persistence.deleteCheckpoint(r.spec.id);
    const atCheckpoint = (h: readonly MetricPoint[]) => h.find((p) => p.step === ckStep);
    if (w && !appended && ckStep > 0 && atCheckpoint(r.history) !== atCheckpoint(w.history)) {
      // Reset, or rewound behind the checkpoint (even if trained past its step since): it no longer matches.
      await persistence.deleteCheckpoint(r.spec.id);
      ckStep = 0;
    }
    written.set(r.spec.id, {
      spec: r.spec,
      status: r.status,
      history: r.history,
      first: r.history[0],
      markers: r.markers,
      comparison: r.comparison === true,
      ckStep,
    });
  };

  /** The database this saver's `written` describes (LabPersistence.generation): a new one is empty. */
  let generation = persistence.generation;
  const flushNow = async () => {
    // Even with nothing new to write: a database a newer lab took throws here (never "saved"), a cleared one
    // is reopened (and then written whole, below).
    await persistence.connected();
    if (persistence.generation !== generation) {
      // Reopened after the browser emptied it (site data cleared): everything is written again.
      generation = persistence.generation;
      written.clear();
      lastSpec = null;
      first = true;
    }
    const s = source.getState();
    if (s.spec !== lastSpec) {
      await persistence.saveExperiment(s.spec);
      lastSpec = s.spec;
    }
    const ids = new Set(s.spec.runs.map((r) => r.id));
    const gone = first ? (await persistence.runIds()).filter((id) => !ids.has(id)) : [];
    first = false;
    for (const id of written.keys()) if (!ids.has(id)) gone.push(id);
    for (const id of gone) {
      await persistence.deleteRun(id);
      written.delete(id);
    }
    for (const run of s.spec.runs) {
      const r = s.runs[run.id];
      if (r) await saveRun(r);
    }
  };

  const checkpointNow = async () => {
    if (!o.exportCheckpoint) return;
    await flushNow();
    // One wait for the whole save, not one per run: saves queued behind it (a pause's, leaving the page) wait
    // at most this long for it.
    const until = Date.now() + (o.pageWaitMs ?? 2000);
    for (const run of source.getState().spec.runs) {
      const w = written.get(run.id);
      const r = source.getState().runs[run.id];
      if (!w || !r || r.step === 0 || r.step === w.ckStep || r.status === "error" || r.comparison) continue;
      // The history as the export starts: the weights belong to a run that still has it (a Reset, a rewind or a
      // run removed and made again replaces it; a restarted run may reach the file's step meanwhile).
      const seen = r.history;
      const sameRun = (h: readonly MetricPoint[]) => seen.length === 0 || h[seen.length - 1] === seen.at(-1);
      let bytes: Uint8Array;
      try {
        bytes = await o.exportCheckpoint(run.id);
      } catch (e) {
        // Removed while its export waited for the step in progress ("no run … with weights"): nothing to save,
        // and the other runs' checkpoints still are. Any other failure is the save's.
        if (!source.getState().spec.runs.some((x) => x.id === run.id)) continue;
        throw e;
      }
      // The step the weights are at (the file says; the worker may be a step or two past the page's last
      // point while playing): saved with that step's counters, so a reload resumes at the step they hold. A
      // step the page has not heard of yet is waited for a little (while playing, it came after the weights
      // were read at most times: the 30 s save was skipped, and the next one too), then left to the next save.
      let now = source.getState().runs[run.id];
      let last = now && checkpointPoint(bytes, now.history);
      const at = checkpointStep(bytes);
      const behind = (h: readonly MetricPoint[]) => at !== null && at > (h.at(-1)?.step ?? 0);
      while (now && !last && sameRun(now.history) && behind(now.history) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        now = source.getState().runs[run.id];
        last = now && checkpointPoint(bytes, now.history);
      }
      // Removed, reset or rewound meanwhile, or the page still behind the weights: left to the next save.
      if (!now || !last || !sameRun(now.history)) continue;
      // The history saved before the export may end before the checkpoint (the run's step landed meanwhile):
      // saved again first, so that storage never holds a checkpoint past its curve (a reload, or another tab
      // reading between the two writes, would resume there with a gap in the curve; a curve past the
      // checkpoint is cut at it).
      await saveRun(now);
      await persistence.saveCheckpoint(run.id, bytes, {
        step: last.step,
        samples: last.samples,
        tokens: last.tokens,
      });
      // On the record saveRun just wrote (a step that landed during the export made a new one): set on `w`,
      // the run read as never checkpointed and the 5 s tick saved it again every tick while playing.
      const record = written.get(run.id);
      if (record) record.ckStep = last.step;
    }
  };

  const flush = () => serial(flushNow);
  /** Checkpoint saves asked for and not yet done (a fork's or a paused step's, on a slow GPU seconds long). */
  let checkpointing = 0;
  const checkpoint = () => {
    checkpointing++;
    return serial(checkpointNow).finally(() => checkpointing--);
  };

  /**
   * A checkpoint is due at a 5 s tick when a run stepped but has none yet (a reload now would start it over),
   * or, while the lab is not playing (Step, or steps that landed after the pause), when a run stepped since its
   * last one.
   */
  const checkpointDue = () => {
    const s = source.getState();
    return s.spec.runs.some((r) => {
      const run = s.runs[r.id];
      const ck = written.get(r.id)?.ckStep ?? 0;
      if (!run || run.step === 0 || run.status === "error" || run.comparison || run.step === ck) return false;
      return ck === 0 || !s.playing;
    });
  };
  const historyTimer = setInterval(() => {
    if (o.exportCheckpoint && checkpointDue()) checkpoint();
    else flush();
  }, o.historyEveryMs ?? 5000);
  const checkpointTimer = setInterval(() => {
    if (source.getState().playing) checkpoint();
  }, o.checkpointEveryMs ?? 30000);
  /** A run's step landed while the lab is not playing (Step, or a step in flight at the pause). */
  const steppedWhilePaused = (s: PersistableState, prev: PersistableState) =>
    !s.playing && s.spec.runs.some((r) => (s.runs[r.id]?.step ?? 0) > (prev.runs[r.id]?.step ?? 0));
  // A settings change (a knob, a run added or removed) is saved at once, not at the next tick: the URL already
  // names it, and a reload must find the saved runs under the same settings (else they would not resume).
  let soon: ReturnType<typeof setTimeout> | null = null;
  const flushSoon = () => {
    if (soon) return;
    if (pending++ === 0) o.onBusy?.(true);
    soon = setTimeout(() => {
      soon = null;
      flush().finally(() => {
        if (--pending === 0) o.onBusy?.(false);
      });
    }, 0); // the next macrotask: changes made meanwhile join it
  };
  const unsubscribe = source.subscribe((s, prev) => {
    if ((prev.playing && !s.playing) || steppedWhilePaused(s, prev)) checkpoint();
    else if (s.spec !== prev.spec) flushSoon();
  });
  // The browser took the database away (site data cleared, deleted or upgraded by another page): never "saved"
  // from here until a write lands again; a write now reopens it and writes the runs, their curves and
  // checkpoints again (checkpointNow's flush writes everything: `written` is cleared above).
  const unLost = persistence.onLost((why) => {
    const line = why === "cleared" ? CLEARED_LINE : NEWER_LINE;
    if (why === "newer") reported.add(line); // its failing writes say no more
    failing = true;
    o.onFailed?.(line);
    o.onError?.(line); // stays in the notice when saving goes on (what was lost is said)
    if (o.exportCheckpoint) checkpoint();
    else flush();
  });
  const target = o.page ?? (typeof window !== "undefined" ? window : null);
  /**
   * Playing (or with saves failing, or a checkpoint still being saved: a fork's, a paused step's) with steps
   * past a run's last saved checkpoint: a reload now would bring the run back at that checkpoint (up to
   * checkpointEveryMs of training gone; a fork not yet saved starts over), so the page asks first (the browser's
   * own "Leave site?" prompt). Leaving for another experiment from the page pauses and saves first, so it is not
   * asked.
   */
  const unsavedSteps = () => {
    const s = source.getState();
    return (
      (s.playing || failing || checkpointing > 0) &&
      s.spec.runs.some((r) => {
        const run = s.runs[r.id];
        return (
          !!run && !run.comparison && run.status !== "error" && run.step > (written.get(r.id)?.ckStep ?? 0)
        );
      })
    );
  };
  const askFirst = (e: Event) => {
    if (unsavedSteps()) askBeforeUnload(e);
  };
  target?.addEventListener("beforeunload", askFirst);
  const onHide = (e: Event) => {
    // pagehide always means leaving (a closed tab may fire it while still "visible"); visibilitychange only hidden.
    if (e.type !== "pagehide" && typeof document !== "undefined" && document.visibilityState !== "hidden")
      return;
    flush();
    // The flush may not land before an unload: the steps reached, synchronously, for the reload's notice.
    const reachedIn = o.reachedStore ?? pageStorage();
    if (reachedIn) {
      const s = source.getState();
      const steps = Object.fromEntries(
        s.spec.runs.filter((r) => !s.runs[r.id]?.comparison).map((r) => [r.id, s.runs[r.id]?.step ?? 0]),
      );
      saveReached(reachedIn, s.spec, steps);
    }
  };
  target?.addEventListener("pagehide", onHide);
  target?.document?.addEventListener("visibilitychange", onHide);

  return {
    flush,
    checkpoint,
    stop() {
      clearInterval(historyTimer);
      clearInterval(checkpointTimer);
      if (soon) {
        clearTimeout(soon);
        soon = null;
        if (--pending === 0) o.onBusy?.(false);
      }
      unsubscribe();
      unLost();
      target?.removeEventListener("pagehide", onHide);
      target?.removeEventListener("beforeunload", askFirst);
      target?.document?.removeEventListener("visibilitychange", onHide);
      return queue;
    },
  };
}
