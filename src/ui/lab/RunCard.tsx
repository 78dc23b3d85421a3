/**
 * One run: colour, label, algorithm, status (with the error text), step, duplicate/remove, and every
 * hyperparameter of its algorithm as a control. Algorithm-specific settings come first; the shared sampling
 * and optimiser settings fold away below them.
 */
import { useMemo } from "react";
import { COMMON_FIELDS, type Field } from "../../algorithms/fields";
import { REWARD_LEARNERS } from "../../lab/algo_ids";
import { startRoom } from "../../lab/experiment_change";
import { trlNames } from "../../lab/export/trl_names";
import { ALGORITHMS } from "../../lab/registry";
import { seedNote } from "../../lab/seed_labels";
import { RUN_KEYS, RUN_SEED_FIELD, TOO_MANY_RUNS } from "../../lab/settings";
import { ExplainButton } from "../explain/ExplainButton";
import { int } from "../format";
import { labFull, labStarted, useLab } from "../lab_store";
import { labActions } from "./actions";
import { ConfirmButton } from "./ConfirmButton";
import { ExportMenu } from "./ExportMenu";
import { FieldControl } from "./FieldControl";
import { forkedNote } from "./forked_note";
import { CloseIcon, CopyIcon, DieIcon, LockIcon } from "./icons";
import {
  adaptiveBetaNote,
  fieldForTask,
  lengthNote,
  lockedSummary,
  lockReason,
  rewardNote,
  settingOf,
  simpoBetaNote,
  unusedReason,
  upperClipNote,
} from "./knobs";
import { noSignalNote } from "./no_signal";
import type { RunLook } from "./palette";
import { usePipelineStore } from "./pipeline_store";
import { RunName } from "./RunName";
import { missingRewards, useRewardModels } from "./reward_models";
import { noWeightsReason, reloadOnly, restartHint, rewindTitle } from "./run_error";
import { twinNote } from "./run_specs";
import { StepProgressLine } from "./StepProgressLine";
import { REPEAT_SEEDS } from "./seed_repeat";
import { stripItems } from "./strip_view";
import { WinRate } from "./WinRate";

const COMMON_KEYS = new Set(COMMON_FIELDS.map((f) => f.key));

const STATUS_TEXT = {
  ready: "ready",
  running: "running",
  paused: "paused",
  error: "error",
  stepping: "stepping…",
  waiting: "waiting…",
  finishing: "finishing step…",
  recovering: "recovering…",
  comparison: "comparison",
  starting: "starting…",
  "not started": "not started",
  stopped: "stopped",
} as const;

/** What a run's own seed means, for its "seed N" (the settings table's words). */
const SEED_TITLE = `${RUN_SEED_FIELD.doc} It stays when Change… gives the experiment another seed.`;

/** What "Repeat on other seeds" does, for its title. */
const REPEAT_TITLE = `Repeat on other seeds: add ${REPEAT_SEEDS} copies of this run (same algorithm and settings, from the start model, not from its current state) on the next seeds no identical run uses, so ${REPEAT_SEEDS + 1} seeds in all. The start model stays the experiment's; the seed changes the prompt order and the sampling. The seeds summary under the charts then shows their spread.`;

/** The step in a duplicate's label ("PPO (fork @ 12)": 12). */
const FORK_AT = /\(fork @ (\d+)\)$/;

/** What a duplicate's label means, for its title. */
function forkTitle(step: string, source: string | null): string {
  return `a duplicate${source ? ` of ${source}` : ""} made at step ${step}, with its weights, optimizer state and settings then (it trains on from there)`;
}

/** The card that takes a removed run's place for the keyboard: the next one, else the one before, else "+ Add run". */
function cardAfterRemoving(runId: string): HTMLElement | null {
  const card = document.querySelector<HTMLElement>(`[data-testid="run-card-${CSS.escape(runId)}"]`);
  const cards = card?.parentElement ? stripItems(card.parentElement) : [];
  const at = card ? cards.indexOf(card) : -1;
  return cards[at + 1] ?? cards[at - 1] ?? document.querySelector<HTMLElement>('[data-testid="add-run"]');
}

