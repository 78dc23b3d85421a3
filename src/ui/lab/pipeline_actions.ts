/**
 * The Pipeline view's commands: train a stage (the store follows every step the worker reports; while it
 * trains, leaving the page asks first: ./pipeline_guard.ts), stop it (its model so far is kept: the stage ends
 * as done at the step it reached) and hand the models to the runs. Failures land in the stage's state (shown on
 * its card) or the lab's notice; nothing here throws.
 */

import type { KeptEntry } from "../../lab/archive";
import { downloadBlob } from "../../lab/export/download";
import type { PipelineProgress, PipelineStage } from "../../lab/pipeline/fields";
import { AckThrottle } from "../../lab/throttle";
import { errorMessage as message } from "../../util/errors";
import { landsWithin } from "../../util/settle";
import { HANDED_OFF_LINE, labClient } from "../client";
import { trainedSteps, useLab } from "../lab_store";
import { labActions } from "./actions";
import { droppedText, keptRunsText } from "./experiment_names";
import { canKeepRuns, keepOpenExperiment } from "./keep_open";
import { experimentKey, guardTraining } from "./pipeline_guard";
import { trainingLine, trainingStage, usePipelineStore } from "./pipeline_store";
import { onBeforeLeaving } from "./saving";

/** The sentence of pipeline_guard.ts takeInterrupted's notice. */
const INTERRUPTED = /The Pipeline's [^.]*was interrupted [^.]*\./;

/**
 * How often the steps the worker reports reach the store (ms): a tiny model on a GPU steps ~100 times a second,
 * and a store update per step would redraw the stage's chart as often.
 */
export const PROGRESS_MS = 100;

/** The stage training now (its train() call), settled once it has ended. */
let training: Promise<void> | null = null;

export const pipelineActions = {
  /** Train `stage` with the view's settings; resolves once it has ended (done, stopped or failed). */
  train(stage: PipelineStage): Promise<void> {
    const p = usePipelineStore.getState();
    p.begin(stage);
    // A notice that a reload interrupted a stage is answered once one trains again.
    const notice = useLab.getState().notice;
    const rest = notice?.replace(INTERRUPTED, "").trim();
    if (notice && rest !== notice) useLab.getState().setNotice(rest || null);
    const steps = stage === "sft" ? p.settings.sftSteps : p.settings.rmSteps;
    const guard = guardTraining(
      stage,
      steps,
      experimentKey(useLab.getState().spec),
      p.settings,
      () => usePipelineStore.getState()[stage].status === "running",
    );
    let pending: PipelineProgress[] = [];
    const flush = () => {
      const ps = pending;
      pending = [];
      if (ps.length) usePipelineStore.getState().progress(ps);
    };
    const batches = new AckThrottle(PROGRESS_MS, flush, () => pending.length > 0);
    const run = (async () => {
      try {
        const result = await labActions.pipelineStage(stage, p.settings, (x) => {
          guard.step(x.step);
          pending.push(x);
          batches.request();
        });
        batches.cancel();
        flush();
        usePipelineStore.getState().finish(result);
      } catch (e) {
        batches.cancel();
        flush();
        usePipelineStore.getState().fail(stage, message(e));
      } finally {
        guard.end();
      }
    })();
    training = run;
    return run;
  },

  /**
   * Stop the stage in training after its step in progress: it ends as done at the step it reached, with the
   * model trained so far (stage 2 and Use in RL work with it). Resolves once it has ended, or after `waitMs`
   * (it goes on ending then). Does nothing when no stage trains. Never throws (a failure goes to the notice).
   */
  async stop(waitMs = Number.POSITIVE_INFINITY): Promise<void> {
    const run = training;
    const stage = trainingStage(usePipelineStore.getState());
    if (!run || !stage) return;
    usePipelineStore.getState().setStopping(stage);
    try {
      await labClient.stopPipelineStage();
    } catch (e) {
      usePipelineStore.getState().setStopping(null);
      useLab.getState().setNotice(`Stopping the Pipeline's training failed: ${message(e)}`);
      return;
    }
    await landsWithin(run, waitMs);
  },

  /** Download the stage-2 reward model as pipeline_rm.onnx. */
  async downloadRm(): Promise<void> {
    try {
      downloadBlob(await labActions.pipelineRmOnnx(), "pipeline_rm.onnx", "application/octet-stream");
    } catch (e) {
      useLab.getState().setNotice(`Downloading the Pipeline's reward model failed: ${message(e)}`);
    }
  },

  /**
   * Stage 3: the SFT model starts every run, the reward model is their reward ("pipeline"). The runs restart,
   * so when they trained and this page saves (canKeepRuns), the experiment as it was is kept under Recent
   * experiments first; when that fails (or keeps nothing: the saves did not land), nothing is handed over.
   * Without saving (no storage, another tab saves) the training is discarded, as the confirmation said.
   */
  async use(): Promise<void> {
    let kept: KeptEntry | null = null;
    if (trainedSteps(useLab.getState()) > 0 && canKeepRuns()) {
      let problem: string | null = null;
      try {
        kept = await keepOpenExperiment();
        if (!kept) problem = "the runs' latest steps were not saved";
      } catch (e) {
        problem = message(e);
      }
      if (problem) {
        useLab
          .getState()
          .setNotice(
            `The runs were not handed the Pipeline's models: keeping their training first failed (${problem}). Export the runs you want to keep, then try again.`,
          );
        return;
      }
    }
    try {
      const r = await labActions.handOffPipeline();
      usePipelineStore.getState().setHandedOff(r.model);
      useLab
        .getState()
        .setNotice(
          `${HANDED_OFF_LINE}${
            kept
              ? ` The runs' earlier training (${keptRunsText(kept)}) is kept: reopen it from Change… → Recent experiments.${droppedText(kept.dropped)}`
              : ""
          }`,
        );
    } catch (e) {
      useLab
        .getState()
        .setNotice(
          `Handing the Pipeline's models to the runs failed: ${message(e)}${kept ? " (a copy of this experiment was kept under Change… → Recent experiments first)" : ""}`,
        );
    }
  },
};

/** Most time a stage may take to end before the page leaves anyway (its step on a software GPU can be long). */
export const PIPELINE_STOP_MS = 60_000;

// Leaving for another experiment (a lesson, a pasted link, Change…) stops a stage in training first: it ends
// as done at the step it reached and is saved with the experiment it belongs to.
onBeforeLeaving(async () => {
  await pipelineActions.stop(PIPELINE_STOP_MS);
  return trainingLine(usePipelineStore.getState())
    ? "The Pipeline's training did not stop within a minute (its step is still on the device)"
    : null;
});
