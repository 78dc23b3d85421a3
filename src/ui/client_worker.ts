/**
 * Starting the training worker for ./client.ts: the worker itself, and what the page shows of its start.
 */
import * as Comlink from "comlink";
import type { ExperimentSpec, LabWorkerApi, PipelineModels, RunSpec, WorkerInfo } from "../lab/protocol";
import { lostRewardNotice } from "../lab/settings";
import { workerStopReason } from "../lab/worker_script";
import { usePipelineStore } from "./lab/pipeline_store";
import { useRewardModels } from "./lab/reward_models";
import { useLab } from "./lab_store";
import { useApp } from "./store";
import type { WorkerWatch } from "./worker_watch";

/**
 * Start src/lab/worker.ts. `died` rejects when its script fails to load or throws at top level (such a worker
 * never answers: the page says so instead of waiting), saying why in src/lab/worker_script.ts's words.
 */
export function spawnTrainingWorker() {
  const worker = new Worker(new URL("../lab/worker.ts", import.meta.url), {
    type: "module",
    name: "lab-training",
  });
  const died = new Promise<never>((_, reject) => {
    worker.addEventListener("error", (ev) => {
      ev.preventDefault();
      reject(new Error(`the training worker stopped: ${workerStopReason(ev)}`));
    });
  });
  return { worker, api: Comlink.wrap<LabWorkerApi>(worker), died };
}

/**
 * Show what the worker started (`info`) for `spec` (opened as `opened`): the model and its kernels; DPO runs
 * without a shipped dataset as online (`withDataMode`); runs on the Pipeline's reward model on gold when it
 * could not be restored (added to `lostRm`, the runs whose reward model is gone); the notices.
 */
export function showStarted(
  info: WorkerInfo,
  spec: ExperimentSpec,
  opened: ExperimentSpec,
  pipeline: PipelineModels | undefined,
  lostRm: string[],
  withDataMode: (r: RunSpec) => RunSpec,
): void {
  const s = useLab.getState();
  s.setModel(info.model, info.kernels);
  for (const r of spec.runs) {
    const online = withDataMode(r);
    if (online !== r) s.setRunConfig(r.id, online.config);
  }
  const pipelineLost = pipeline?.handed != null && !info.pipelineRestored;
  if (pipelineLost)
    for (const r of spec.runs)
      if (r.config.reward === "pipeline") {
        s.setRunConfig(r.id, { ...r.config, reward: "gold" });
        lostRm.push(r.label);
      }
  if (lostRm.length) info.notices.push(lostRewardNotice(opened, lostRm, pipelineLost));
  if (info.notices.length) s.setNotice(info.notices.join(" "));
}

/**
 * After a run's reward failed (it may be the user's model, stopped at a time limit): the page's "custom model"
 * follows the worker's, so the Load RM button stops saying a stopped model is loaded. `current`: this worker is
 * still the page's.
 */
export function refreshCustomModel(api: Comlink.Remote<LabWorkerApi>, current: () => boolean): void {
  Promise.resolve(api.customRewardModel())
    .then((info) => {
      if (current()) useRewardModels.getState().setCustom(info);
    })
    .catch(() => {}); // a worker gone meanwhile: the next start sets it
}

/** What the lab shows once its worker has gone silent (./worker_watch.ts). */
export const WORKER_SILENT =
  "the training worker stopped answering (it may have crashed, or run out of memory). Your runs are saved in " +
  "this browser up to their last saved checkpoint (taken every 30 s while training, and at each pause): reload " +
  "the page to go on from there.";

/** The top bar's "not saved" reason while the worker is silent. */
const SAVE_STOPPED = "the training worker stopped answering: what this browser saved before is kept";

/** Why the worker cannot be asked now (`phaseError`: the store's). */
export function notReady(phaseError: string | null): Error {
  return new Error(
    phaseError === WORKER_SILENT
      ? "the training worker stopped answering"
      : "the lab is not ready yet (the training worker is still loading or failed to start)",
  );
}

/** The page's answers to what the watch on the started worker sees; `current`: this worker is still the page's. */
export function workerWatch(current: () => boolean): WorkerWatch {
  return {
    onError: (m) => {
      if (current()) useApp.getState().reportError(`The training worker: ${m}`);
    },
    onSilent: () => {
      if (!current()) return;
      useLab.getState().setPhase("error", WORKER_SILENT);
      // A save waiting on the worker's checkpoint never ends: "not saved", not "saving…" for ever.
      useLab.getState().setSaveFailed(SAVE_STOPPED);
      // A Pipeline stage in training will not finish either (its call to the worker never settles).
      const pipe = usePipelineStore.getState();
      for (const stage of ["sft", "rm"] as const)
        if (pipe[stage].status === "running") pipe.fail(stage, "the training worker stopped answering");
    },
    // It was only busy: the lab is back as it was (the worker kept its runs, and trains on if it was playing).
    onBack: () => {
      if (!current()) return;
      const s = useLab.getState();
      if (s.phase !== "error" || s.phaseError !== WORKER_SILENT) return;
      s.setPhase("ready");
      if (s.saveFailed === SAVE_STOPPED) s.setSaveFailed(null);
      s.setNotice("The training worker answers again: it was busy for more than 30 s, and the lab goes on.");
    },
  };
}
