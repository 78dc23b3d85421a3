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

import { revisionNote } from "../../lab/default_changes";
import { type CheckpointMeta, pairCheckpoints } from "../../lab/export/import_match";
import { type ImportResult, importedSpec, parseRunFile } from "../../lab/export/run_file";
import type { ExperimentSpec, RunCounters, RunSpec } from "../../lab/protocol";
import { issueText } from "../../lab/spec_check";
import { NOTICE_ISSUES } from "../../lab/url";
import { readSafetensorsHeader } from "../../model/safetensors";
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { MODEL_NAMES, modelName } from "./experiment_names";
import { freeColour, MAX_SHOWN_RUNS, RUN_COLOURS } from "./palette";
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
  addRun?(spec: RunSpec, held?: boolean): Promise<void>;
  /** Resolves with what the page should be told of the resumed run (a string), or anything else for nothing. */
  loadRunCheckpoint?(runId: string, bytes: Uint8Array, at: RunCounters): Promise<unknown>;
  /**
   * The client's removeRun (undoes addRun when the checkpoint does not load). Awaited: the comparison run that
   * replaces it takes the same id, so the removal must be over first.
   */
  removeRun?(runId: string): void | Promise<void>;
}

/** A picked checkpoint, read: its bytes and metadata, or why it could not be read. */
interface PickedCheckpoint {
  file: PickedFile;
  bytes: Uint8Array | null;
  meta: CheckpointMeta | null;
  error: string | null;
}

async function readCheckpoint(file: PickedFile): Promise<PickedCheckpoint> {
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return { file, bytes, meta: readSafetensorsHeader(bytes).metadata, error: null };
  } catch (e) {
    return { file, bytes: null, meta: null, error: message(e) };
  }
}

/** What sets a run file's experiment apart from this lab's: "another seed", "another task and start model". */
function differs(
  file: Pick<ExperimentSpec, "task" | "model" | "seed"> & { startModel?: string | null },
  here: Pick<ExperimentSpec, "task" | "model" | "seed">,
  start: string | null,
): string {
  const parts = [
    file.task !== here.task && "task",
    (file.model !== here.model || (file.startModel ?? null) !== start) && "start model",
    file.seed !== here.seed &&
      !(file.model === "sft" && !file.startModel) &&
      (file.startModel
        ? "seed: the Pipeline's model was trained from a preset initialised from the seed"
        : "seed: a preset start model is initialised from the seed"),
  ].filter((x): x is string => !!x);
  if (!parts.length) return "its file does not say which";
  return `another ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`}`;
}

/** What happens to a comparison run; said once for several (KEPT_MANY) rather than once per run. */
const KEPT_ONE =
  "This browser keeps it across reloads and under Recent experiments; shared links leave it out.";
const KEPT_MANY =
  "This browser keeps the comparison runs across reloads and under Recent experiments; shared links leave them out.";

/** The notices of several imported runs, the sentence on comparison runs said once at the end. */
function joinNotices(notices: readonly string[]): string {
  const kept = notices.filter((n) => n.includes(KEPT_ONE)).length;
  if (kept < 2) return notices.join(" ");
  return [...notices.map((n) => n.replace(` ${KEPT_ONE}`, "").replace(KEPT_ONE, "")), KEPT_MANY].join(" ");
}

/** Where an .onnx file picked in Import goes instead. */
const ONNX_NOTE = (names: string) =>
  `${names}: a reward model in .onnx loads with Load RM (top bar); a policy's .onnx is an export for other tools.`;

/**
 * Import the picked files; returns (and shows) the notice saying what happened. Several run files import as
 * several runs; each takes the checkpoint whose metadata names it (import_match.ts), and a checkpoint that
 * names none of them is not loaded.
 */
export async function importRunFiles(files: readonly PickedFile[], deps: ImportDeps = {}): Promise<string> {
  try {
    return await importPicked(files, deps);
  } catch (e) {
    // A file this code did not foresee: said, not thrown (the caller's button would show a generic error).
    const notice = `Import failed: ${message(e)}.`;
    useLab.getState().setNotice(notice);
    return notice;
  }
}

