/**
 * Keeps the Pipeline view in IndexedDB (src/lab/persist.ts SavedPipeline): whenever a stage finishes, a hand-off
 * happens, the settings change or the stages are cleared (a new experiment), its models (from the worker) and its
 * view are saved, or forgotten (a view with no finished stage and no hand-off keeps nothing: its settings live in
 * the link). Stages still running are not saved (a stopped stage is a finished one: it is). Failures go to
 * `onError`, and so does, when saving starts (the lab has opened), the notice for a stage that the reload
 * interrupted (./pipeline_guard.ts), whose settings then come back into the view. A view restored from a saved
 * one that could not be read whole (PipelineState.repaired) is written back when saving starts, with the models
 * stored with it, never without them (those of a stage shown as not trained too). Nothing here throws.
 */
import type { LabPersistence } from "../../lab/persist";
import { NotWriterError } from "../../lab/persist";
import type { PipelineModels } from "../../lab/protocol";
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { experimentKey, takeInterrupted } from "./pipeline_guard";
import { type PipelineState, pipelineViewState, trainingStage, usePipelineStore } from "./pipeline_store";

/**
 * What changes the saved Pipeline: the stages' outcomes and the hand-off (each one: a second hand-off with the
 * same description hands over new models), whether it is older than the stages, and the settings (kept with the
 * models, so a reopened experiment, or a reload whose link carries only defaults, gets the latest).
 */
export function savedKey(s: PipelineState): string {
  const stage = (st: PipelineState["sft"]) =>
    `${st.status}:${st.result?.steps ?? ""}:${st.result?.seconds ?? ""}`;
  return `${stage(s.sft)}|${stage(s.rm)}|${s.handedOff ?? ""}|${s.handOffs}|${s.handOffOld === true}|${JSON.stringify(s.settings)}`;
}

/** A running Pipeline saver. */
export interface PipelineSaver {
  /** Resolves once the saves queued so far have landed (or failed, reported to `onError`). */
  flush(): Promise<void>;
  /** Stop saving; resolves once a save in flight has landed. */
  stop(): Promise<void>;
}

/** Start saving; `onError` gets the lines for the lab's notice. */
export function startPipelineSaver(
  persistence: LabPersistence,
  models: () => Promise<PipelineModels | null>,
  onError: (line: string) => void,
): PipelineSaver {
  // (Not while a stage trains: savers that restart, after an Open that gave up, find that stage's marker.)
  if (!trainingStage(usePipelineStore.getState())) {
    const interrupted = takeInterrupted(experimentKey(useLab.getState().spec));
    if (interrupted) {
      if (interrupted.settings) usePipelineStore.getState().setSettings(interrupted.settings);
      onError(interrupted.line);
    }
  }
  let last = savedKey(usePipelineStore.getState());
  let chain = Promise.resolve();
  const empty = (s: PipelineState) => {
    const view = pipelineViewState(s);
    return view.sft.status !== "done" && view.rm.status !== "done" && !view.handedOff;
  };
  const save = async (s: PipelineState) => {
    const view = pipelineViewState(s);
    const m = empty(s) ? null : await models();
    await persistence.savePipeline(m ? { models: m, view } : null);
  };
  const queue = (s: PipelineState, write = save) => {
    chain = chain
      .then(() => write(s))
      .catch((e) => {
        // Another tab saves now (persist.ts claim): this tab's late save is dropped, said elsewhere. The browser
        // took the database away again (still being cleared): it is saved again when told (below).
        if (!(e instanceof NotWriterError) && persistence.lost === null)
          onError(`The Pipeline's models could not be saved in this browser (${message(e)}).`);
      });
  };
  const running = (s: PipelineState) => s.sft.status === "running" || s.rm.status === "running";
  // A saved view that could not be read whole is written back as shown, so that the next load reads it whole
  // instead of saying the same again, with the models storage holds (a save would forget them all when no stage
  // reads as done: the notice says they are kept). Nothing stored: nothing to write.
  const rewrite = async (s: PipelineState) => {
    const stored = await persistence.loadPipeline();
    if (stored?.models) await persistence.savePipeline({ models: stored.models, view: pipelineViewState(s) });
  };
  const opened = usePipelineStore.getState();
  if (opened.repaired === true && !running(opened)) {
    usePipelineStore.setState({ repaired: false });
    queue(usePipelineStore.getState(), rewrite);
  }
  const unsubscribe = usePipelineStore.subscribe((s) => {
    const key = savedKey(s);
    if (key === last || running(s)) return;
    last = key;
    queue(s);
  });
  // The browser emptied the database (site data cleared): the models are saved again (a stage training saves
  // when it ends).
  const unLost = persistence.onLost((why) => {
    const s = usePipelineStore.getState();
    if (why === "cleared" && !running(s) && !empty(s)) queue(s);
  });
  return {
    flush: () => chain,
    async stop() {
      unsubscribe();
      unLost();
      await chain;
    },
  };
}
