/**
 * The Pipeline view's controls (./PipelineView.tsx): a setting's input, a number as shown, a stage's progress
 * line and error, and {@link StageButtons}, a stage's Train button with Stop beside it while it trains (the model
 * trained so far is kept: ./pipeline_actions.ts stop).
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import type { Field } from "../../algorithms/fields";
import { PIPELINE_FIELDS, type PipelineSettings, type PipelineStage } from "../../lab/pipeline/fields";
import { fromKeyboard } from "./click_source";
import { hintLines, parseNumber, refusedText } from "./knobs";
import { sig } from "./numbers";
import { pipelineActions } from "./pipeline_actions";
import { STAGE_NAMES, type StageState, stoppedEarly, usePipelineStore } from "./pipeline_store";
import { timeLeft } from "./time_left";

const field = (key: keyof PipelineSettings) => PIPELINE_FIELDS.find((f) => f.key === key) as Field;

/** A number as shown, with its exact value for tests and screen readers. */
export function Num({ id, value, digits = 3 }: { id: string; value: number | undefined; digits?: number }) {
  if (value === undefined) return <span className="muted">–</span>;
  return (
    <strong data-testid={id} data-value={value}>
      {sig(value, digits, true)}
    </strong>
  );
}

/** A Pipeline setting's control (an input, or a select for an enum), its field's doc as its tooltip. */
export function SettingInput({ k, disabled }: { k: keyof PipelineSettings; disabled: boolean }) {
  const f = field(k);
  const value = usePipelineStore((s) => s.settings[k]);
  const setSettings = usePipelineStore((s) => s.setSettings);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const title = hintLines(f)
    .map((l) => (l.label ? `${l.label}: ${l.text}` : l.text))
    .join("\n");
  const id = `pipeline-${k}`;
  const commit = (raw: string) => {
    setText(null);
    if (f.kind !== "int" && f.kind !== "number") return;
    // The run knobs' parser: decimal notation only ("0x10" is not 16), the range in the message.
    const v = parseNumber(f, raw);
    setError(typeof v === "string" ? refusedText(f, raw, v, Number(value)) : null);
    if (typeof v === "number") setSettings({ [k]: v });
  };
  return (
    <div className="pipeline-setting" title={title}>
      <label className="pipeline-setting-label" htmlFor={id}>
        {f.label}
      </label>
      {f.kind === "enum" ? (
        <select
          id={id}
          data-testid={id}
          value={String(value)}
          disabled={disabled}
          onChange={(e) => setSettings({ [k]: e.target.value })}
        >
          {f.options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          type="text"
          inputMode="decimal"
          id={id}
          data-testid={id}
          // Space plays or pauses the lab, as in a run's number knob (space_toggle.ts): no number holds a space.
          data-space-plays=""
          value={text ?? String(value)}
          disabled={disabled}
          onChange={(e) => {
            setText(e.target.value);
            setError(null); // a new try: the last refusal no longer applies
          }}
          onBlur={(e) => commit(e.target.value)}
          onKeyDown={(e) => {
            // Space: the value typed so far applied first, then the lab plays or pauses.
            if (e.key === "Enter" || e.key === " ") commit(e.currentTarget.value);
          }}
        />
      )}
      {error && (
        <span className="pipeline-setting-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * A stage's progress bar and line: "not trained", "step 44 / 300 · about 1 min 05 s left" (while it stops:
 * "· stopping after this step…"), "step 300 / 300 · done" or, stopped early, "stopped at step 71 of 400"; then
 * its time.
 */
export function Progress({ stage, st }: { stage: PipelineStage; st: StageState }) {
  const stopping = usePipelineStore((s) => s.stopping === stage && st.status === "running");
  // Before its first report (building the model; stage 2 also reads its pairs once and scores the held-out ones) the
  // stage's length is its setting's: the inputs are locked while it trains.
  const asked = usePipelineStore((s) => (stage === "sft" ? s.settings.sftSteps : s.settings.rmSteps));
  const last = st.points.at(-1);
  const steps =
    last?.steps ?? st.result?.planned ?? st.result?.steps ?? (st.status === "running" ? asked : 0);
  const done = last?.step ?? 0;
  const stopped = stoppedEarly(st);
  let line = `step ${done} / ${steps}`;
  if (st.status === "idle") line = "not trained";
  else if (st.status === "running" && !last && !stopping)
    line = `step 0 / ${steps} · ${stage === "rm" ? "scoring the held-out pairs before training…" : "starting…"}`;
  else if (stopped) line = `stopped at step ${st.result?.steps} of ${st.result?.planned}`;
  else if (st.status === "done") line += " · done";
  else if (stopping) line += " · stopping after this step…";
  else if (st.status === "running" && st.startedAt !== undefined) {
    const left = timeLeft(done, steps, performance.now() - st.startedAt);
    if (left) line += ` · ${left}`;
  }
  return (
    <div className="pipeline-progress">
      <progress max={Math.max(1, steps)} value={done} aria-label={`${stage} progress`} />
      <span
        data-testid={`pipeline-${stage}-progress`}
        data-step={done}
        data-status={st.status}
        data-stopped={stopped || undefined}
      >
        {line}
        {st.result && ` · ${sig(st.result.seconds, 2)} s`}
      </span>
    </div>
  );
}

/** A stage's error, if it failed. */
export function StageError({ st }: { st: StageState }) {
  if (st.status !== "error") return null;
  return (
    <p className="run-error" role="alert">
      {st.error}
    </p>
  );
}

/** Whether the keyboard's focus is nowhere useful: on the page's body, or on a button that went or was disabled. */
function focusLost(): boolean {
  const a = document.activeElement;
  return a === null || a === document.body || !a.isConnected || (a as HTMLButtonElement).disabled === true;
}

/**
 * A stage's buttons: `children` (its Train button, class "pipeline-run", and others) and, while the stage
 * trains, Stop: the stage ends after its step in progress, as trained for the steps it reached. Started or
 * stopped from the keyboard, the focus moves to Stop, then back to the Train button when the stage ends (a
 * disabled or removed button would drop it). Stop stays focusable while it stops (aria-disabled).
 */
export function StageButtons({
  stage,
  st,
  children,
}: {
  stage: PipelineStage;
  st: StageState;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const stop = useRef<HTMLButtonElement>(null);
  /** The last action in this box came from the keyboard (Enter or space; the confirmation card's too). */
  const keys = useRef(false);
  const running = st.status === "running";
  const was = useRef(running);
  const stopping = usePipelineStore((s) => s.stopping === stage);
  useEffect(() => {
    if (running === was.current) return;
    was.current = running;
    if (!keys.current || !focusLost()) return;
    if (running) stop.current?.focus();
    else box.current?.querySelector<HTMLButtonElement>(".pipeline-run")?.focus();
  }, [running]);
  const name = STAGE_NAMES[stage];
  return (
    <div
      ref={box}
      className="pipeline-buttons"
      onKeyDownCapture={(e) => {
        if (e.key === "Enter" || e.key === " ") keys.current = true;
      }}
      onPointerDownCapture={() => {
        keys.current = false;
      }}
    >
      {children}
      {running && (
        <button
          ref={stop}
          type="button"
          className="pipeline-stop"
          data-testid={`pipeline-stop-${stage}`}
          aria-disabled={stopping || undefined}
          title={`Stop the ${name} training after the step in progress: the model trained so far is kept, as if that many steps had been asked for (${stage === "sft" ? "stage 2 starts from it" : "Use in RL uses it"}).`}
          onClick={(e) => {
            keys.current = fromKeyboard(e);
            if (!stopping) void pipelineActions.stop();
          }}
        >
          {stopping ? "Stopping…" : "Stop"}
        </button>
      )}
    </div>
  );
}
