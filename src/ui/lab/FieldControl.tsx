/**
 * One hyperparameter as a control, generated from its field: a slider (log scale for unit "log" and wide
 * ranges: knobs.ts logSlider) plus a typed
 * number for numbers, a select for enums, a switch for booleans. The label's tooltip shows the field's doc,
 * range, default, source and TRL name. Changes go to labActions.setConfig (they apply at the run's next step);
 * sliders commit on release so a drag is one change (one marker), not fifty.
 */
import { type KeyboardEvent, memo, useEffect, useRef, useState } from "react";
import type { Field, NumberField } from "../../algorithms/fields";
import type { SettingValue } from "../../lab/protocol";
import { settingNumber } from "../../lab/setting_text";
import { errorMessage } from "../../util/errors";
import { labActions } from "./actions";
import { Hint } from "./Hint";
import { LockIcon } from "./icons";
import {
  formatSetting,
  fromSlider,
  hasSlider,
  hintLines,
  logSlider,
  nudge,
  parseNumber,
  rangeText,
  refusedText,
  SLIDER_STEPS,
  toSlider,
} from "./knobs";
import { RewardLoading } from "./RewardLoading";

interface Props {
  runId: string;
  field: Field;
  value: SettingValue;
  /** Why the control is disabled (shape fields of a started run), or null. */
  locked: string | null;
  /** Disabled for now without a reason worth a lock (the lab is loading). */
  disabled?: boolean;
  /** A line under the control about the value the run uses now, when it moves on its own (adaptive β). */
  note?: string | null;
  /** What the run's TRL class calls the setting (src/lab/export/trl_names.ts), for the tooltip. */
  trl?: string;
  /**
   * An enum's options that cannot be picked now, each with what to do first ("load an .onnx first"): offered
   * disabled (the run's own value stays selectable), instead of refused after the pick.
   */
  unavailable?: Readonly<Record<string, string>>;
}

/** A value sent to the worker over the run's value `base`. */
interface Sent {
  v: SettingValue;
  base: SettingValue;
}

