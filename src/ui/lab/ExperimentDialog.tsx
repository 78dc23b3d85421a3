/**
 * "Change…" in the top bar: the task, the start model and the seed that every run shares. Applying starts a
 * new experiment — the same runs and settings restarted from the new start model (src/lab/experiment_change.ts)
 * — by opening its link, as a lesson or a shared link opens (the page reloads into it). A modal native <dialog>:
 * Esc or a click beside it cancels.
 */
import { useId, useRef, useState } from "react";
import { changeExperiment, startModelProblem } from "../../lab/experiment_change";
import { LESSONS } from "../../lab/presets/index";
import type { ExperimentSpec } from "../../lab/protocol";
import { EXPERIMENT_FIELDS } from "../../lab/settings";
import { shareUrl } from "../../lab/url";
import { useLab } from "../lab_store";
import { useModalDialog } from "../use_modal_dialog";
import { CloseIcon } from "./icons";
import "./experiment.css";

export const TASK_NAMES: Record<ExperimentSpec["task"], string> = {
  sentiment: "Sentiment",
  arithmetic: "Arithmetic",
};

const TASK_DOCS: Record<ExperimentSpec["task"], string> = {
  sentiment:
    "Continue an opening of Moby-Dick; the gold reward is the text's sentiment (AFINN-165 lexicon, tanh of the word sum / 5). 128-token model, character-level.",
  arithmetic:
    "Answer a+b= for 2-digit numbers; the gold reward is 1 for the exact sum. 16-token model: fast, even on a software GPU.",
};

const MODEL_NAMES: Record<ExperimentSpec["model"], string> = {
  sft: "shipped SFT model",
  nano: "nano (random init)",
  tiny: "tiny (random init)",
  small: "small (random init)",
};

const [TASK_FIELD, MODEL_FIELD, SEED_FIELD] = EXPERIMENT_FIELDS;
const TASKS: readonly ExperimentSpec["task"][] = TASK_FIELD.options;
const MODELS: readonly ExperimentSpec["model"][] = MODEL_FIELD.options;

export function ExperimentDialog({ onClose }: { onClose(): void }) {
  const spec = useLab((s) => s.spec);
  const view = useLab((s) => s.view);
  const steps = useLab((s) => Math.max(0, ...Object.values(s.runs).map((r) => r.step)));
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [task, setTask] = useState(spec.task);
  const [model, setModel] = useState(spec.model);
  const [seedText, setSeedText] = useState(String(spec.seed));
  useModalDialog(ref, onClose);

  // Digits only (the number input would take "1e3" or "1.5"); changeExperiment checks the range.
  const seedOk = /^\d{1,10}$/.test(seedText.trim()) && Number(seedText) <= SEED_FIELD.max;
  const seed = seedOk ? Number(seedText) : Number.NaN;
  // A start model that does not fit the new task falls back to the shipped one (always fits).
  const shownModel = startModelProblem(model, task) ? "sft" : model;
  let next: ExperimentSpec | null = null;
  let problem: string | null = null;
  if (!seedOk) problem = `The seed must be a whole number from 0 to ${SEED_FIELD.max.toLocaleString("en")}.`;
  else
    try {
      next = changeExperiment(spec, { task, model: shownModel, seed });
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
  const leavesLesson = spec.preset && next && !next.preset;
  const apply = () => {
    if (!next) return;
    const link = shareUrl(
      next,
      { xAxis: view.xAxis, klEstimator: view.klEstimator, smoothing: view.smoothing },
      location.href,
    );
    ref.current?.close();
    location.assign(link);
  };
  return (
    <dialog ref={ref} className="experiment-dialog" aria-labelledby={titleId} data-testid="experiment-dialog">
      <header className="experiment-dialog-head">
        <h2 id={titleId}>Task, start model and seed</h2>
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
        Every run shares these, so the comparison is fair. A change starts a new experiment: the same{" "}
        {spec.runs.length} run{spec.runs.length === 1 ? "" : "s"} with the same settings, restarted from the
        new start model.
      </p>
      <form
        className="experiment-form"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <label>
          <span className="eyebrow">Task</span>
          <select
            data-testid="experiment-task"
            value={task}
            onChange={(e) => setTask(e.target.value as never)}
          >
            {TASKS.map((t) => (
              <option key={t} value={t}>
                {TASK_NAMES[t]}
              </option>
            ))}
          </select>
          <small className="muted">{TASK_DOCS[task]}</small>
        </label>
        <label>
          <span className="eyebrow">Start model</span>
          <select
            data-testid="experiment-model"
            value={shownModel}
            onChange={(e) => setModel(e.target.value as never)}
          >
            {MODELS.map((m) => {
              const why = startModelProblem(m, task);
              return (
                <option key={m} value={m} disabled={why !== null} title={why ?? undefined}>
                  {MODEL_NAMES[m]}
                  {why ? " — too short a context for this task" : ""}
                </option>
              );
            })}
          </select>
          <small className="muted">{MODEL_FIELD.doc}</small>
        </label>
        <label>
          <span className="eyebrow">Seed</span>
          <span className="experiment-seed">
            <input
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
          <small className="muted">{SEED_FIELD.doc}</small>
        </label>
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
        {next && steps > 0 && (
          <p className="run-hint" data-testid="experiment-discard">
            This browser keeps one experiment: once the new one saves, this one's training (up to step {steps}
            ), charts and samples are gone. Export a run first to keep it.
          </p>
        )}
        {leavesLesson && spec.preset && (
          <p className="run-hint">
            This leaves the lesson “{LESSONS[spec.preset].title}”: its narrative is about its own task and
            start model. A new seed alone keeps it.
          </p>
        )}
        <div className="experiment-actions">
          <button type="button" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="primary" data-testid="experiment-apply" disabled={!next}>
            Start new experiment
          </button>
        </div>
      </form>
    </dialog>
  );
}
