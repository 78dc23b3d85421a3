/**
 * The lab's commands as the components call them: the one place the UI reaches the training worker's client
 * (src/ui/client.ts). Components never talk to the worker directly; they call these, and read the store.
 * Run-spec bookkeeping that is UI policy (new ids and labels, fork names) lives here too.
 */

import { reloadMayHelp } from "../../lab/browser_error";
import { linkedSettings } from "../../lab/linked_settings";
import type {
  ExperimentSpec,
  PipelineModels,
  PipelineProgress,
  PipelineSettings,
  PipelineStage,
  PipelineStageResult,
  RewardModelInfo,
  RunCounters,
  RunSpec,
  SettingValue,
} from "../../lab/protocol";
import { ALGORITHMS, type AlgoId } from "../../lab/registry";
import { historyMarkProblem } from "../../lab/run_labels";
import { MAX_LABEL } from "../../lab/settings";
import { cleanLabel, labelLooks } from "../../lab/spec_check";
import { errorMessage } from "../../util/errors";
import { labClient } from "../client";
import { sharedSpec, useLab } from "../lab_store";
import { announce } from "./announce";
import { changeSentence } from "./knobs";
import { revealRunCard } from "./reveal";
import { forkSpec, newRunSpec } from "./run_specs";
import { repeatSpecs } from "./seed_repeat";

/** What the lab needs from the worker client. */
export interface LabBackend {
  start(spec: ExperimentSpec, pipeline?: PipelineModels): Promise<void>;
  play(): void;
  pause(): void;
  stepOnce(): Promise<void>;
  reset(): Promise<void>;
  setSpeed(stepsPerSecond: number): void;
  setStopAt(steps: number): void;
  addRun(spec: RunSpec, held?: boolean): Promise<void>;
  removeRun(runId: string): void | Promise<void>;
  renameRun(runId: string, label: string): void | Promise<void>;
  forkRun(runId: string, spec: RunSpec): Promise<void>;
  setConfig(runId: string, patch: Record<string, SettingValue>): Promise<void>;
  exportCheckpoint(runId: string, resume?: boolean): Promise<Uint8Array>;
  exportPolicyOnnx?(runId: string): Promise<Uint8Array>;
  winRate?(runId: string, vs?: string | null): Promise<void>;
  /** Resolves with what the page should be told of the resumed run (a string), or anything else for nothing. */
  loadRunCheckpoint(runId: string, bytes: Uint8Array, at: RunCounters): Promise<unknown>;
  /** Send a run in error back to its last checkpoint; resolves with that step (absent: this backend cannot). */
  rewindRun?(runId: string): Promise<number>;
  /** Check and load a user's ONNX reward model (absent: this backend cannot). */
  loadRewardModel?(bytes: Uint8Array, name: string): Promise<RewardModelInfo>;
  /** The Pipeline view's stages (absent: this backend has none). */
  pipelineStage?(
    stage: PipelineStage,
    settings: Partial<PipelineSettings>,
    onProgress: (p: PipelineProgress) => void,
  ): Promise<PipelineStageResult>;
  handOffPipeline?(): Promise<{ model: string; runs: string[] }>;
  pipelineRmOnnx?(): Promise<Uint8Array>;
  pipelineModels?(): Promise<PipelineModels | null>;
}

let backendPromise: Promise<LabBackend> | null = null;

/**
 * The worker client; or, only under `npm run dev` (or a build made with VITE_LAB_FAKE=1, to profile the UI
 * as users get it) with `?fake` in the URL, synthetic numbers for UI work. The condition starts with the
 * build-time flags so normal production builds drop the fake (and its chunk) entirely.
 */
function backend(): Promise<LabBackend> {
  backendPromise ??=
    (import.meta.env.DEV || import.meta.env.VITE_LAB_FAKE === "1") &&
    new URLSearchParams(location.search).has("fake")
      ? import("./dev_fake").then((m) => m.createFakeBackend())
      : Promise.resolve(labClient);
  return backendPromise;
}