/** Memoised: a run card re-renders every update (its step), its knobs only when their value changes. */
export const FieldControl = memo(function FieldControl({
  runId,
  field,
  value,
  locked,
  disabled,
  note,
  trl,
  unavailable,
}: Props) {
  const off = !!locked || !!disabled;
  // A refusal is about the run's value when it came: once that value changes (another tab, Reset, a link) it no
  // longer applies and is not shown. Kept with that value rather than cleared by an effect, which could run after
  // a refusal that arrived in the same moment as the value before it.
  const valueNow = useRef(value);
  valueNow.current = value;
  const [refusal, setRefusal] = useState<{ text: string; at: SettingValue } | null>(null);
  const setError = (text: string | null) => setRefusal(text === null ? null : { text, at: valueNow.current });
  const error = refusal && refusal.at === value ? refusal.text : null;
  // The value last sent and not yet the run's (the worker applies settings between steps: on a software GPU a
  // minute later). A number knob's slider shows it meanwhile; a value equal to it is not sent twice, and one
  // equal to the run's value while another is pending is sent (to undo the pending one).
  // Kept with the run's value it was sent over (`base`): once the run's value changes, it is no longer pending.
  const [sent, setSent] = useState<Sent | null>(null);
  const sentRef = useRef<Sent | null>(null);
  const pending = (x: Sent | null) => (x && x.base === value ? x.v : null);
  const shownSent = pending(sent);
  // A reward model being loaded for this run (the worker answers once it is: a download on a slow network).
  const [loadingReward, setLoadingReward] = useState<object | null>(null);
  /** Send a value to the run; resolves false when the worker refused it (its message is then shown). */
  const commit = (v: SettingValue): Promise<boolean> => {
    setError(null); // a valid value clears the last error, even the value the run already has
    if (v === (pending(sentRef.current) ?? value)) return Promise.resolve(true);
    const entry = { v, base: value };
    sentRef.current = entry;
    setSent(entry);
    const loads = field.key === "reward" && v !== "gold" ? entry : null;
    setLoadingReward(loads);
    return labActions
      .setConfig(runId, { [field.key]: v })
      .then(
        () => true,
        (e) => {
          if (sentRef.current === entry) {
            sentRef.current = null;
            setSent(null);
          }
          setError(errorMessage(e));
          return false;
        },
      )
      .finally(() => setLoadingReward((now) => (now === loads ? null : now)));
  };
  const testId = `knob-${runId}-${field.key}`;
  // Screen readers read the note (the value the run uses now) with the control.
  const noteId = note ? `${testId}-note` : undefined;
  // A refused value's message, and a number's range, are read with the control too (the name's card, with the
  // range, shows only while the name has the focus).
  const errorId = error ? `${testId}-error` : undefined;
  const range =
    field.kind === "number" || field.kind === "int"
      ? `range ${rangeText(field)}, default ${formatSetting(field, field.default)}`
      : null;
  const rangeId = range ? `${testId}-range` : undefined;
  const describedBy = [noteId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`knob${locked ? " knob-locked" : ""}${value !== field.default ? " knob-changed" : ""}`}>
      <Hint
        className="knob-label"
        card={<FieldCard field={field} trl={trl} locked={locked} changed={value !== field.default} />}
        testId={`hint-${runId}-${field.key}`}
        beside=".run-card"
      >
        <span className="knob-label-text">{field.label}</span>
        {locked && <LockIcon />}
      </Hint>
      <div className="knob-input" title={locked ?? undefined}>
        {field.kind === "enum" ? (
          <select
            data-testid={testId}
            aria-label={field.label}
            aria-describedby={describedBy}
            value={String(value)}
            disabled={off}
            onChange={(e) => commit(e.target.value)}
          >
            {field.options.map((o) => {
              const why = o !== String(value) ? unavailable?.[o] : undefined;
              return (
                <option key={o} value={o} disabled={why !== undefined}>
                  {why ? `${o} (${why})` : o}
                </option>
              );
            })}
          </select>
        ) : field.kind === "bool" ? (
          <label className="switch">
            <input
              type="checkbox"
              data-testid={testId}
              aria-label={field.label}
              aria-describedby={describedBy}
              checked={value === true}
              disabled={off}
              onChange={(e) => commit(e.target.checked)}
            />
            <span className="switch-text">{value ? "on" : "off"}</span>
          </label>
        ) : (
          <NumberKnob
            field={field}
            value={Number(value)}
            locked={off}
            testId={testId}
            describedBy={[describedBy, rangeId].filter(Boolean).join(" ")}
            sent={typeof shownSent === "number" ? shownSent : null}
            onCommit={commit}
            onError={setError}
          />
        )}
      </div>
      {note && (
        <p className="knob-note" id={noteId} data-testid={`note-${runId}-${field.key}`}>
          {note}
        </p>
      )}
      {loadingReward && <RewardLoading testId={`loading-${runId}-reward`} />}
      {error && (
        <p className="knob-error" role="alert" id={errorId}>
          {error}
        </p>
      )}
      {range && (
        <span className="visually-hidden" id={rangeId}>
          {range}
        </span>
      )}
    </div>
  );
});

