/**
 * What "Save here" writes once the saving tab has stopped (./saving_tabs.ts): the session the other tab stored
 * is kept under Recent experiments (src/lab/archive.ts) when this tab's state does not already hold it, as
 * opening another experiment keeps the one it replaces; then this tab's whole state — every run's settings,
 * curves and markers, a fresh checkpoint of every trained run, and the Pipeline's models — becomes the saved
 * session, in one transaction, so that a reload resumes every run where it is now.
 */

import { hasProgress, holds, type KeptEntry } from "../../lab/archive";
import { checkpointPoint } from "../../lab/checkpoint_point";
import { SETTINGS_REVISION } from "../../lab/default_changes";
import type {
  LabPersistence,
  SavedCheckpoint,
  SavedPipeline,
  SavedRun,
  SavedSession,
} from "../../lab/persist";
import type { PipelineModels } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { pipelineViewState, usePipelineStore } from "./pipeline_store";

/** What writing this tab's state needs from the worker side (./saving.ts SavingDeps). */
export interface SaveHereDeps {
  exportCheckpoint?(runId: string): Promise<Uint8Array>;
  pipelineModels?(): Promise<PipelineModels | null>;
}

/**
 * This tab's state as a saved session: every run's settings, status, curves and markers, and a fresh checkpoint
 * of each run that trained (not one imported for comparison; one in error only when its weights are sound),
 * exported first so that the curves reach it; its counters are the run's last point when the export returned,
 * as the autosaver's.
 * @throws what the worker's export throws.
 */
export async function sessionHere(deps: SaveHereDeps): Promise<SavedSession> {
  const checkpoints = new Map<string, SavedCheckpoint>();
  const before = useLab.getState();
  for (const { id } of before.spec.runs) {
    const r = before.runs[id];
    if (!deps.exportCheckpoint || !r || r.step === 0 || r.comparison) continue;
    // A run in error may hold sound weights (its reward model failed, say): keep them when they export; the
    // worker refuses non-finite ones, and then it has no checkpoint here (a reload starts it over).
    let bytes: Uint8Array;
    try {
      bytes = await deps.exportCheckpoint(id);
    } catch (e) {
      if (r.status === "error") continue;
      throw e;
    }
    // At the step the weights hold; the page not there yet (playing): its last point (a checkpoint one step
    // off beats none, which would start the run over).
    const history = useLab.getState().runs[id]?.history ?? [];
    const last = checkpointPoint(bytes, history) ?? history.at(-1);
    if (last)
      checkpoints.set(id, {
        runId: id,
        bytes,
        step: last.step,
        samples: last.samples,
        tokens: last.tokens,
        savedAt: Date.now(),
      });
  }
  const s = useLab.getState();
  const runs: SavedRun[] = [];
  for (const { id } of s.spec.runs) {
    const r = s.runs[id];
    if (!r) continue;
    runs.push({
      spec: r.spec,
      status: r.status,
      step: r.step,
      history: [...r.history],
      markers: [...r.markers],
      checkpoint: checkpoints.get(id) ?? null,
      ...(r.comparison && { comparison: true }),
      ...(r.untrained && { untrained: r.untrained }),
    });
  }
  // Written as this lab writes: at its settings revision (a reload must not read it as of unknown age).
  return { spec: s.spec, runs, revision: SETTINGS_REVISION };
}

/**
 * The Pipeline as its saver would save it now (./pipeline_saver.ts): null when no stage finished and nothing
 * was handed off, or when the Pipeline is not saved (no `pipelineModels`).
 * @throws what the worker's pipelineModels throws.
 */
export async function pipelineHere(deps: SaveHereDeps): Promise<SavedPipeline | null> {
  const view = pipelineViewState(usePipelineStore.getState());
  const empty = view.sft.status !== "done" && view.rm.status !== "done" && !view.handedOff;
  const models = empty || !deps.pipelineModels ? null : await deps.pipelineModels();
  return models ? { models, view, savedAt: Date.now() } : null;
}

/**
 * Make this tab's state the saved session (the caller has made sure no other tab writes): keep what is stored
 * now under Recent experiments when it holds progress this tab's state does not ({@link holds}), then replace
 * the saved session with this tab's ({@link sessionHere}, {@link pipelineHere}) in one transaction.
 * @returns the kept entry, or null when nothing needed keeping.
 * @throws what the export or IndexedDB throws (quota…); the stored session is then still the saved one (and
 *   kept too when keeping had landed).
 */
export async function writeHere(persistence: LabPersistence, deps: SaveHereDeps): Promise<KeptEntry | null> {
  const here = await sessionHere(deps);
  const herePipeline = await pipelineHere(deps);
  const stored = await persistence.load();
  const storedPipeline = await persistence.loadPipeline();
  const keep =
    stored !== null &&
    hasProgress(stored, storedPipeline) &&
    !holds(here, herePipeline, stored, storedPipeline);
  // Kept whatever it holds: Save here asks nothing first, and its tooltip says the other tab's training is kept.
  const kept = keep ? await persistence.archive.keep(stored, storedPipeline, Date.now(), true) : null;
  await persistence.replaceSession(here, herePipeline);
  return kept;
}