export function RunCard({ runId, look }: { runId: string; look: RunLook }) {
  const handedOff = usePipelineStore((s) => s.handedOff);
  const run = useLab((s) => s.runs[runId]);
  const progress = useLab((s) => s.stepProgress[runId]);
  const phase = useLab((s) => s.phase);
  // The lab had started when its worker stopped: its runs stopped, they were started.
  const labUp = useLab(labStarted);
  const canEdit = phase === "ready";
  const full = useLab(labFull);
  const task = useLab((s) => s.spec.task);
  const experimentSeed = useLab((s) => s.spec.seed);
  // The experiment the knobs belong to: a new task, start model or seed (Change…) remounts them, so a refusal
  // shown under one does not stay over the restarted run.
  const experiment = useLab((s) => `${s.spec.task}|${s.spec.model}|${s.spec.seed}`);
  // Completion tokens the start model leaves (a Pipeline hand-off brings its own context).
  const room = useLab((s) => startRoom(s.spec.task, s.spec.model, handedOff));
  // Step pressed and this run's step not taken yet (on a software GPU that can be minutes).
  const stepping = useLab((s) => {
    const from = s.steppingFrom?.[runId];
    return from !== undefined && (s.runs[runId]?.step ?? 0) <= from;
  });
  // A string (or null), so the card re-renders only when the note itself changes. The worker's model description
  // says "(random init" for a preset or the fallback when the shipped model is missing (not after a hand-off).
  const twin = useLab((s) => {
    const r = s.runs[runId];
    const from = r?.spec.forkOf?.id;
    return r && from ? twinNote(r, s.runs[from], s.spec.seed) : null;
  });
  const forkSource = useLab((s) => {
    const from = s.runs[runId]?.spec.forkOf?.id;
    return from ? (s.runs[from]?.spec.label ?? null) : null;
  });
  const noSignal = useLab((s) => {
    const r = s.runs[runId];
    return r && REWARD_LEARNERS.has(r.spec.algo)
      ? noSignalNote(r.history, /\(random init/.test(s.model ?? ""))
      : null;
  });
  // What TRL calls each knob for this run's class (the card re-renders every step; its settings rarely change).
  const algoId = run?.spec.algo;
  const config = run?.spec.config;
  const trl = useMemo(() => (algoId && config ? trlNames(algoId, config) : {}), [algoId, config]);
  // Reward choices with nothing behind them yet are offered disabled, saying what to do first.
  const customLoaded = useRewardModels((s) => s.custom !== null);
  const rewardsMissing = useMemo(
    () => missingRewards(customLoaded, handedOff !== null),
    [customLoaded, handedOff],
  );
  if (!run) return null;
  // "PPO (fork @ 12)" is jargon: its title says what the mark means.
  const forkAt = FORK_AT.exec(run.spec.label)?.[1];
  // Imported without weights: curves only, nothing in the worker to train, fork, evaluate or export.
  const frozen = run.comparison === true;
  // Under Step the runs train one after another: the one on the device reads "stepping…" (the worker says
  // "finishing" while paused), the others "waiting…" (their turn comes).
  // Before the lab is up, no run is ready for anything (the worker holds none yet), nor after it failed to start.
  const shown = frozen
    ? "comparison"
    : phase === "error"
      ? labUp
        ? "stopped"
        : "not started"
      : phase !== "ready"
        ? "starting"
        : stepping && run.status === "finishing"
          ? "stepping"
          : stepping && (run.status === "ready" || run.status === "paused")
            ? "waiting"
            : run.status;
  const algo = ALGORITHMS[run.spec.algo];
  const started = run.step > 0;
  // A run that could not start has no checkpoint: a change of its settings starts it again.
  const restart = restartHint(run);
  // The run's reward source first, then the algorithm's own settings.
  const lab = algo.fields.filter((f) => RUN_KEYS.has(f.key));
  const own = [...lab, ...algo.fields.filter((f) => !COMMON_KEYS.has(f.key) && !RUN_KEYS.has(f.key))];
  const shared = algo.fields.filter((f) => COMMON_KEYS.has(f.key));
  const locked = frozen ? null : lockedSummary(algo.fields, started);
  const control = (f: Field) => {
    // A setting another one switches off (SimPO's γ under another loss) is greyed out, saying which one.
    const unused = unusedReason(f, algo.fields, run.spec.config);
    return (
      <FieldControl
        key={`${f.key}|${experiment}`}
        runId={runId}
        field={fieldForTask(f, task)}
        value={settingOf(f, run.spec.config)}
        trl={trl[f.key]}
        unavailable={f.key === "reward" ? rewardsMissing : undefined}
        locked={lockReason(f, started)}
        disabled={!canEdit || frozen || unused !== null}
        note={
          unused ??
          (f.key === "beta"
            ? (adaptiveBetaNote(run) ?? simpoBetaNote(run.spec.algo, run.spec.config))
            : f.key === "maxNewTokens"
              ? lengthNote(settingOf(f, run.spec.config), room)
              : f.key === "reward"
                ? rewardNote(run.spec.algo, run.spec.config)
                : f.key === "epsilonHigh"
                  ? upperClipNote(algo.fields, run.spec.config)
                  : null)
        }
      />
    );
  };
  return (
    <article
      className={`run-card run-${run.status}${look.dotted ? " run-dotted" : ""}`}
      style={{ "--run-colour": look.colour } as React.CSSProperties}
      data-testid={`run-card-${runId}`}
      data-status={run.status}
      data-step={run.step}
      data-strip-item
      // Focusable by script only: where the keyboard lands when the card before it is removed.
      tabIndex={-1}
      aria-label={`${run.spec.label} run`}
    >
      <header className="run-head">
        <span className="swatch" aria-hidden="true" />
        <div className="run-title">
          <RunName
            runId={runId}
            label={run.spec.label}
            title={forkAt ? `${run.spec.label}: ${forkTitle(forkAt, forkSource)}` : run.spec.label}
            disabled={!canEdit}
          />
          {/* The algorithm, unless the name already starts with it ("GRPO (fork @ 1)" needs no second "GRPO"). */}
          {!(run.spec.label === algo.title || run.spec.label.startsWith(`${algo.title} `)) && (
            <span className="muted run-algo">{algo.title}</span>
          )}
        </div>
        <div className="run-buttons">
          <ExplainButton
            algo={run.spec.algo}
            config={run.spec.config}
            runLabel={run.spec.label}
            className="icon-button explain-open"
            title={`Explain ${algo.title}: how it works, its objective, knobs and papers`}
            testId={`explain-${runId}`}
          >
            ?
          </ExplainButton>
          <ExportMenu
            runId={runId}
            label={run.spec.label}
            disabled={!canEdit}
            noWeights={noWeightsReason(run)}
          />
          <button
            type="button"
            className="icon-button"
            title={
              full ? TOO_MANY_RUNS : "Duplicate this run from its current state (weights, optimizer, step)"
            }
            aria-label={`Duplicate ${run.spec.label}`}
            data-testid={`fork-${runId}`}
            disabled={!canEdit || frozen || full}
            onClick={() => labActions.forkRun(runId)}
          >
            <CopyIcon />
          </button>
          <button
            type="button"
            className="icon-button"
            title={full ? TOO_MANY_RUNS : REPEAT_TITLE}
            aria-label={`Repeat ${run.spec.label} on ${REPEAT_SEEDS} other seeds`}
            data-testid={`repeat-seeds-${runId}`}
            disabled={!canEdit || frozen || full}
            onClick={() => void labActions.repeatOnSeeds(runId)}
          >
            <DieIcon />
          </button>
          <ConfirmButton
            className="icon-button"
            title="Remove this run"
            aria-label={`Remove ${run.spec.label}`}
            testId={`remove-${runId}`}
            disabled={!canEdit}
            confirm={
              run.step > 0
                ? `Remove ${run.spec.label}? Its ${run.step} step${run.step === 1 ? "" : "s"} of training${forkedNote(run.spec.forkOf, run.step)} and its chart lines are discarded (export it first to keep them).`
                : null
            }
            confirmLabel="Remove"
            onConfirm={() => labActions.removeRun(runId)}
            focusAfter={() => cardAfterRemoving(runId)}
          >
            <CloseIcon />
          </ConfirmButton>
        </div>
      </header>
      <p className="run-state">
        <span
          className={`status status-${shown === "stepping" || shown === "finishing" ? "running" : shown === "comparison" || shown === "waiting" || shown === "starting" || shown === "not started" || shown === "stopped" || shown === "recovering" ? "paused" : shown}`}
          data-testid={`status-${runId}`}
          title={
            shown === "waiting"
              ? "Waiting its turn: the runs take their steps one at a time on the one GPU"
              : shown === "recovering"
                ? "The GPU device was lost: the lab is getting a new one, then this run goes on from its last checkpoint"
                : undefined
          }
        >
          {STATUS_TEXT[shown]}
        </span>
        <span className="run-step">
          step <strong data-testid={`step-${runId}`}>{int(run.step)}</strong>
        </span>
        {!frozen && seedNote(run.spec, experimentSeed) && (
          <span className="run-seed" data-testid={`seed-${runId}`} title={SEED_TITLE}>
            {seedNote(run.spec, experimentSeed)}
          </span>
        )}
      </p>
      {progress && (shown === "running" || shown === "stepping" || shown === "finishing") && (
        <StepProgressLine runId={runId} step={run.step} progress={progress} />
      )}
      {run.error && (
        <div className="run-error" role="alert" data-testid={`error-${runId}`}>
          <p>{run.error}</p>
          {!frozen && run.status === "error" && (
            <p className="run-error-actions">
              {run.retryable ? (
                <button
                  type="button"
                  data-testid={`retry-${runId}`}
                  disabled={!canEdit}
                  title="The step failed while scoring its samples, before any update: the run is as it was. Load the reward model again or choose another reward, then try the step again."
                  onClick={() => void labActions.retryStep(runId)}
                >
                  Try the step again
                </button>
              ) : reloadOnly(run) ? (
                <button
                  type="button"
                  data-testid={`reload-${runId}`}
                  title="A reload asks the browser for a new GPU device; the runs saved in this browser come back from where they were saved"
                  onClick={() => location.reload()}
                >
                  Reload the page
                </button>
              ) : restart ? (
                <span className="muted" data-testid={`restart-hint-${runId}`} title={restart.title}>
                  {restart.text}
                </span>
              ) : (
                <button
                  type="button"
                  data-testid={`rewind-${runId}`}
                  disabled={!canEdit}
                  title={rewindTitle(run.errorKind)}
                  onClick={() => void labActions.rewindRun(runId)}
                >
                  Back to its last checkpoint
                </button>
              )}
            </p>
          )}
        </div>
      )}
      {/* A live region that is always there: the hint, arriving mid-run, is read out (the main diagnostic). */}
      <div role="status">
        {noSignal && run.status !== "error" && (
          <p className="run-hint" data-testid={`no-signal-${runId}`}>
            {noSignal}
          </p>
        )}
      </div>
      {twin && (
        <p className="run-hint" data-testid={`twin-${runId}`}>
          {twin}
        </p>
      )}
      {frozen && (
        <p className="run-hint" data-testid={`comparison-${runId}`}>
          Imported for comparison: its curves are drawn, but no weights of it were loaded here (none picked,
          or from another experiment: the import notice said why), so nothing trains it and its settings are
          shown as they were. Shared links leave it out.
        </p>
      )}
      <WinRate runId={runId} disabled={!canEdit || frozen} />
      {locked && (
        <p className="knob-lock-note" data-testid={`locked-${runId}`}>
          <LockIcon /> {locked}
        </p>
      )}
      <div className="knobs">{own.map(control)}</div>
      <details className="knobs-more">
        <summary>Sampling &amp; optimiser ({shared.length})</summary>
        <div className="knobs">{shared.map(control)}</div>
      </details>
    </article>
  );
}