function NumberKnob(props: {
  field: NumberField;
  value: number;
  locked: boolean;
  testId: string;
  /** id of the note under the control (aria-describedby), if any. */
  describedBy?: string;
  /** A value sent and not yet the run's (the slider shows it), or null. */
  sent: number | null;
  /** Resolves false when the worker refused the value. */
  onCommit(v: number): Promise<boolean>;
  onError(e: string | null): void;
}) {
  const { field, value, locked, testId, describedBy, sent, onCommit, onError } = props;
  const [text, setText] = useState(settingNumber(value));
  const [pos, setPos] = useState<number | null>(null);
  useEffect(() => setText(settingNumber(value)), [value]);
  const shown = sent ?? value;
  // The value the last key press asked for (the run's own value arrives a moment later): presses add up.
  const pressed = useRef(value);
  useEffect(() => {
    pressed.current = value;
  }, [value]);
  /** ↑/↓ (and the slider's ←/→, PageUp/PageDown; Shift for a big step) nudge the value (knobs.ts nudge). */
  const onNudgeKey = (e: KeyboardEvent<HTMLInputElement>, slider: boolean) => {
    const up = e.key === "ArrowUp" || (slider && (e.key === "ArrowRight" || e.key === "PageUp"));
    const down = e.key === "ArrowDown" || (slider && (e.key === "ArrowLeft" || e.key === "PageDown"));
    if (!up && !down) return;
    e.preventDefault();
    // From the value typed in the box if it holds a new one not applied yet (↑ on "5e-4" goes to 6e-4, not from
    // the run's old value); else from the last press.
    const typed = slider ? null : parseNumber(field, text);
    const from =
      typeof typed === "number" && text !== settingNumber(pressed.current) ? typed : pressed.current;
    const v = nudge(field, from, up ? 1 : -1, e.shiftKey || e.key.startsWith("Page"));
    pressed.current = v;
    setPos(null);
    setText(settingNumber(v));
    onError(null);
    onCommit(v);
  };
  /** Apply the typed text. `leaving`: the field lost focus (not Enter or Space). */
  const commitText = (leaving: boolean) => {
    // Leaving the field unchanged (after a refusal put the value back) keeps the refusal's message; Enter on the
    // value the run has clears it, as a valid value does.
    if (leaving && text === settingNumber(shown)) return;
    const v = parseNumber(field, text);
    if (typeof v === "string") {
      onError(refusedText(field, text, v, shown));
      setText(settingNumber(shown));
    } else {
      // The run's own way of writing it (".0003" and "3E-4" read 3e-4), also when the value does not change.
      const written = settingNumber(v);
      setText(written);
      // Refused by the worker: the run's value back in the field, so leaving it does not send the refused one again.
      onCommit(v).then((ok) => {
        if (!ok) setText((t) => (t === written ? settingNumber(value) : t));
      });
    }
  };
  const release = () => {
    if (pos === null) return;
    onCommit(fromSlider(field, pos));
    setPos(null);
  };
  return (
    <>
      {hasSlider(field) && (
        <input
          type="range"
          className={logSlider(field) ? "log-slider" : undefined}
          aria-label={`${field.label} slider${logSlider(field) ? " (log scale)" : ""}`}
          aria-valuetext={formatSetting(field, pos === null ? shown : fromSlider(field, pos))}
          data-testid={`${testId}-slider`}
          aria-describedby={describedBy}
          // Out of the Tab order: the number beside it takes the same ↑/↓ steps, so Tab crosses a setting in two
          // stops (its name's card, its value), not three (a card of 12 settings was ~30 stops; 8 cards ~240).
          tabIndex={-1}
          min={0}
          max={SLIDER_STEPS}
          value={pos ?? toSlider(field, shown)}
          disabled={locked}
          onChange={(e) => {
            const p = Number(e.target.value);
            setPos(p);
            setText(settingNumber(fromSlider(field, p)));
          }}
          onKeyDown={(e) => onNudgeKey(e, true)}
          onPointerUp={release}
          onKeyUp={release}
          onBlur={release}
        />
      )}
      <input
        type="text"
        inputMode="decimal"
        className="knob-number"
        data-testid={testId}
        data-space-plays=""
        aria-label={field.label}
        aria-describedby={describedBy}
        value={text}
        disabled={locked}
        onChange={(e) => {
          setText(e.target.value);
          onError(null); // a new try: the last refusal no longer applies
        }}
        onBlur={() => commitText(true)}
        onKeyDown={(e) => {
          onNudgeKey(e, false);
          // Space plays or pauses the lab (space_toggle.ts), with the value typed so far applied first.
          if (e.key === "Enter" || e.key === " ") commitText(false);
          if (e.key === "Escape") {
            e.preventDefault(); // used: a pinned chart stays pinned (chart_pin.ts)
            setText(settingNumber(value));
            onError(null);
          }
        }}
      />
      {field.unit && field.unit !== "log" && <span className="knob-unit">{field.unit}</span>}
    </>
  );
}

/** The tooltip card: doc, range, default, source, TRL name, and why it is locked. */
function FieldCard({
  field,
  trl,
  locked,
  changed,
}: {
  field: Field;
  trl?: string;
  locked: string | null;
  changed: boolean;
}) {
  return (
    <div className="field-card">
      <p className="field-card-title">
        <strong>{field.label}</strong> <code>{field.key}</code>
      </p>
      <dl>
        {hintLines(field, trl).map((l) =>
          l.label ? (
            <div key={l.label}>
              <dt>{l.label}</dt>
              <dd>{l.text}</dd>
            </div>
          ) : (
            <p key="doc" className="field-card-doc">
              {l.text}
            </p>
          ),
        )}
      </dl>
      {changed && (
        <p className="field-card-changed">
          Not the algorithm’s default (the label is bold): the experiment or you set it.
        </p>
      )}
      {locked && <p className="field-card-locked">{locked}</p>}
    </div>
  );
}
