/**
 * The Pipeline view (issue 7 item 4): the three stages of RLHF end to end, at nano/tiny scale, in this page.
 * 1. SFT: a fresh model learns the task's text (live loss, a sample completion now and then);
 * 2. reward model: from the SFT model, on the task's preference pairs (live Bradley–Terry loss, batch and
 *    held-out accuracy);
 * 3. RL: both go to the runs below (start model; reward "pipeline"), which then train as usual.
 * Settings come from src/lab/pipeline/fields.ts; the training happens in the worker (src/lab/pipeline/).
 */
import { useState } from "react";
import type { Field } from "../../algorithms/fields";
import { PIPELINE_FIELDS, type PipelineSettings } from "../../lab/pipeline/fields";
import { trainedSteps, useLab } from "../lab_store";
import { ConfirmButton } from "./ConfirmButton";
import { hintLines } from "./knobs";
import { sig } from "./numbers";
import { PipelineChart } from "./PipelineChart";
import { pipelineActions } from "./pipeline_actions";
import { type StageState, usePipelineStore } from "./pipeline_store";
import { rmWeakness } from "./rm_weakness";
import { canKeepRuns } from "./saving";
import "./pipeline.css";

const field = (key: keyof PipelineSettings) => PIPELINE_FIELDS.find((f) => f.key === key) as Field;
const SFT_KEYS: (keyof PipelineSettings)[] = ["size", "sftSteps", "sftBatch", "sftLr"];
const RM_KEYS: (keyof PipelineSettings)[] = ["rmSteps", "rmBatch", "rmLr", "evalPairs"];

/** A number as shown, with its exact value for tests and screen readers. */
function Num({ id, value, digits = 3 }: { id: string; value: number | undefined; digits?: number }) {
  if (value === undefined) return <span className="muted">–</span>;
  return (
    <strong data-testid={id} data-value={value}>
      {sig(value, digits, true)}
    </strong>
  );
}

