/**
 * The open lab's savers as the page uses them (./saving.ts startSaving makes them): what they need from the
 * worker side, and what they do.
 */
import type { Autosaver } from "../../lab/autosave";
import type { LabPersistence } from "../../lab/persist";
import type { PipelineModels } from "../../lab/protocol";

/** What saving needs from the worker side. */
export interface SavingDeps {
  exportCheckpoint?(runId: string): Promise<Uint8Array>;
  /** The Pipeline's models, to save them (absent: the Pipeline is not saved). */
  pipelineModels?(): Promise<PipelineModels | null>;
  /** Pause training (labActions.pause), so that the last checkpoints are the last steps. */
  pause?(): void;
}

/** The savers of an open lab. */
export interface Saving {
  persistence: LabPersistence;
  autosaver: Autosaver;
  pause(): void;
  /** Resolves once the Pipeline saves queued so far (a stage that just finished) have landed. */
  flushPipeline(): Promise<void>;
  /** Stop both savers; resolves once the writes already queued have landed. */
  stop(): Promise<void>;
  /** Start both again after `stop`. */
  restart(): void;
  /**
   * Make this tab the one that saves again after another took over, without a reload: the saving tab stops
   * and its last writes land, what it stored is kept under Recent experiments (unless this tab's state already
   * holds it), and this tab's whole state is written (./save_here.ts); then it saves as before. Does nothing
   * while this tab saves. Never throws: a failure is a notice line, and this tab still does not save.
   */
  saveHere(): Promise<void>;
  /** Stop listening to other tabs (the lab closes). */
  close(): void;
}
