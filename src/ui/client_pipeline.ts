/**
 * The Pipeline view's commands of the training worker, as src/ui/client.ts's LabClient offers them (each of its
 * methods calls one of these with the started worker's api); the lab store changes in step with the worker:
 *   pipelineStage(stage, settings, onProgress)  train the Pipeline view's stage "sft" or "rm" (pauses the lab).
 *   stopPipelineStage()      stop that stage after its step in progress: pipelineStage resolves with the model
 *                            trained so far (result.steps < result.planned). Resolves with the stage, or null.
 *   handOffPipeline()        stage 3: the Pipeline's models become the runs' start model and reward ("pipeline");
 *                            the runs restart (store: progress cleared, reward "pipeline", model described).
 *   pipelineRmOnnx()         the Pipeline's reward model as an .onnx file (bytes).
 *   pipelineModels()         the Pipeline's models as arrays (the session saves them), or null.
 * No state of its own.
 */
import * as Comlink from "comlink";
import type {
  LabWorkerApi,
  PipelineModels,
  PipelineProgress,
  PipelineSettings,
  PipelineStage,
  PipelineStageResult,
} from "../lab/protocol";
import { withStagePaused } from "./client_notices";
import { useLab } from "./lab_store";

type Api = Comlink.Remote<LabWorkerApi>;

/** Train the Pipeline's stage "sft" or "rm"; the lab pauses first (its notice says so). */
export function trainStage(
  api: Api,
  stage: PipelineStage,
  settings: Partial<PipelineSettings>,
  onProgress: (p: PipelineProgress) => void,
): Promise<PipelineStageResult> {
  const s = useLab.getState();
  if (s.playing) {
    s.setPlaying(false);
    s.setNotice(withStagePaused(useLab.getState().notice));
  }
  return api.pipelineStage(stage, settings, Comlink.proxy(onProgress));
}

/** Stop the Pipeline stage in training after its step in progress (null: none trains, or no worker). */
export async function stopStage(api: Api | null): Promise<PipelineStage | null> {
  return api ? api.stopPipelineStage() : null;
}

/** Stage 3: the Pipeline's models become the runs' start model and reward; the runs restart. */
export async function handOff(api: Api): Promise<{ model: string; runs: string[] }> {
  const r = await api.handOffPipeline();
  const s = useLab.getState();
  s.setPlaying(false);
  s.clearProgress();
  for (const id of r.runs) s.setRunConfig(id, { reward: "pipeline" });
  s.setModel(r.model);
  return r;
}

/** The Pipeline's reward model as an .onnx file (bytes). */
export function rmOnnx(api: Api): Promise<Uint8Array> {
  return api.pipelineRmOnnx();
}

/** The Pipeline's models as arrays (the session saves them), or null. */
export function models(api: Api): Promise<PipelineModels | null> {
  return api.pipelineModels();
}
