/**
 * The two savers one tab runs while it saves (./saving.ts startSaving starts them, and again whenever saving
 * restarts or comes back to this tab): the autosaver (src/lab/autosave.ts: curves and checkpoints, its state
 * shown through the lab store) and the Pipeline saver (./pipeline_saver.ts; none when the Pipeline is not
 * saved). No state of its own.
 */
import { type Autosaver, startAutosave } from "../../lab/autosave";
import type { LabPersistence } from "../../lab/persist";
import { without } from "../client_notices";
import { useLab } from "../lab_store";
import { type PipelineSaver, startPipelineSaver } from "./pipeline_saver";
import type { SavingDeps } from "./saving_types";

/** The savers of one start: stopped together, started anew. */
export interface Savers {
  autosaver: Autosaver;
  pipeline: PipelineSaver;
}

const NO_PIPELINE_SAVER: PipelineSaver = { flush: async () => {}, stop: async () => {} };

/** Start the autosaver and (when `deps` can read the Pipeline's models) the Pipeline saver. */
export function startSavers(
  persistence: LabPersistence,
  deps: SavingDeps,
  onError: (line: string) => void,
): Savers {
  return {
    autosaver: startAutosave({
      persistence,
      source: useLab,
      exportCheckpoint: deps.exportCheckpoint,
      onError,
      onBusy: (busy) => useLab.getState().setSaving(busy),
      onFailed: (line) => useLab.getState().setSaveFailed(line),
      onRecovered: (lines) => useLab.getState().setNotice(without(useLab.getState().notice, lines)),
    }),
    pipeline: deps.pipelineModels
      ? startPipelineSaver(persistence, deps.pipelineModels, onError)
      : NO_PIPELINE_SAVER,
  };
}