function SettingInput({ k, disabled }: { k: keyof PipelineSettings; disabled: boolean }) {
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
    const v = Number(raw);
    const ok =
      raw.trim() !== "" &&
      Number.isFinite(v) &&
      v >= f.min &&
      v <= f.max &&
      (f.kind === "number" || Number.isInteger(v));
    setError(
      ok
        ? null
        : `${f.label} must be ${f.kind === "int" ? "an integer" : "a number"} in [${f.min}, ${f.max}]`,
    );
    if (ok) setSettings({ [k]: v });
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
          value={text ?? String(value)}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onBlur={(e) => commit(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit(e.currentTarget.value);
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

function Progress({ stage, st }: { stage: string; st: StageState }) {
  const last = st.points.at(-1);
  const steps = last?.steps ?? st.result?.steps ?? 0;
  const done = last?.step ?? 0;
  return (
    <div className="pipeline-progress">
      <progress max={Math.max(1, steps)} value={done} aria-label={`${stage} progress`} />
      <span data-testid={`pipeline-${stage}-progress`} data-step={done} data-status={st.status}>
        {st.status === "idle"
          ? "not trained"
          : `step ${done} / ${steps}${st.status === "done" ? " · done" : ""}`}
        {st.result && ` · ${sig(st.result.seconds, 2)} s`}
      </span>
    </div>
  );
}

function StageError({ st }: { st: StageState }) {
  if (st.status !== "error") return null;
  return (
    <p className="run-error" role="alert">
      {st.error}
    </p>
  );
}

function SftStage({ busy, ready }: { busy: boolean; ready: boolean }) {
  const st = usePipelineStore((s) => s.sft);
  const rmTrained = usePipelineStore((s) => s.rm.status === "done");
  const rows = st.points.map((p) => ({ step: p.step, loss: p.loss }));
  return (
    <section
      className="pipeline-stage"
      data-testid="pipeline-stage-sft"
      aria-label="Stage 1: supervised fine-tuning"
    >
      <h3>
        <span className="pipeline-n">1</span> Supervised fine-tuning
      </h3>
      <p className="muted pipeline-what">A fresh model learns the task's text by next-token prediction.</p>
      <div className="pipeline-settings">
        {SFT_KEYS.map((k) => (
          <SettingInput key={k} k={k} disabled={busy} />
        ))}
      </div>
      <ConfirmButton
        className="pipeline-run"
        testId="pipeline-run-sft"
        disabled={busy || !ready}
        confirm={
          rmTrained
            ? "Train a new SFT model? The reward model of stage 2 started from the old one, so it is discarded too (train it again after)."
            : null
        }
        confirmLabel="Train SFT again"
        onConfirm={() => pipelineActions.train("sft")}
      >
        {st.status === "running" ? "Training…" : st.status === "done" ? "Train SFT again" : "Train SFT"}
      </ConfirmButton>
      <Progress stage="sft" st={st} />
      <StageError st={st} />
      <p className="pipeline-numbers">
        loss <Num id="pipeline-sft-loss-first" value={st.points[0]?.loss} /> →{" "}
        <Num id="pipeline-sft-loss-last" value={st.points.at(-1)?.loss} /> nats/token
      </p>
      <PipelineChart
        rows={rows}
        series={[{ key: "loss", name: "loss", colour: "var(--run-1)" }]}
        label="SFT loss per step"
      />
      {st.sample && (
        <p className="pipeline-sample" data-testid="pipeline-sft-sample">
          <span className="eyebrow">Sample</span>
          <code>
            <span className="muted">{st.sample.prompt}</span>
            {st.sample.completion || <em className="muted">(empty)</em>}
          </code>
        </p>
      )}
      {st.result?.model && <p className="muted pipeline-model">{st.result.model}</p>}
    </section>
  );
}

function RmStage({ busy, ready }: { busy: boolean; ready: boolean }) {
  const st = usePipelineStore((s) => s.rm);
  const sftDone = usePipelineStore((s) => s.sft.status === "done");
  const rows = [
    ...st.points.map((p) => ({ step: p.step, loss: p.loss, accuracy: p.accuracy ?? Number.NaN })),
  ] as Record<string, number>[];
  for (const e of st.evals) {
    const row = rows.find((r) => r.step === e.step);
    if (row) row.heldOut = e.labelAccuracy;
    else rows.unshift({ step: e.step, heldOut: e.labelAccuracy });
  }
  const before = st.evals.find((e) => e.step === 0);
  const after = st.result?.evalAfter ?? st.evals.filter((e) => e.step > 0).at(-1);
  return (
    <section className="pipeline-stage" data-testid="pipeline-stage-rm" aria-label="Stage 2: reward model">
      <h3>
        <span className="pipeline-n">2</span> Reward model
      </h3>
      <p className="muted pipeline-what">
        The SFT model plus a scalar head learns which of two completions the annotator preferred
        (Bradley–Terry).
      </p>
      <div className="pipeline-settings">
        {RM_KEYS.map((k) => (
          <SettingInput key={k} k={k} disabled={busy} />
        ))}
      </div>
      <div className="pipeline-buttons">
        <button
          type="button"
          className="pipeline-run"
          data-testid="pipeline-run-rm"
          disabled={busy || !ready || !sftDone}
          title={sftDone ? undefined : "Train stage 1 first: the reward model starts from the SFT model"}
          onClick={() => pipelineActions.train("rm")}
        >
          {st.status === "running"
            ? "Training…"
            : st.status === "done"
              ? "Train RM again"
              : "Train reward model"}
        </button>
        {st.status === "done" && (
          <button
            type="button"
            className="pipeline-download"
            data-testid="pipeline-download-rm"
            title="The reward model as an .onnx file: load it with Load RM (reward: custom), or use it in an exported TRL script"
            disabled={busy}
            onClick={() => pipelineActions.downloadRm()}
          >
            Download RM (.onnx)
          </button>
        )}
      </div>
      <Progress stage="rm" st={st} />
      <StageError st={st} />
      <p className="pipeline-numbers">
        BT loss <Num id="pipeline-rm-loss-first" value={st.points[0]?.loss} /> →{" "}
        <Num id="pipeline-rm-loss-last" value={st.points.at(-1)?.loss} /> nats · batch acc.{" "}
        <Num id="pipeline-rm-acc-batch" value={st.points.at(-1)?.accuracy} />
      </p>
      <p className="pipeline-numbers">
        held-out acc. (labels) <Num id="pipeline-rm-acc-before" value={before?.labelAccuracy} /> →{" "}
        <Num id="pipeline-rm-acc-after" value={after?.labelAccuracy} /> · vs gold{" "}
        <Num id="pipeline-rm-gold-after" value={after?.goldAccuracy} />
        {after && <span className="muted"> ({after.pairs} pairs)</span>}
      </p>
      <PipelineChart
        rows={rows}
        series={[
          { key: "loss", name: "BT loss", colour: "var(--run-0)" },
          {
            key: "accuracy",
            name: "batch accuracy (right axis)",
            colour: "var(--run-2)",
            dashed: true,
            share: true,
          },
          {
            key: "heldOut",
            name: "held-out accuracy (right axis)",
            colour: "var(--run-3)",
            dots: true,
            share: true,
          },
        ]}
        label="Reward model loss and accuracy per step"
      />
    </section>
  );
}

function RlStage({ busy, ready }: { busy: boolean; ready: boolean }) {
  const rmDone = usePipelineStore((s) => s.rm.status === "done");
  const handedOff = usePipelineStore((s) => s.handedOff);
  const weak = usePipelineStore((s) => (s.rm.status === "done" ? rmWeakness(s.rm.result) : null));
  const size = usePipelineStore((s) => s.settings.size);
  const [handing, setHanding] = useState(false);
  const steps = useLab(trainedSteps);
  return (
    <section
      className="pipeline-stage"
      data-testid="pipeline-stage-rl"
      aria-label="Stage 3: reinforcement learning"
    >
      <h3>
        <span className="pipeline-n">3</span> RL
      </h3>
      <p className="muted pipeline-what">
        The runs below restart from the SFT model and optimise the reward model (reward: <code>pipeline</code>
        ); the gold score is charted too, so you can see the policy exploit a reward model trained in a
        minute.
      </p>
      <ConfirmButton
        className="pipeline-run"
        testId="pipeline-use"
        disabled={busy || !ready || !rmDone || handing}
        title={rmDone ? undefined : "Train stages 1 and 2 first"}
        confirm={
          steps === 0
            ? null
            : canKeepRuns()
              ? "Restart every run from the Pipeline's SFT model, on its reward model? Their training so far is kept (as last saved): reopen it from Change… → Recent experiments."
              : `Restart every run from the Pipeline's SFT model, on its reward model? Their training (up to step ${steps}) is discarded: this page cannot keep it (no storage, or another tab saves). Export the runs first to keep them.`
        }
        confirmLabel="Use in RL"
        onConfirm={async () => {
          setHanding(true);
          await pipelineActions.use();
          setHanding(false);
        }}
      >
        {handing ? "Handing over…" : "Use in RL"}
      </ConfirmButton>
      {weak && (
        <p className="pipeline-warn" data-testid="pipeline-rm-warn">
          {weak} RL will chase its mistakes (reward hacking from the first step). Train stage 2 longer
          {size === "nano" ? " (or a tiny model)" : ""} to avoid that, or go on to watch it happen.
        </p>
      )}
      {handedOff && (
        <p className="pipeline-handed" data-testid="pipeline-handed">
          Runs start from <strong>{handedOff}</strong> and optimise its reward model. Press ▶ Play above.
        </p>
      )}
    </section>
  );
}

export function PipelineView() {
  const ready = useLab((s) => s.phase === "ready");
  const busy = usePipelineStore((s) => s.sft.status === "running" || s.rm.status === "running");
  return (
    <details className="pipeline" data-testid="pipeline">
      <summary>
        <span className="pipeline-title">Pipeline</span>
        <span className="muted">
          {" "}
          SFT → reward model → RL: the three stages of RLHF, trained in this page
        </span>
      </summary>
      <div className="pipeline-stages">
        <SftStage busy={busy} ready={ready} />
        <RmStage busy={busy} ready={ready} />
        <RlStage busy={busy} ready={ready} />
      </div>
    </details>
  );
}
