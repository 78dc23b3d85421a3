/**
 * Import a previously exported run: its run file (JSON: spec + history + markers) and, optionally, its
 * checkpoint (.safetensors, picked together with it).
 *
 * - With a checkpoint and a worker that can load it (deps.addRun + deps.loadRunCheckpoint): the run joins the
 *   experiment and continues training from its weights; its curves come with it.
 * - Otherwise it is a comparison run (RunState.comparison): its curves are drawn next to the others, but
 *   nothing trains it (the worker does not know it). It comes back after a reload as curves (the autosaver
 *   keeps them; ./session.ts restores them) and links leave it out (lab_store.ts sharedSpec).
 * The id is renamed when taken and the label marked "(imported)"; a run trained on another task, start model
 * or seed is flagged in the notice. Never throws: every outcome is a notice.
 */

import { importedSpec, parseRunFile } from "../../lab/export/run_file";
import type { RunCounters, RunSpec } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { modelName } from "./experiment_names";
import { freeColour } from "./palette";
import { usePipelineStore } from "./pipeline_store";
import { revealRunCard } from "./reveal";

/** What a file picker gives (File fits). */
export interface PickedFile {
  name: string;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface ImportDeps {
  /** The client's addRun: the store and the worker get the run. */
  addRun?(spec: RunSpec): Promise<void>;
  loadRunCheckpoint?(runId: string, bytes: Uint8Array, at: RunCounters): Promise<void>;
  /**
   * The client's removeRun (undoes addRun when the checkpoint does not load). Awaited: the comparison run that
   * replaces it takes the same id, so the removal must be over first.
   */
  removeRun?(runId: string): void | Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Import the picked files; returns (and shows) the notice saying what happened. */
export async function importRunFiles(files: readonly PickedFile[], deps: ImportDeps = {}): Promise<string> {
  const lab = () => useLab.getState();
  const say = (notice: string) => {
    lab().setNotice(notice);
    return notice;
  };
  const json = files.find((f) => /\.json$/i.test(f.name));
  const weights = files.find((f) => /\.safetensors$/i.test(f.name));
  if (!json)
    return say(
      "Import needs a run file (.json, from Export → Run (JSON)); pick its .safetensors too to keep training it.",
    );
  let text: string;
  try {
    text = await json.text();
  } catch (e) {
    return say(`${json.name} could not be read: ${message(e)}`);
  }
  const r = parseRunFile(text);
  if (!r.ok) return say(`${json.name} could not be imported: ${r.error}.`);
  // The file's colour was the exporting page's: take the lowest one the runs here leave free instead.
  const spec = { ...importedSpec(r.run, lab().spec.runs), colour: freeColour(lab().spec.runs) };
  const last = r.history.at(-1);
  const at: RunCounters = { step: last?.step ?? 0, samples: last?.samples ?? 0, tokens: last?.tokens ?? 0 };
  const notes: string[] = [];
  const here = lab().spec;
  // The model the runs start from: the experiment's, or the Pipeline's hand-off (which the reference and KL are).
  const start = usePipelineStore.getState().handedOff ?? null;
  const from = (model: string, handed: string | null) =>
    handed ? `the ${modelName(handed)}` : `model ${model}`;
  const other =
    r.experiment.task !== here.task ||
    r.experiment.model !== here.model ||
    r.experiment.seed !== here.seed ||
    (r.experiment.startModel ?? null) !== start;
  if (other)
    notes.push(
      `It was trained on ${r.experiment.task} (${from(r.experiment.model, r.experiment.startModel ?? null)}, seed ${r.experiment.seed}); ` +
        `this lab runs ${here.task} (${from(here.model, start)}, seed ${here.seed}): compare with care.`,
    );
  if (r.issues.length) notes.push(`Reset or dropped: ${r.issues.slice(0, 3).join("; ")}.`);
  const restored = {
    spec,
    status: "paused" as const,
    step: at.step,
    history: r.history,
    markers: r.markers,
    samples: [],
    error: null,
  };

  // PPO's separate value model is not in the checkpoint (a value head on the policy is).
  const separateCritic = spec.algo === "ppo" && spec.config.valueModel === "separate";
  if (weights && deps.addRun && deps.loadRunCheckpoint && !other) {
    try {
      const bytes = new Uint8Array(await weights.arrayBuffer());
      await deps.addRun(spec);
      lab().restoreRuns([{ ...restored, resuming: true, resumedAt: at.step }]);
      await deps.loadRunCheckpoint(spec.id, bytes, at);
      revealRunCard(spec.id);
      return say(
        [
          `Imported ${spec.label}: it continues from step ${at.step}, from its weights; its AdamW moments${separateCritic ? " (and its separate value model)" : ""} ` +
            "start afresh (a checkpoint holds the policy and state such as β or λ, not the optimizer), so " +
            "its next steps differ a little from the original run's.",
          ...notes,
        ].join(" "),
      );
    } catch (e) {
      notes.push(`Its checkpoint did not load (${message(e)}), so it is shown for comparison only.`);
      if (lab().runs[spec.id]) await (deps.removeRun ?? lab().removeRun)(spec.id);
    }
  } else if (weights) {
    notes.push(
      other ? "Its checkpoint was not loaded (another experiment)." : "Its checkpoint cannot be loaded here.",
    );
  }
  lab().upsertRun(spec);
  lab().restoreRuns([{ ...restored, comparison: true }]);
  revealRunCard(spec.id);
  return say(
    [
      `Added ${spec.label} with its ${r.history.length} steps of curves, for comparison: its curves are drawn, nothing trains it. ` +
        "This browser keeps it across reloads and under Recent experiments; shared links leave it out.",
      ...notes,
    ].join(" "),
  );
}
