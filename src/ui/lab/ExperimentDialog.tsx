/**
 * "Change…" in the top bar: the task, the start model and the seed that every run shares. Applying starts a
 * new experiment — the same runs and settings restarted from step 0 on the new task, start model and seed
 * (src/lab/experiment_change.ts) — by opening its link, as a lesson or a shared link opens (the page reloads
 * into it), after saving the current runs' latest state so that they are kept (Recent experiments, listed
 * at the bottom). The dialog lists what does not carry over. A Pipeline stage in training is stopped first
 * (its model so far is kept with the Pipeline's others: src/ui/lab/pipeline_actions.ts stop), as the dialog
 * says. A modal native <dialog>: Esc or a click beside it cancels.
 */
import { useId, useMemo, useRef, useState } from "react";
import { keepsCurves } from "../../lab/archive";
import { type ChangedExperiment, changeExperiment, startModelProblem } from "../../lab/experiment_change";
import type { ExperimentSpec } from "../../lab/protocol";
import { EXPERIMENT_FIELDS } from "../../lab/settings";
import { shareUrl } from "../../lab/url";
import { sharedSpec, trainedSteps, useLab } from "../lab_store";
import { useModalDialog } from "../use_modal_dialog";
import { MODEL_NAMES, TASK_DOCS, TASK_NAMES } from "./experiment_names";
import { CloseIcon } from "./icons";
import { reopenedBy, reopensText } from "./keep_room";
import { leaveStopping } from "./leave_stopping";
import { stopFirstLine, trainingLine, usePipelineStore } from "./pipeline_store";
import { RecentExperiments } from "./RecentExperiments";
import { keptLine } from "./saving";
import { failingLine } from "./saving_lines";
import { tabWords } from "./tab_words";
import { pipelineKept, useKeptList, useRoom } from "./use_room";
import "./experiment.css";
import { errorMessage } from "../../util/errors";

const [TASK_FIELD, MODEL_FIELD, SEED_FIELD] = EXPERIMENT_FIELDS;
const TASKS: readonly ExperimentSpec["task"][] = TASK_FIELD.options;
const MODELS: readonly ExperimentSpec["model"][] = MODEL_FIELD.options;
/** The new experiment for the dialog's values, or why there is none (null, null: nothing changed). */
function planOf(
  spec: ExperimentSpec,
  task: ExperimentSpec["task"],
  model: ExperimentSpec["model"],
  seedText: string,
): { next: ChangedExperiment | null; problem: string | null } {
  // Digits only (the number input would take "1e3" or "1.5"); changeExperiment checks the range too.
  if (!/^\d{1,10}$/.test(seedText.trim()) || Number(seedText) > SEED_FIELD.max)
    return {
      next: null,
      problem: `The seed must be a whole number from 0 to ${SEED_FIELD.max.toLocaleString("en")}.`,
    };
  try {
    return { next: changeExperiment(spec, { task, model, seed: Number(seedText) }), problem: null };
  } catch (e) {
    return { next: null, problem: errorMessage(e) };
  }
}