async function importPicked(files: readonly PickedFile[], deps: ImportDeps): Promise<string> {
  const say = (notice: string) => {
    useLab.getState().setNotice(notice);
    return notice;
  };
  const jsons = files.filter((f) => /\.json$/i.test(f.name));
  if (!jsons.length) {
    const onnx = files.filter((f) => /\.onnx$/i.test(f.name)).map((f) => f.name);
    return say(
      `Import needs a run file (.json, from Export → Run (JSON)); pick its .safetensors too to keep training it.${onnx.length ? ` ${ONNX_NOTE(onnx.join(", "))}` : ""}`,
    );
  }
  const notices: string[] = [];
  const runs: { file: PickedFile; r: Extract<ImportResult, { ok: true }> }[] = [];
  for (const json of jsons) {
    let text: string;
    try {
      text = await json.text();
    } catch (e) {
      notices.push(`${json.name} could not be read: ${message(e)}.`);
      continue;
    }
    const r = parseRunFile(text);
    if (r.ok) runs.push({ file: json, r });
    else notices.push(`${json.name} could not be imported: ${r.error}.`);
  }
  const checkpoints = await Promise.all(
    files.filter((f) => /\.safetensors$/i.test(f.name)).map(readCheckpoint),
  );
  const pairs = pairCheckpoints(
    // A checkpoint names the seed its run trained with (its own, else the experiment's: src/lab/worker.ts).
    runs.map(({ r }) => ({
      ...r.run,
      step: r.step,
      task: r.experiment.task,
      seed: r.run.seed ?? r.experiment.seed,
    })),
    checkpoints.map((c) => c.meta),
  );
  for (const [i, { r }] of runs.entries()) {
    const { index, problem } = pairs[i];
    const picked = index === null ? null : checkpoints[index];
    notices.push(await importOne(r, picked, problem, checkpoints.length === 0, deps));
  }
  // Files Import does not take are named, with where they go (a silent skip read as "imported").
  for (const f of files.filter((x) => !/\.(json|safetensors)$/i.test(x.name)))
    notices.push(
      /\.onnx$/i.test(f.name)
        ? `${f.name} was not imported: Import takes a run's .json and .safetensors. ${ONNX_NOTE(f.name)}`
        : `${f.name} was not imported: Import takes a run's .json (Export → Run (JSON)) and its .safetensors.`,
    );
  const paired = new Set(pairs.map((p) => p.index));
  for (const [i, c] of checkpoints.entries()) {
    if (paired.has(i)) continue;
    if (c.error) notices.push(`${c.file.name} could not be read as a safetensors checkpoint (${c.error}).`);
    else if (!(runs.length === 1 && checkpoints.length === 1))
      notices.push(`${c.file.name} is the checkpoint of none of the picked run files, so it was not loaded.`);
  }
  return say(joinNotices(notices));
}

/**
 * Import one parsed run file, with its checkpoint when one was paired with it; returns its notice.
 * `noCheckpoints`: no .safetensors was picked at all (the notice then says how to keep training it).
 */
