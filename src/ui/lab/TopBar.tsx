/**
 * The lab's controls, TensorFlow Playground style: what is being trained (task, model, seed; "Change…" opens
 * ExperimentDialog), a big Play/Pause (the space bar toggles it), Step, Reset, the speed cap, Share, and
 * "add run" with every algorithm of the registry.
 */
import { useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { ALGO_IDS, ALGORITHMS, type AlgoId } from "../../lab/registry";
import { TOO_MANY_RUNS } from "../../lab/settings";
import { EXPLANATIONS } from "../explain/content";
import { ExplainButton } from "../explain/ExplainButton";
import { int } from "../format";
import { labFull, stepRange, trainedSteps, useLab } from "../lab_store";
import { LessonPicker } from "../lessons/LessonPicker";
import { actionSelectKeyDown } from "./action_select";
import { labActions } from "./actions";
import { ConfirmButton } from "./ConfirmButton";
import { fromKeyboard } from "./click_source";
import { ExperimentDialog } from "./ExperimentDialog";
import { modelName, TASK_NAMES } from "./experiment_names";
import { ResetIcon, StepIcon } from "./icons";
import { RewardModelButton } from "./RewardModelButton";
import { SaveState } from "./SaveState";
import { ImportButton, ShareButton } from "./ShareImport";
import { StopAt } from "./StopAt";
import { useSpaceToggle } from "./space_toggle";
import { PageAnnouncer, TrainingAnnouncer } from "./TrainingAnnouncer";

/** Steps-per-second caps offered (0 = as fast as the GPU goes). */
const SPEEDS = [0, 10, 5, 2, 1, 0.5];

export function TopBar() {
  const spec = useLab((s) => s.spec);
  const model = useLab((s) => s.model);
  // Playing only while the lab is up: a worker that stopped answering trains nothing (Pause stayed drawn).
  const playing = useLab((s) => s.playing && s.phase === "ready");
  const speed = useLab((s) => s.speed);
  const phase = useLab((s) => s.phase);
  // Saved runs still being restored: no Play or Step yet (lab_store.ts restoring).
  const restoring = useLab((s) => s.restoring);
  const ready = phase === "ready";
  const [editing, setEditing] = useState(false);
  const steps = useLab(trainedSteps);
  const [highest, lowest] = useLab(useShallow(stepRange));
  const hasRuns = spec.runs.length > 0;
  const full = useLab(labFull);
  const finishing = useLab((s) => Object.values(s.runs).some((r) => r.status === "finishing"));
  // Steps pressed behind the one in flight (each press queues one; Play takes over from them).
  const waiting = useLab((s) => Math.max(0, s.stepsQueued - 1));
  useSpaceToggle(ready && hasRuns);
  return (
    <section className="top-bar" aria-label="Experiment controls">
      <div className="experiment" data-testid="experiment">
        <div>
          <span className="eyebrow">Task</span>
          <strong data-testid="task">{TASK_NAMES[spec.task] ?? spec.task}</strong>
        </div>
        <div className="experiment-model">
          <span className="eyebrow">Start model</span>
          <strong data-testid="model" title={model ?? undefined}>
            {model
              ? modelName(model)
              : spec.model === "sft"
                ? "shipped SFT model"
                : `${spec.model} (random init)`}
          </strong>
        </div>
        <div>
          <span className="eyebrow">Seed</span>
          <strong data-testid="seed">{spec.seed}</strong>
        </div>
        <button
          type="button"
          className="experiment-change"
          data-testid="change-experiment"
          title="Change the task, the start model or the seed (starts a new experiment with the same runs)"
          disabled={!ready && phase !== "error"}
          onClick={() => setEditing(true)}
        >
          Change…
        </button>
        {editing && <ExperimentDialog onClose={() => setEditing(false)} />}
      </div>

      <div className="transport">
        <button
          type="button"
          className={`play-button${playing ? " is-playing" : ""}`}
          data-testid="play"
          // One name, the state in aria-pressed (a toggle button): "Train all runs, pressed" while training.
          aria-label="Train all runs (space)"
          title={playing ? "Pause (space)" : "Play (space)"}
          aria-pressed={playing}
          disabled={!ready || !hasRuns || (restoring && !playing)}
          onClick={labActions.togglePlay}
        >
          <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span>
        </button>
        <div className="transport-side">
          <div className="transport-buttons">
            <button
              type="button"
              data-testid="step-once"
              title="One step of every run (runs one step behind the rest catch up first), then pause"
              disabled={!ready || playing || !hasRuns || restoring}
              onClick={(e) => {
                // After a mouse click, give the keyboard back to the page: space plays/pauses, it does not
                // repeat Step. From the keyboard (detail 0) focus stays, so Enter steps again.
                if (!fromKeyboard(e)) e.currentTarget.blur();
                labActions.stepOnce();
              }}
            >
              <StepIcon /> Step
              {waiting > 0 && !playing && (
                <span
                  className="steps-queued"
                  data-testid="steps-queued"
                  title={`${waiting} more Step${waiting > 1 ? "s" : ""} queued behind the one in progress (Play takes over from them)`}
                >
                  +{waiting}
                </span>
              )}
            </button>
            <ConfirmButton
              testId="reset"
              title="Discard progress and restart every run from the start model"
              // Not while saved runs come back: a checkpoint loaded after the Reset would put a run at its saved
              // step with its curve cleared.
              disabled={!ready || restoring}
              confirm={
                steps > 0
                  ? `Restart every run from the start model? Their training (up to step ${steps}), charts and samples are discarded.`
                  : null
              }
              confirmLabel="Reset"
              onConfirm={() => labActions.reset()}
            >
              <ResetIcon /> Reset
            </ConfirmButton>
            <label className="speed">
              <span className="eyebrow">Speed</span>
              <select
                data-testid="speed"
                value={speed}
                disabled={!ready}
                onChange={(e) => labActions.setSpeed(Number(e.target.value))}
              >
                {SPEEDS.map((s) => (
                  <option key={s} value={s}>
                    {s === 0 ? "max" : `${s} step${s === 1 ? "" : "s"}/s`}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="step-row">
            <p className="step-count">
              <span className="eyebrow">Step</span>{" "}
              <span className="step-number" data-testid="global-step">
                {/* Read as a number ("12"), shown as a counter ("012"). */}
                <span aria-hidden="true">{int(steps).padStart(3, "0")}</span>
                <span className="visually-hidden">{int(steps)}</span>
              </span>
              {lowest < highest && (
                <span
                  className="step-range"
                  data-testid="step-range"
                  title="The furthest run's step; some runs are behind it. A run behind takes two steps a round (Play or Step) until it is level."
                >
                  (runs at {int(lowest)}–{int(highest)})
                </span>
              )}
              {/* Its room is kept while playing (hidden), so Stop at does not move when the lab pauses; "not
                  saving (another tab)" shows while playing too. */}
              <SaveState playing={playing} steps={steps} finishing={finishing} />
            </p>
            <StopAt disabled={!ready} />
          </div>
          {/* Outside the step line: reading "Step 6" does not read the last announcement with it. */}
          <TrainingAnnouncer />
          <PageAnnouncer />
        </div>
      </div>

      <div className="top-actions">
        <select
          className="add-run"
          data-testid="add-run"
          aria-label="Add a run"
          title={full ? TOO_MANY_RUNS : undefined}
          value=""
          disabled={!ready || full}
          onKeyDown={actionSelectKeyDown}
          onChange={(e) => {
            if (e.target.value) labActions.addRun(e.target.value as AlgoId);
          }}
        >
          <option value="">+ Add run…</option>
          {ALGO_IDS.map((id) => (
            <option key={id} value={id} title={EXPLANATIONS[id].summary}>
              {ALGORITHMS[id].title}
            </option>
          ))}
        </select>
        <RewardModelButton disabled={!ready} />
        <ExplainButton
          algo={ALGO_IDS[0]}
          onAdd={(id) => labActions.addRun(id)}
          addDisabled={full ? TOO_MANY_RUNS : !ready}
          className="explain-open"
          title="Algorithms: what each one does — explanation, objective, knobs and papers"
          testId="explain-algorithms"
        >
          ? Algorithms
        </ExplainButton>
        <LessonPicker disabled={!ready} />
        <ImportButton disabled={!ready} />
        <ShareButton disabled={!ready} />
      </div>
    </section>
  );
}
