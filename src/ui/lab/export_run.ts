/**
 * The export menu's actions: a run of the lab store as a file download — metrics (CSV, JSON), config (JSON),
 * checkpoint (safetensors, from the worker), the policy as ONNX (from the worker), TRL script (Python), and every
 * run's metrics in one long-format CSV. File names say what and when (../../lab/export/file_names.ts):
 * "<label>-<task>-seed<seed>-step<N>.<ext>". A run imported for comparison is exported with its own file's task,
 * seed and provenance (src/lab/export/origin.ts), not this lab's. A failure lands in the lab's notice.
 */
import { checkpointStep } from "../../lab/checkpoint_point";
import { allRunsCsv } from "../../lab/export/all_runs";
import { runConfigJson } from "../../lab/export/config";
import { downloadBlob, MIME } from "../../lab/export/download";
import { allRunsFileName, runFileBase } from "../../lab/export/file_names";
import { metricsCsv } from "../../lab/export/metrics";
import { runWhere } from "../../lab/export/origin";
import { runFileJson } from "../../lab/export/run_file";
import { slug, trlScript } from "../../lab/export/trl_script";
import { errorMessage } from "../../util/errors";
import { useLab } from "../lab_store";
import { usePipelineStore } from "./pipeline_store";

export type ExportKind = "csv" | "json" | "config" | "checkpoint" | "onnx" | "trl" | "all";

/** What each export is called in the menu. */
export const EXPORTS: readonly { kind: ExportKind; label: string; hint: string }[] = [
  {
    kind: "csv",
    label: "Metrics (CSV)",
    hint: "step, samples, tokens and every TRL metric, one row per step; last, the settings changed there",
  },
  { kind: "json", label: "Run (JSON)", hint: "settings, metric history and markers; Import reads it back" },
  {
    kind: "config",
    label: "Config (JSON)",
    hint: "algorithm, every setting with defaults, task, model, seed",
  },
  {
    kind: "checkpoint",
    label: "Checkpoint (safetensors)",
    hint: "the policy's current weights (and PPO's separate value model), to import or load elsewhere",
  },
  {
    kind: "onnx",
    label: "Policy (ONNX)",
    hint: "input_ids, attention_mask → next-token logits; runs in onnxruntime",
  },
  {
    kind: "trl",
    label: "TRL script (Python)",
    hint: "the same run with TRL on a GPU: settings, reward, trainer",
  },
  {
    kind: "all",
    label: "Export all runs (CSV)",
    hint: "every run in one file, long format: run, label, algorithm, seed, task, then this CSV's columns",
  },
];

/** The worker's exports (labActions.exportCheckpoint, labActions.exportPolicyOnnx). */
export interface WorkerExports {
  exportCheckpoint(runId: string): Promise<Uint8Array>;
  exportPolicyOnnx(runId: string): Promise<Uint8Array>;
}

/** Export a run. */
export async function exportRun(runId: string, kind: ExportKind, worker: WorkerExports): Promise<void> {
  const { spec, runs, setNotice } = useLab.getState();
  const run = runs[runId];
  if (!run) return;
  const where = runWhere(run, spec);
  const named = (step: number) => runFileBase(run.spec.label, where.task, where.seed, step);
  const base = named(run.step);
  try {
    switch (kind) {
      case "csv":
        return downloadBlob(metricsCsv(run.history, run.markers), `${base}.csv`, MIME.csv);
      case "json":
        return downloadBlob(
          runFileJson(spec, run, new Date(), usePipelineStore.getState().handedOff),
          `${base}.run.json`,
          MIME.json,
        );
      case "config":
        return downloadBlob(
          runConfigJson(
            spec,
            run.spec,
            usePipelineStore.getState().handedOff,
            run.untrained,
            run.markers,
            run.comparison ? (run.origin ?? {}) : undefined,
          ),
          `${base}.config.json`,
          MIME.json,
        );
      case "checkpoint": {
        // Named by the step its weights are at (the worker may be a step past the page while playing; a lost
        // device's recovery, waited for, may have taken the run back to its last checkpoint).
        const bytes = await worker.exportCheckpoint(runId);
        const at = checkpointStep(bytes) ?? run.step;
        downloadBlob(bytes, `${named(at)}.safetensors`, MIME.safetensors);
        if (at < run.step)
          setNotice(
            `${run.spec.label}'s checkpoint holds step ${at}, not ${run.step}: the run went back to its last checkpoint meanwhile (the GPU device was lost, or Back to its last checkpoint).`,
          );
        return;
      }
      case "onnx":
        return downloadBlob(await worker.exportPolicyOnnx(runId), `${base}.onnx`, MIME.onnx);
      case "all": {
        // The runs in the lab's order (imported comparison runs too, with their own task and seed).
        const all = spec.runs.map((r) => runs[r.id]).filter((r) => r !== undefined);
        const rows = all.map((r) => ({
          ...r.spec,
          ...runWhere(r, spec),
          history: r.history,
          markers: r.markers,
        }));
        const furthest = Math.max(0, ...all.map((r) => r.step));
        return downloadBlob(allRunsCsv(rows), allRunsFileName(spec.task, spec.seed, furthest), MIME.csv);
      }
      case "trl":
        return downloadBlob(
          trlScript(spec, {
            ...run,
            handedOff: usePipelineStore.getState().handedOff,
            untrained: run.untrained,
          }),
          `${slug(run.spec.label)}_trl.py`,
          MIME.python,
        );
    }
  } catch (e) {
    setNotice(`Exporting ${run.spec.label} failed: ${errorMessage(e)}`);
  }
}