const lab = () => useLab.getState();

/** Report a failed command on the page (the lab's notice line) instead of failing silently. */
function report(what: string) {
  return (e: unknown) => {
    lab().setNotice(`${what} failed: ${errorMessage(e)}`);
  };
}

/** Forks sent to the worker and not answered yet. */
const pendingForks: RunSpec[] = [];
/** Per run, the setting changes sent to the worker and not yet answered (a Duplicate waits for them). */
const configsInFlight = new Map<string, Promise<unknown>>();
/** Resolves once `p` has settled, either way (undefined: at once). */
const settled = (p: Promise<unknown> | undefined) => Promise.allSettled([p]).then(() => {});

export const labActions = {
  /** Start the worker with an experiment (from the URL, IndexedDB or the defaults). Never throws: a failure is the store's phase "error". */
  async start(spec: ExperimentSpec, pipeline?: PipelineModels): Promise<void> {
    try {
      await (await backend()).start(spec, pipeline);
    } catch (e) {
      lab().setPhase("error", errorMessage(e), reloadMayHelp(e));
    }
  },
  play(): void {
    backend().then((b) => b.play(), report("Play"));
  },
  pause(): void {
    backend().then((b) => b.pause(), report("Pause"));
  },
  togglePlay(): void {
    if (lab().playing) labActions.pause();
    else labActions.play();
  },
  stepOnce(): Promise<void> {
    return backend()
      .then((b) => b.stepOnce())
      .catch(report("Step"));
  },
  reset(): Promise<void> {
    return backend()
      .then((b) => b.reset())
      .then(() => announce("Reset: every run is back at step 0, from the start model."))
      .catch(report("Reset"));
  },
  setSpeed(stepsPerSecond: number): void {
    backend().then((b) => b.setSpeed(stepsPerSecond), report("Speed"));
  },
  /** Pause once every run has done `steps` steps (0 = no limit). */
  setStopAt(steps: number): void {
    backend().then((b) => b.setStopAt(steps), report("Stop at step"));
  },
  /** Add a given run (an imported one; `held` until its checkpoint is loaded); rejects when the worker refuses it. */
  async addRunSpec(spec: RunSpec, held?: boolean): Promise<void> {
    await (await backend()).addRun(spec, held);
  },
  /** Add a run of `algo` at its defaults but for the settings the lab's runs share (run_specs.ts sharedConfig). */
  addRun(algo: AlgoId): Promise<void> {
    const spec = newRunSpec([...lab().spec.runs, ...pendingForks], algo, [
      ...sharedSpec(lab()).runs,
      ...pendingForks,
    ]);
    return backend()
      .then((b) => b.addRun(spec))
      .then(() => revealRunCard(spec.id))
      .catch(report(`Adding ${spec.label}`));
  },
  /**
   * Rename a run (its card, the legend, the link, exports). The name is cleaned as a link's labels are (no
   * control or invisible characters, at most MAX_LABEL characters).
   * @throws Error naming the problem: an empty or too long name, one another run has, or one ending as a fork's or
   *   import's mark (historyMarkProblem).
   */
  async renameRun(runId: string, raw: string): Promise<void> {
    const label = cleanLabel(raw);
    if (label === null)
      throw new Error(`A run's name needs 1 to ${MAX_LABEL} characters (letters, digits, spaces, symbols).`);
    const marked = historyMarkProblem(label);
    if (marked) throw new Error(marked);
    const looks = labelLooks(label);
    const other = lab().spec.runs.find((r) => r.id !== runId && labelLooks(r.label) === looks);
    if (other)
      throw new Error(
        other.label === label
          ? `Another run is called “${label}”: pick a name that tells them apart.`
          : `“${label}” looks like “${other.label}”, another run's name: pick a name that tells them apart.`,
      );
    await (await backend()).renameRun(runId, label);
  },
  /** Remove a run; resolves once it is gone from the store and the worker (never rejects: a notice says why). */
  removeRun(runId: string): Promise<void> {
    const label = lab().runs[runId]?.spec.label ?? runId;
    return backend()
      .then((b) => b.removeRun(runId))
      .then(() => announce(`Removed ${label}.`))
      .catch(report("Removing the run"));
  },
  /**
   * A run in error goes back to its last checkpoint (taken every few steps; the start model before the first),
   * so that it can train on, e.g. with a lower learning rate; the lab pauses first. Never rejects: a notice
   * says what happened.
   */
  rewindRun(runId: string): Promise<void> {
    const label = lab().runs[runId]?.spec.label ?? runId;
    return backend()
      .then(async (b) => {
        if (!b.rewindRun) throw new Error("this lab cannot rewind runs");
        // Paused, so that the user can change a setting before it trains on (else it may fail the same way).
        if (lab().playing) b.pause();
        await b.rewindRun(runId);
      })
      .catch(report(`Sending ${label} back to its last checkpoint`));
  },
  /**
   * A run whose reward failed while scoring (its error `retryable`) tries that step again where it is; the other
   * runs go on (playing, it takes its turn again). Never rejects: a notice says what happened.
   */
  retryStep(runId: string): Promise<void> {
    const label = lab().runs[runId]?.spec.label ?? runId;
    return backend()
      .then(async (b) => {
        if (!b.rewindRun) throw new Error("this lab cannot retry steps");
        await b.rewindRun(runId); // the worker only lifts a retryable error: no rewind
      })
      .catch(report(`Trying ${label}'s step again`));
  },
  /**
   * Duplicate a run from its current state. Settings changed on its card just before (still on their way to
   * the worker, which applies them between steps) are waited for, so the copy has the settings the card shows.
   */
  forkRun(runId: string): Promise<void> {
    return settled(configsInFlight.get(runId)).then(() => {
      const run = lab().runs[runId];
      if (!run) return;
      // Its id and colour are taken until the worker answers (a step later on a slow GPU): a run added or forked
      // meanwhile gets others.
      const spec = forkSpec([...lab().spec.runs, ...pendingForks], run.spec, run.step);
      pendingForks.push(spec);
      return backend()
        .then((b) => b.forkRun(runId, spec))
        .then(() => revealRunCard(spec.id))
        .catch(report(`Duplicating ${run.spec.label}`))
        .finally(() => pendingForks.splice(pendingForks.indexOf(spec), 1));
    });
  },
  /**
   * "Repeat on other seeds": copies of a run (same algorithm and settings, from the start model) on the next
   * seeds no identical run trains on (seed_repeat.ts), as many as the run limit leaves room for; a notice says
   * when that was fewer. Never rejects: a notice says what failed.
   */
  repeatOnSeeds(runId: string): Promise<void> {
    const run = lab().runs[runId];
    if (!run) return Promise.resolve();
    const { specs, sourceSeed, note } = repeatSpecs(
      [...lab().spec.runs, ...pendingForks],
      [...sharedSpec(lab()).runs, ...pendingForks],
      run.spec,
      lab().spec.seed,
    );
    if (note) lab().setNotice(note);
    // The source keeps the seed it trains on (the experiment's) as its own: Change… then moves none onto a copy's.
    if (sourceSeed !== null) lab().upsertRun({ ...run.spec, seed: sourceSeed });
    pendingForks.push(...specs);
    return backend()
      .then(async (b) => {
        for (const spec of specs) await b.addRun(spec);
      })
      .then(() => {
        if (!specs.length) return;
        announce(
          `Added ${specs.map((s) => s.label).join(" and ")}: ${run.spec.label}'s settings on other seeds.`,
        );
        revealRunCard(specs[0].id);
      })
      .catch(report(`Repeating ${run.spec.label} on other seeds`))
      .finally(() => {
        for (const spec of specs) pendingForks.splice(pendingForks.indexOf(spec), 1);
      });
  },
  /**
   * Change settings, with the settings that follow them (lab/linked_settings.ts); applies at the run's next
   * step. Rejects with the worker's message on an invalid value.
   */
  async setConfig(runId: string, patch: Record<string, SettingValue>): Promise<void> {
    const run = lab().runs[runId];
    const linked = run ? linkedSettings(run.spec, patch) : patch;
    const sent = backend().then((b) => b.setConfig(runId, linked));
    const all = Promise.allSettled([configsInFlight.get(runId), sent]);
    configsInFlight.set(runId, all);
    void all.then(() => {
      if (configsInFlight.get(runId) === all) configsInFlight.delete(runId);
    });
    await sent;
    // The card shows the new value at once; what it did (and when it applies) is said.
    if (run)
      announce(
        changeSentence(
          run.spec.label,
          ALGORITHMS[run.spec.algo]?.fields ?? [],
          run.spec.config,
          linked,
          run.step > 0,
        ),
      );
  },
  /** Measure a run's win rate over the start model, or over run `vs` (the store's winRates show it). */
  winRate(runId: string, vs: string | null = null): Promise<void> {
    return backend()
      .then((b) => (b.winRate ? b.winRate(runId, vs) : Promise.reject(new Error("not available here"))))
      .catch(report("Win rate"));
  },
  async exportCheckpoint(runId: string, resume = false): Promise<Uint8Array> {
    return (await backend()).exportCheckpoint(runId, resume);
  },
  /** The run's policy as ONNX bytes (built in the worker). */
  async exportPolicyOnnx(runId: string): Promise<Uint8Array> {
    const b = await backend();
    if (!b.exportPolicyOnnx) throw new Error("ONNX export is not available here");
    return b.exportPolicyOnnx(runId);
  },
  /** Resume a run from saved weights (IndexedDB, an imported checkpoint): what to tell the page, or null. */
  async loadRunCheckpoint(runId: string, bytes: Uint8Array, at: RunCounters): Promise<string | null> {
    const told = await (await backend()).loadRunCheckpoint(runId, bytes, at);
    return typeof told === "string" ? told : null;
  },
  /** Train a Pipeline stage; every step goes to `onProgress`. Rejects with the worker's message. */
  async pipelineStage(
    stage: PipelineStage,
    settings: Partial<PipelineSettings>,
    onProgress: (p: PipelineProgress) => void,
  ): Promise<PipelineStageResult> {
    const b = await backend();
    if (!b.pipelineStage) throw new Error("this lab has no pipeline");
    return b.pipelineStage(stage, settings, onProgress);
  },
  /** Hand the Pipeline's models to the runs (start model, reward "pipeline"). */
  async handOffPipeline(): Promise<{ model: string; runs: string[] }> {
    const b = await backend();
    if (!b.handOffPipeline) throw new Error("this lab has no pipeline");
    return b.handOffPipeline();
  },
  /** The Pipeline's reward model as .onnx bytes. */
  async pipelineRmOnnx(): Promise<Uint8Array> {
    const b = await backend();
    if (!b.pipelineRmOnnx) throw new Error("this lab has no pipeline");
    return b.pipelineRmOnnx();
  },
  /** The Pipeline's models as arrays (null: none trained, or a backend without a pipeline). */
  async pipelineModels(): Promise<PipelineModels | null> {
    const b = await backend();
    return b.pipelineModels ? b.pipelineModels() : null;
  },
  /** Check and load a user's ONNX reward model; rejects with what is wrong with the file. */
  async loadRewardModel(bytes: Uint8Array, name: string): Promise<RewardModelInfo> {
    const b = await backend();
    if (!b.loadRewardModel) throw new Error("this lab cannot load reward models");
    return b.loadRewardModel(bytes, name);
  },
};