export function ExperimentDialog({ onClose }: { onClose(): void }) {
  // Runs imported for comparison stay behind: a new experiment, like a link, carries settings only.
  const labSpec = useLab((s) => s.spec);
  const runs = useLab((s) => s.runs);
  const spec = useMemo(() => sharedSpec({ spec: labSpec, runs }), [labSpec, runs]);
  const view = useLab((s) => s.view);
  const steps = useLab(trainedSteps);
  const saves = useLab((s) => s.saving !== null);
  const saveFailed = useLab((s) => s.saveFailed);
  // The Pipeline's models belong to this experiment (src/ui/lab/session.ts drops them with it).
  const pipeline = usePipelineStore(pipelineKept);
  // Runs imported for comparison are kept with it (their curves), trained or not.
  const compared = useLab((s) => Object.values(s.runs).filter((r) => r.comparison && keepsCurves(r)).length);
  const handedOff = usePipelineStore((s) => s.handedOff !== null);
  const training = usePipelineStore(trainingLine);
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [task, setTask] = useState(spec.task);
  const [model, setModel] = useState(spec.model);
  const [seedText, setSeedText] = useState(String(spec.seed));
  useModalDialog(ref, onClose);

  // A start model that does not fit the new task falls back to the shipped one (always fits).
  const shownModel = startModelProblem(model, task) ? "sft" : model;
  const { next, problem } = planOf(spec, task, shownModel, seedText);
  const keeps = steps > 0 || compared > 0 || pipeline;
  // What keeping it would forget of a full list, or that it would not be kept (said before, not after).
  const room = useRoom(saves && keeps)(next?.spec ?? null);
  // A change to an experiment kept under Recent experiments reopens it where its runs stopped (session.ts).
  const kept = useKeptList(true);
  const reopens = next && kept ? reopenedBy(kept, next.spec) : undefined;
  const [leaving, setLeaving] = useState<"stopping" | "saving" | null>(null);
  const apply = async () => {
    if (!next || leaving) return;
    setLeaving("saving"); // from here on, one press: the check below may take a moment
    const view3 = { xAxis: view.xAxis, klEstimator: view.klEstimator, smoothing: view.smoothing };
    let left = false;
    try {
      // The Pipeline's settings go along (its stages stay with the experiment they trained in). A stage in
      // training stops first (not offline: the stage would end for nothing), the server asked once.
      const url = shareUrl(next.spec, view3, location.href, usePipelineStore.getState().settings);
      left = await leaveStopping(url, setLeaving);
    } finally {
      // Staying (offline, say), or the stop failed: the dialog closes onto the notice that says why.
      if (!left) {
        setLeaving(null);
        ref.current?.close();
      }
    }
  };
  const n = spec.runs.length;
  return (
    <dialog
      ref={ref}
      className="experiment-dialog"
      aria-labelledby={`${id}-title`}
      data-testid="experiment-dialog"
    >
      <header className="experiment-dialog-head">
        <h2 id={`${id}-title`}>Task, start model and seed</h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Close (Esc)"
          title="Close (Esc)"
          onClick={() => ref.current?.close()}
        >
          <CloseIcon />
        </button>
      </header>
      <p className="muted">
        Every run shares these, so the comparison is fair.{" "}
        {reopens
          ? `This one is kept under Recent experiments: ${reopensText(reopens)}.`
          : `A change starts a new experiment: ${
              n === 0
                ? "no runs yet (add some with + Add run)."
                : `the same ${n === 1 ? "run" : `${n} runs`} with the same settings, from step 0.`
            }`}
      </p>
      <form
        className="experiment-form"
        onSubmit={(e) => {
          e.preventDefault();
          void apply();
        }}
      >
        <div className="experiment-field">
          <label className="eyebrow" htmlFor={`${id}-task`}>
            Task
          </label>
          <select
            id={`${id}-task`}
            aria-describedby={`${id}-task-doc`}
            data-testid="experiment-task"
            value={task}
            onChange={(e) => setTask(e.target.value as ExperimentSpec["task"])}
          >
            {TASKS.map((t) => (
              <option key={t} value={t}>
                {TASK_NAMES[t]}
              </option>
            ))}
          </select>
          <small className="muted" id={`${id}-task-doc`}>
            {TASK_DOCS[task]}
          </small>
        </div>
        <div className="experiment-field">
          <label className="eyebrow" htmlFor={`${id}-model`}>
            Start model
          </label>
          <select
            id={`${id}-model`}
            aria-describedby={`${id}-model-doc`}
            data-testid="experiment-model"
            value={shownModel}
            onChange={(e) => setModel(e.target.value as ExperimentSpec["model"])}
          >
            {MODELS.map((m) => {
              const why = startModelProblem(m, task);
              return (
                <option
                  key={m}
                  value={m}
                  disabled={why !== null}
                  title={
                    why
                      ? `${why}. The Pipeline (above the runs) trains a model of this size from scratch, with a context that fits the task.`
                      : undefined
                  }
                >
                  {MODEL_NAMES[m]}
                  {why ? " — too short a context for this task" : ""}
                </option>
              );
            })}
          </select>
          <small className="muted" id={`${id}-model-doc`}>
            {handedOff && (
              <strong data-testid="experiment-handed-off">
                The runs now start from the Pipeline's SFT model (trained in this page); a new experiment
                starts from the model picked here.{" "}
              </strong>
            )}
            {MODEL_FIELD.doc}
          </small>
        </div>
        <div className="experiment-field">
          <label className="eyebrow" htmlFor={`${id}-seed`}>
            Seed
          </label>
          <span className="experiment-seed">
            <input
              id={`${id}-seed`}
              aria-describedby={`${id}-seed-doc`}
              data-testid="experiment-seed"
              type="number"
              inputMode="numeric"
              min={SEED_FIELD.min}
              max={SEED_FIELD.max}
              step={1}
              value={seedText}
              onChange={(e) => setSeedText(e.target.value)}
            />
            <button
              type="button"
              data-testid="experiment-seed-random"
              title="A random seed"
              onClick={() => setSeedText(String(Math.floor(Math.random() * 1_000_000)))}
            >
              Random
            </button>
          </span>
          <small className="muted" id={`${id}-seed-doc`}>
            {SEED_FIELD.doc} A run given its own seed (Repeat on other seeds) keeps it.
          </small>
        </div>
        {problem && (
          <p className="run-error" role="alert" data-testid="experiment-problem">
            {problem}
          </p>
        )}
        {!next && !problem && (
          <p className="muted" data-testid="experiment-unchanged">
            This is the current experiment: pick another task, start model or seed to start a new one.
          </p>
        )}
        {next && (keeps || training || next.changes.length > 0) && (
          <ul className="run-hint experiment-changes" data-testid="experiment-changes">
            {keeps && (
              <li data-testid="experiment-discard">
                {saves && saveFailed
                  ? `${failingLine(saveFailed, steps)}.`
                  : `${keptLine({ steps, compared, pipeline, room }, saves, "under Recent experiments below, charts included, to reopen later (not its samples)")}.`}
              </li>
            )}
            {pipeline && (!saves || saveFailed) && (
              <li>
                {saves
                  ? "The Pipeline's models are kept as they were saved before."
                  : tabWords(
                      "The Pipeline's models trained in this page are not kept: this tab does not save.",
                    )}
              </li>
            )}
            {training && <li data-testid="experiment-pipeline-training">{stopFirstLine(training, saves)}</li>}
            {next.changes.map((c) => (
              <li key={c}>{c[0].toUpperCase() + c.slice(1)}.</li>
            ))}
          </ul>
        )}
        <div className="experiment-actions">
          <button type="button" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="experiment-apply"
            disabled={!next || leaving !== null}
          >
            {leaving === "stopping"
              ? "Stopping the Pipeline…"
              : leaving
                ? "Saving this one…"
                : reopens
                  ? "Reopen kept experiment"
                  : "Start new experiment"}
          </button>
        </div>
      </form>
      <RecentExperiments />
    </dialog>
  );
}
