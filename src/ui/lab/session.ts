/**
 * Opening the lab with its memory: the experiment comes from the link (src/lab/url.ts), else from the
 * session saved in IndexedDB (src/lab/persist.ts), else the defaults; after the worker has started, the
 * saved runs of that experiment come back (curves, markers, and weights via loadRunCheckpoint); then the
 * autosaver (src/lab/autosave.ts) and the URL sync (./url_sync.ts) keep both up to date. The Pipeline view's
 * models come back with their session (./pipeline_saver.ts keeps them).
 * Every problem on the way (bad link, storage unavailable, a checkpoint that does not load) becomes a line
 * of the lab's notice; nothing here throws.
 */
import { type ArchiveEntry, savedStep } from "../../lab/archive";
import { type Autosaver, startAutosave } from "../../lab/autosave";
import { defaultExperiment } from "../../lab/defaults";
import {
  type LabPersistence,
  openLabPersistence,
  type SavedPipeline,
  type SavedSession,
} from "../../lab/persist";
import type { ExperimentSpec, PipelineModels, RunCounters } from "../../lab/protocol";
import { planRestore, sameExperiment } from "../../lab/restore";
import { checkSpec } from "../../lab/spec_check";
import { shareUrl, specFromLocation } from "../../lab/url";
import { useLab } from "../lab_store";
import { experimentTitle, keptRunsText } from "./experiment_names";
import { startPipelineSaver } from "./pipeline_saver";
import { type PipelineViewState, usePipelineStore } from "./pipeline_store";
import { reloadOnPastedLink, startUrlSync } from "./url_sync";

/** What opening needs from the worker side (labActions / labClient provide it). */
export interface SessionDeps {
  /** Start the worker on an experiment (with the saved Pipeline's models); then the phase is "ready" or "error". */
  start(spec: ExperimentSpec, pipeline?: PipelineModels): Promise<void>;
  /** The Pipeline's models, to save them (absent: the Pipeline is not saved). */
  pipelineModels?(): Promise<PipelineModels | null>;
  exportCheckpoint?(runId: string): Promise<Uint8Array>;
  loadRunCheckpoint?(runId: string, bytes: Uint8Array, at: RunCounters): Promise<void>;
  /** Tests: another database. Default: the lab's IndexedDB. */
  openPersistence?: () => Promise<LabPersistence>;
}

