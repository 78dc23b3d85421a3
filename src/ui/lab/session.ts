/**
 * Opening the lab with its memory: the experiment comes from the link (src/lab/url.ts), else from the
 * session saved in IndexedDB (src/lab/persist.ts), else the defaults; after the worker has started, the
 * saved runs of that experiment come back (curves, markers, and weights via loadRunCheckpoint); then the
 * autosaver (src/lab/autosave.ts) and the URL sync (./url_sync.ts) keep both up to date. The Pipeline view's
 * models come back with their session (./pipeline_saver.ts keeps them).
 * Every problem on the way (bad link, storage unavailable, a checkpoint that does not load) becomes a line
 * of the lab's notice; nothing here throws.
 */
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
import { specFromLocation } from "../../lab/url";
import { useLab } from "../lab_store";
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

/** Open the experiment, start it, bring back saved runs, and keep saving. */
export async function openLab(deps: SessionDeps): Promise<LabSession> {
  const lab = () => useLab.getState();
  const stopWatching = reloadOnPastedLink();
  const opened = specFromLocation(globalThis.location, defaultExperiment);
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
  if (pipeline && lab().phase === "ready")
    usePipelineStore.getState().restore(pipeline.view as PipelineViewState);
  else if (savedPipeline) await persistence?.savePipeline(null).catch(() => {});
  addNotice(opened.notice);
  addNotice(storageProblem);

  if (lab().phase === "ready" && saved) {
    const plan = planRestore(spec, saved, deps.loadRunCheckpoint !== undefined);
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
  const autosaver =
    persistence && lab().phase === "ready"
      ? startAutosave({
          persistence,
          source: useLab,
          exportCheckpoint: deps.exportCheckpoint,
          onError: addNotice,
        })
      : null;
  const stopPipeline =
    persistence && lab().phase === "ready" && deps.pipelineModels
      ? startPipelineSaver(persistence, deps.pipelineModels, addNotice)
      : () => {};
  const stopUrl = startUrlSync();
  return {
    autosaver,
    stop() {
      autosaver?.stop();
      stopPipeline();
      stopUrl();
      stopWatching();
    },
  };
}
