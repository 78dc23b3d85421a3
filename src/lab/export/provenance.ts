/**
 * What makes an export citable: the lab that wrote it (version, git commit: ../build_info.ts), the settings
 * revision its values are read under (../default_changes.ts), when it was written, and which shipped model files
 * the run used, by path and SHA-256 (from the build's models/manifest.json), since a file can change under the
 * same name ("proxy RM ebac38da → e82316e5"). Written into config.json and run.json; import ignores it, so files
 * from before it (without these fields) read as ever.
 */
import { LAB_BUILD, type LabBuild } from "../build_info";
import { SETTINGS_REVISION } from "../default_changes";
import type { RunSpec } from "../protocol";
import { rewardOf } from "../settings";
import type { ExperimentRef } from "./run_file";

/** A shipped model file a run used: its path under the site and its SHA-256 (null: not in this build's manifest). */
export interface ModelFile {
  path: string;
  sha256: string | null;
}

export interface Provenance {
  lab: { version: string; commit: string };
  settingsRevision: number;
  /** ISO 8601 time of the export. */
  exportedAt: string;
  /**
   * The shipped files behind the start model and the reward; null where the run used none (a fresh GPT or the
   * Pipeline's model to start from; the gold scorer, a loaded or the Pipeline's reward model).
   */
  models: { start: ModelFile | null; reward: ModelFile | null };
}

const shipped = (path: string, build: LabBuild): ModelFile => ({ path, sha256: build.models[path] ?? null });

/** The provenance of `run` in `experiment` exported at `now`; `handedOff`: the Pipeline's start model, if any. */
export function provenance(
  experiment: ExperimentRef,
  run: RunSpec,
  now: Date,
  handedOff?: string | null,
  build: LabBuild = LAB_BUILD,
): Provenance {
  const start =
    experiment.model === "sft" && !handedOff
      ? shipped(`models/${experiment.task}/sft.safetensors`, build)
      : null;
  const reward =
    rewardOf(run.config) === "proxy" ? shipped(`models/${experiment.task}/rm.onnx`, build) : null;
  return {
    lab: { version: build.version, commit: build.commit },
    settingsRevision: SETTINGS_REVISION,
    exportedAt: now.toISOString(),
    models: { start, reward },
  };
}