export interface LabSession {
  /** null when IndexedDB is unavailable (the notice said so). */
  autosaver: Autosaver | null;
  /** Stop saving and syncing the URL. */
  stop(): void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Add a line to the lab's notice (keeping what is there). */
function addNotice(line: string | null): void {
  if (!line) return;
  const now = useLab.getState().notice;
  if (now?.includes(line)) return;
  useLab.getState().setNotice(now ? `${now} ${line}` : line);
}

/**
 * Keep the saved session in Recent experiments when opening this experiment drops some of its trained runs
 * (`leftOut`, src/lab/restore.ts) or its Pipeline models; returns the line for the notice, null when there
 * was nothing to keep.
 */
async function keepReplaced(
  persistence: LabPersistence,
  saved: SavedSession,
  leftOut: SavedSession["runs"],
  savedPipeline: SavedPipeline | null,
  pipelineDropped: boolean,
): Promise<string | null> {
  const trained = leftOut.filter((r) => savedStep(r) > 0);
  if (trained.length === 0 && !(pipelineDropped && savedPipeline)) return null;
  try {
    const entry = await persistence.archive.keep(saved, savedPipeline);
    return (
      `The experiment open before (${experimentTitle(entry.spec)}: ${keptRunsText(entry)}) is kept: ` +
      "reopen it from Change… → Recent experiments."
    );
  } catch (e) {
    return `The experiment open before could not be kept (${message(e)}); export its runs before they are replaced.`;
  }
}

/** The open lab's savers (null until it started, or without storage): Recent experiments goes through them. */
let current: Saving | null = null;

/** The experiments kept in this browser, newest first ([] without storage). */
export async function recentExperiments(): Promise<ArchiveEntry[]> {
  return current ? current.persistence.archive.list() : [];
}

/** Forget a kept experiment. */
export async function forgetRecent(id: string): Promise<void> {
  await current?.persistence.archive.remove(id);
}

/** Save what changed and a checkpoint of every run that stepped since its last one; gives up after `waitMs`. */
async function saveLatest(saving: Saving, waitMs = 8000): Promise<void> {
  const done = (async () => {
    await saving.autosaver.flush();
    await saving.autosaver.checkpoint();
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((r) => {
    timer = setTimeout(r, waitMs);
  });
  await Promise.race([done.catch(() => {}), late]);
  clearTimeout(timer);
}

/**
 * Leave for another experiment's link (a lesson, the Change… dialog): save the open lab's latest curves and
 * checkpoints first (at most `waitMs`), so that the runs it replaces are kept at their last step (Recent
 * experiments), then open `url`. Never throws.
 */
export async function leaveFor(url: string, waitMs = 8000): Promise<void> {
  if (current) await saveLatest(current, waitMs);
  location.assign(url);
}

/**
 * Reopen a kept experiment: save the open one's latest curves and checkpoints, stop saving, swap the two in
 * storage (the open one is kept when it trained), then open the kept one's link: the page reloads into it
 * and its runs resume from their checkpoints.
 * @throws Error when storage is unavailable or the entry is gone; the open lab goes on saving then.
 */
export async function openRecent(id: string): Promise<void> {
  const saving = current;
  if (!saving) throw new Error("this browser's storage is unavailable");
  await saveLatest(saving);
  saving.stop();
  let spec: ExperimentSpec;
  try {
    spec = await saving.persistence.swapIn(id);
  } catch (e) {
    saving.restart();
    throw e;
  }
  const { xAxis, klEstimator, smoothing } = useLab.getState().view;
  location.assign(shareUrl(spec, { xAxis, klEstimator, smoothing }, location.href));
}

/** Open the experiment, start it, bring back saved runs, and keep saving. */
export async function openLab(deps: SessionDeps): Promise<LabSession> {
  const lab = () => useLab.getState();
  const stopWatching = reloadOnPastedLink();
  const opened = specFromLocation(globalThis.location, defaultExperiment);
  // A link names its experiment at once (the top bar would show the defaults while storage is read).
  if (opened.source === "url") {
    lab().setView(opened.view);
    lab().setSpec(opened.spec);
  }
  let persistence: LabPersistence | null = null;
  let saved: SavedSession | null = null;
  let savedPipeline: SavedPipeline | null = null;
  let storageProblem: string | null = null;
  try {
    persistence = await (deps.openPersistence ?? openLabPersistence)();
    saved = await persistence.load();
    savedPipeline = await persistence.loadPipeline();
  } catch (e) {
    storageProblem = `Runs will not survive a reload: this browser's storage is unavailable (${message(e)}).`;
  }
  let spec = opened.spec;
  const fromSaved = opened.source === "default" && opened.notice === null && saved !== null;
  if (fromSaved && saved) {
    // Saved by an older version of the lab, maybe: check it like a link.
    const issues: string[] = [];
    spec = checkSpec(saved.spec as unknown as Record<string, unknown>, issues);
    if (issues.length) storageProblem = `Some saved settings were reset: ${issues.slice(0, 3).join("; ")}.`;
  }
  lab().setView(opened.view);
  lab().setSpec(spec);
  lab().setNotice(opened.notice);
  // The Pipeline comes back with the experiment it belongs to (as the runs do); another one replaces both.
  const same = saved !== null && sameExperiment(spec, saved.spec);
  const pipeline = same && savedPipeline?.models.task === spec.task ? savedPipeline : null;
  await deps.start(spec, pipeline?.models);
  const ready = lab().phase === "ready";
  const plan = ready && saved ? planRestore(spec, saved, deps.loadRunCheckpoint !== undefined) : null;
  // Trained runs or Pipeline models this experiment replaces are kept (Recent experiments) before the
  // autosaver overwrites them. A lab that failed to start saves nothing, so it keeps nothing either.
  const keptNote =
    persistence && saved && plan
      ? await keepReplaced(persistence, saved, plan.leftOut, savedPipeline, pipeline === null)
      : null;
  if (pipeline && ready) usePipelineStore.getState().restore(pipeline.view as PipelineViewState);
  else if (savedPipeline && ready) await persistence?.savePipeline(null).catch(() => {});
  addNotice(opened.notice);
  addNotice(storageProblem);
  addNotice(keptNote);

  if (plan && saved) {
    // The runs as the worker started them (a reward model made in the page is not kept: those run on gold).
    const started = new Map(lab().spec.runs.map((r) => [r.id, r]));
    lab().restoreRuns(
      plan.runs.map((r) => ({ ...r, spec: started.get(r.spec.id) ?? r.spec, samples: [], error: null })),
    );
    for (const ck of plan.checkpoints) {
      try {
        await deps.loadRunCheckpoint?.(ck.runId, ck.bytes, ck.at);
      } catch (e) {
        const run = lab().runs[ck.runId];
        if (run) lab().restoreRuns([{ ...run, step: 0, history: [], markers: [], status: "ready" }]);
        addNotice(
          `${run?.spec.label ?? ck.runId} could not resume from its saved checkpoint (${message(e)}); it starts over.`,
        );
      }
    }
    addNotice(plan.notice);
  }

  // Save only a lab that started: a failed start must not overwrite the saved runs with empty ones.
  const saving = persistence && lab().phase === "ready" ? startSaving(persistence, deps) : null;
  current = saving;
  const stopUrl = startUrlSync();
  return {
    get autosaver() {
      return saving?.autosaver ?? null;
    },
    stop() {
      saving?.stop();
      if (current === saving) current = null;
      stopUrl();
      stopWatching();
    },
  };
}

/** The autosaver and the Pipeline saver of an open lab; `restart` starts both again after `stop`. */
interface Saving {
  persistence: LabPersistence;
  autosaver: Autosaver;
  stop(): void;
  restart(): void;
}

function startSaving(persistence: LabPersistence, deps: SessionDeps): Saving {
  const start = () => ({
    autosaver: startAutosave({
      persistence,
      source: useLab,
      exportCheckpoint: deps.exportCheckpoint,
      onError: addNotice,
    }),
    stopPipeline: deps.pipelineModels
      ? startPipelineSaver(persistence, deps.pipelineModels, addNotice)
      : () => {},
  });
  let on = start();
  return {
    persistence,
    get autosaver() {
      return on.autosaver;
    },
    stop() {
      on.autosaver.stop();
      on.stopPipeline();
    },
    restart() {
      on = start();
    },
  };
}
