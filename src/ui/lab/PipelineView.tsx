/**
 * The Pipeline view (issue 7 item 4): the three stages of RLHF end to end, at nano/tiny scale, in this page.
 * 1. SFT: a fresh model learns the task's text (live loss, a sample completion now and then);
 * 2. reward model: from the SFT model, on the task's preference pairs (live Bradley–Terry loss, batch and
 *    held-out accuracy);
 * 3. RL: both go to the runs below (start model; reward "pipeline"), which then train as usual.
 * Settings come from src/lab/pipeline/fields.ts; the training happens in the worker (src/lab/pipeline/).
 */
import { useState } from "react";
import type { PipelineSettings } from "../../lab/pipeline/fields";
import { pipelineRecipes, recipeOf } from "../../lab/pipeline/recipes";
import { trainedSteps, useLab } from "../lab_store";
import { ConfirmButton } from "./ConfirmButton";
import { canKeepRuns, whyNotKept } from "./keep_open";
import { PipelineChart, type PipelineSeries } from "./PipelineChart";
import { Num, Progress, SettingInput, StageButtons, StageError } from "./PipelineControls";
import { pipelineActions } from "./pipeline_actions";
import { usePipelineStore } from "./pipeline_store";
import { rmAdvice, rmWeakness } from "./rm_weakness";
import "./pipeline.css";

const SFT_KEYS: (keyof PipelineSettings)[] = ["size", "sftSteps", "sftBatch", "sftLr"];
const RM_KEYS: (keyof PipelineSettings)[] = ["rmSteps", "rmBatch", "rmLr", "evalPairs"];

const SFT_SERIES: PipelineSeries[] = [{ key: "loss", name: "loss", colour: "var(--run-1)" }];
const RM_SERIES: PipelineSeries[] = [
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
    name: "held-out vs labels (right axis)",
    colour: "var(--run-3)",
    dots: true,
    share: true,
  },
  {
    key: "heldOutGold",
    name: "held-out vs gold (right axis)",
    colour: "var(--run-4)",
    dots: true,
    share: true,
  },
];

function SftStage({ busy, ready }: { busy: boolean; ready: boolean }) {
  const st = usePipelineStore((s) => s.sft);
  const rmTrained = usePipelineStore((s) => s.rm.status === "done");
  const size = usePipelineStore((s) => s.settings.size);
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
      <StageButtons stage="sft" st={st}>
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
          onConfirm={() => {
            void pipelineActions.train("sft");
          }}
        >
          {st.status === "running" ? "Training…" : st.status === "done" ? "Train SFT again" : "Train SFT"}
        </ConfirmButton>
      </StageButtons>
      <Progress stage="sft" st={st} />
      <StageError st={st} />
      <p className="pipeline-numbers">
        loss <Num id="pipeline-sft-loss-first" value={st.points[0]?.loss} /> →{" "}
        <Num id="pipeline-sft-loss-last" value={st.points.at(-1)?.loss} /> nats/token
      </p>
      <PipelineChart
        rows={rows}
        series={SFT_SERIES}
        label="SFT loss per step"
        image={{
          id: "pipeline-sft",
          title: "SFT loss",
          unit: "nats/token",
          stage: "SFT",
          model: st.result?.model ?? size,
          step: st.points.at(-1)?.step ?? 0,
          steps: st.points.at(-1)?.steps,
        }}
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
  const sftModel = usePipelineStore((s) => s.sft.result?.model);
  const size = usePipelineStore((s) => s.settings.size);
  const rows = [
    ...st.points.map((p) => ({ step: p.step, loss: p.loss, accuracy: p.accuracy ?? Number.NaN })),
  ] as Record<string, number>[];
  for (const e of st.evals) {
    const held = {
      heldOut: e.labelAccuracy,
      ...(Number.isFinite(e.goldAccuracy) && { heldOutGold: e.goldAccuracy }),
    };
    const row = rows.find((r) => r.step === e.step);
    if (row) Object.assign(row, held);
    else rows.unshift({ step: e.step, ...held });
  }
  // A batch of 8 pairs scores 0, 0.125, … 1 by chance: the headline is the mean of the last (up to) 10 batches.
  const recent = st.points.slice(-10).flatMap((p) => (p.accuracy === undefined ? [] : [p.accuracy]));
  const batchAcc = recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : undefined;
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
      <StageButtons stage="rm" st={st}>
        <button
          type="button"
          className="pipeline-run"
          data-testid="pipeline-run-rm"
          disabled={busy || !ready || !sftDone}
          title={sftDone ? undefined : "Train stage 1 first: the reward model starts from the SFT model"}
          onClick={() => {
            void pipelineActions.train("rm");
          }}
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
      </StageButtons>
      <Progress stage="rm" st={st} />
      <StageError st={st} />
      <p className="pipeline-numbers">
        BT loss <Num id="pipeline-rm-loss-first" value={st.points[0]?.loss} /> →{" "}
        <Num id="pipeline-rm-loss-last" value={st.points.at(-1)?.loss} /> nats · batch acc.{" "}
        <Num id="pipeline-rm-acc-batch" value={batchAcc} />
        {recent.length > 1 && <span className="muted"> (last {recent.length} steps)</span>}
      </p>
      <p className="pipeline-numbers">
        held-out acc. (labels) <Num id="pipeline-rm-acc-before" value={before?.labelAccuracy} /> →{" "}
        <Num id="pipeline-rm-acc-after" value={after?.labelAccuracy} /> · vs gold{" "}
        <Num id="pipeline-rm-gold-after" value={after?.goldAccuracy} />
        {after && <span className="muted"> ({after.pairs} pairs)</span>}
      </p>
      <p className="muted pipeline-what" data-testid="pipeline-rm-labels">
        Labels are the simulated annotator's, about a quarter of them flipped; gold is the true order. A
        reward model that learns the task agrees with gold more often than with the labels.
      </p>
      <PipelineChart
        rows={rows}
        series={RM_SERIES}
        label="Reward model loss and accuracy per step"
        image={{
          id: "pipeline-rm",
          title: "Reward model: Bradley–Terry loss and accuracies",
          stage: "reward model",
          model: `${sftModel ?? size} + reward head`,
          step: st.points.at(-1)?.step ?? 0,
          steps: st.points.at(-1)?.steps,
        }}
      />
    </section>
  );
}