async function importOne(
  r: Extract<ImportResult, { ok: true }>,
  checkpoint: PickedCheckpoint | null,
  problem: string | null,
  noCheckpoints: boolean,
  deps: ImportDeps,
): Promise<string> {
  const lab = () => useLab.getState();
  // Every run shown must differ from every other in colour or line style: two looks per colour.
  if (Object.keys(lab().runs).length >= MAX_SHOWN_RUNS)
    return `${r.run.label} was not imported: the lab shows at most ${MAX_SHOWN_RUNS} runs side by side (its ${RUN_COLOURS} colours, solid and dotted), so remove one first.`;
  // The file's colour was the exporting page's: take the lowest one the runs here leave free instead.
  // The seed it trained with: its own (run.seed), else its experiment's. Another than this lab's: its label
  // says which ("PPO (imported, seed 0)").
  const trainSeed = r.run.seed ?? r.experiment.seed;
  const otherSeed = r.knownExperiment && trainSeed !== lab().spec.seed ? trainSeed : undefined;
  const imported = {
    ...importedSpec(r.run, lab().spec.runs, otherSeed),
    colour: freeColour(lab().spec.runs),
  };
  const last = r.history.at(-1);
  const at: RunCounters = { step: last?.step ?? 0, samples: last?.samples ?? 0, tokens: last?.tokens ?? 0 };
  const notes: string[] = [];
  const here = lab().spec;
  // The model the runs start from: the experiment's, or the Pipeline's hand-off (which the reference and KL are).
  const start = usePipelineStore.getState().handedOff ?? null;
  const from = (model: ExperimentSpec["model"], handed: string | null) =>
    handed ? `the ${modelName(handed)}` : (MODEL_NAMES[model] ?? `model ${model}`);
  // Its start model (and reference) is this lab's when task, model and Pipeline hand-off match and either the
  // experiment seeds match or the start does not depend on the seed (the shipped SFT model without a hand-off); a
  // preset model is a fresh init from its experiment's seed, and the Pipeline's models are trained from one
  // (src/lab/pipeline.ts: its stage 1 starts from a preset of the experiment's seed). It then trains on here on
  // its own training seed.
  const seedFree = r.experiment.model === "sft" && r.experiment.startModel === undefined;
  const other =
    !r.knownExperiment ||
    r.experiment.task !== here.task ||
    r.experiment.model !== here.model ||
    (r.experiment.seed !== here.seed && !seedFree) ||
    (r.experiment.startModel ?? null) !== start;
  // Training here: its seed travels with it (its experiment's, made its own, where this lab's is another).
  const spec = !other && trainSeed !== here.seed ? { ...imported, seed: trainSeed } : imported;
  // Where it trained, when the file says it in terms this lab knows; its curves are still worth comparing.
  const unknown = r.issues
    .filter((i) => i.startsWith("experiment."))
    .map((i) => issueText(i.replace(/; using .*$/, "")));
  if (!r.knownExperiment)
    notes.push(
      `Its file does not say where it trained in terms this lab knows (${unknown.join("; ")}): compare with care.`,
    );
  else if (other)
    notes.push(
      `It was trained on ${r.experiment.task} (${from(r.experiment.model, r.experiment.startModel ?? null)}, seed ${r.experiment.seed}); ` +
        `this lab runs ${here.task} (${from(here.model, start)}, seed ${here.seed}): compare with care.`,
    );
  const rest = r.issues.filter((i) => !i.startsWith("experiment."));
  // Written before the settings revision was kept: where a default changed since may matter, it says so (a run
  // that goes on training only: a comparison's curves are what they were).
  const trains = Boolean(checkpoint?.bytes && deps.addRun && deps.loadRunCheckpoint && !other);
  const older =
    trains && r.written ? revisionNote([{ ...r.written, label: spec.label }], r.revision, "Its file") : null;
  if (older) notes.push(older);
  if (rest.length)
    notes.push(
      `Read from its file with repairs: ${rest.slice(0, NOTICE_ISSUES).map(issueText).join("; ")}${rest.length > NOTICE_ISSUES ? `; and ${rest.length - NOTICE_ISSUES} more` : ""}.`,
    );
  const restored = {
    spec,
    status: "paused" as const,
    step: at.step,
    history: r.history,
    // Its markers are stamped with the file's run id: they belong to the id the run gets here.
    markers: r.markers.map((m) => ({ ...m, runId: spec.id })),
    samples: [],
    error: null,
  };

  // PPO's separate value model comes back from the file's value_model.* tensors (files from before they were
  // written lack them: the run's value model then starts from the start model), without its AdamW moments.
  const separateCritic = spec.algo === "ppo" && spec.config.valueModel === "separate";
  const criticInFile = separateCritic && checkpoint?.bytes ? holdsValueModel(checkpoint.bytes) : false;
  if (trains && checkpoint?.bytes && deps.addRun && deps.loadRunCheckpoint) {
    try {
      // Held: not stepped (the lab may be playing) until its checkpoint is in; a step from the start model first
      // would land in its restored curve.
      await deps.addRun(spec, true);
      lab().restoreRuns([{ ...restored, resuming: true, resumedAt: at.step }]);
      const told = await deps.loadRunCheckpoint(spec.id, checkpoint.bytes, at);
      if (typeof told === "string") notes.push(told);
      revealRunCard(spec.id);
      return [
        `Imported ${spec.label}: it continues from step ${at.step}, from its weights${criticInFile ? " and its separate value model's" : ""}; its AdamW moments${criticInFile ? " (both models')" : separateCritic ? " (and its separate value model, which this file does not hold)" : ""} ` +
          "start afresh (a checkpoint holds the weights and run state such as an adaptive β or Safe RLHF's λ, not the optimizer), so " +
          "its next steps differ a little from the original run's.",
        ...notes,
      ].join(" ");
    } catch (e) {
      notes.push(`Its checkpoint did not load (${message(e)}), so it is shown for comparison only.`);
      if (lab().runs[spec.id]) await (deps.removeRun ?? lab().removeRun)(spec.id);
    }
  } else if (checkpoint) {
    notes.push(
      other
        ? `Its checkpoint was not loaded: it trained in another experiment (${differs(r.experiment, here, start)}), and training it on here would join two experiments' steps in one curve.`
        : "Its checkpoint cannot be loaded here.",
    );
  } else if (problem) {
    notes.push(`Its checkpoint was not loaded: ${problem}.`);
  } else if (noCheckpoints && !other) {
    notes.push(
      "No checkpoint came with it: import its .json and .safetensors together (Export → Checkpoint (safetensors)) to keep training it.",
    );
  }
  lab().upsertRun(spec);
  // Its file's task, seed and provenance go with it: its exports say them, not this lab's (lab/export/origin.ts).
  lab().restoreRuns([{ ...restored, comparison: true, origin: r.origin }]);
  revealRunCard(spec.id);
  return [
    `Added ${spec.label} with its ${r.history.length} step${r.history.length === 1 ? "" : "s"} of curves, for comparison: its curves are drawn, nothing trains it. ` +
      KEPT_ONE,
    ...notes,
  ].join(" ");
}

/** Whether a run's safetensors hold a separate value model (value_model.* tensors); false for a file it cannot read. */
function holdsValueModel(bytes: Uint8Array): boolean {
  try {
    return readSafetensorsHeader(bytes).entries.some((e) => e.name === "value_model.wte.weight");
  } catch {
    return false;
  }
}