function RlStage({ busy, ready }: { busy: boolean; ready: boolean }) {
  const rmDone = usePipelineStore((s) => s.rm.status === "done");
  const handedOff = usePipelineStore((s) => s.handedOff);
  const old = usePipelineStore((s) => s.handOffOld === true);
  const weak = usePipelineStore((s) => (s.rm.status === "done" ? rmWeakness(s.rm.result) : null));
  const advice = usePipelineStore((s) => rmAdvice(s.rm.result, s.sft.result?.model));
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
              : `Restart every run from the Pipeline's SFT model, on its reward model? Their training (up to step ${steps}) is discarded: this page cannot keep it (${whyNotKept()}). Export the runs first to keep them.`
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
          {weak} RL will chase its mistakes (reward hacking from the first step): go on to watch it happen.{" "}
          {advice}
        </p>
      )}
      {handedOff && (
        <p className="pipeline-handed" data-testid="pipeline-handed">
          Runs start from <strong>{handedOff}</strong> and optimise its reward model.{" "}
          {old
            ? "Those are the models handed over before, not the ones trained since: Use in RL hands the new ones over."
            : "Press ▶ Play above."}
        </p>
      )}
    </section>
  );
}

/** The ready-made settings (src/lab/pipeline/recipes.ts): a button each, pressed when the settings are its own. */
function Recipes({ busy }: { busy: boolean }) {
  const task = useLab((s) => s.spec.task);
  const settings = usePipelineStore((s) => s.settings);
  const setSettings = usePipelineStore((s) => s.setSettings);
  const current = recipeOf(task, settings);
  const recipes = pipelineRecipes(task);
  return (
    <div className="pipeline-recipes" data-testid="pipeline-recipes">
      <span className="eyebrow">Settings</span>
      {recipes.map((r) => (
        <button
          key={r.id}
          type="button"
          data-testid={`pipeline-recipe-${r.id}`}
          aria-pressed={current === r.id}
          disabled={busy}
          title={r.doc}
          onClick={() => setSettings(r.settings)}
        >
          {r.label}
        </button>
      ))}
      <span className="muted" data-testid="pipeline-recipe-doc">
        {current ? recipes.find((r) => r.id === current)?.doc : "Your own settings (below)."}
      </span>
    </div>
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
      <Recipes busy={busy} />
      <div className="pipeline-stages">
        <SftStage busy={busy} ready={ready} />
        <RmStage busy={busy} ready={ready} />
        <RlStage busy={busy} ready={ready} />
      </div>
    </details>
  );
}
