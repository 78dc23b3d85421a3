/**
 * The page side of the training worker: starts src/lab/worker.ts (a module Web Worker with its own GPU
 * device), wraps it with comlink, forwards its RunUpdates into the lab store (src/ui/lab_store.ts;
 * ./client_updates.ts) and offers the commands the UI calls. Every command keeps the store and the worker
 * consistent: the store changes only in step with the worker (a rejected command leaves the store as it was).
 * No training work happens on the main thread: the worker sends small batched updates (≤ 4 a second, ≤ 8
 * samples per run), each one only after the page has painted the previous one (backpressure: a slow page gets
 * fewer, larger updates, never a backlog).
 *
 * API (`labClient`, or `new LabClient()`; fits src/ui/lab/actions.ts's LabBackend):
 *   start(spec)              create the worker, load task + model, create the runs. Store: setSpec(spec),
 *                            phase "loading" → "ready" (model, notices) or "error" (phaseError says why).
 *                            Calling it again replaces the worker and the experiment.
 *   play() / pause()         store.playing follows at once; the runs' statuses follow through updates.
 *   stepOnce()               one step of every run (the runs one step behind first), then paused (store.stepsQueued).
 *   reset()                  every run back to the start model; history, markers and samples cleared.
 *   setSpeed(stepsPerSecond) per-run step cap, 0 = as fast as the GPU goes.
 *   setStopAt(steps)         pause once every run has done `steps` steps (0 = never); kept in the spec (URL).
 *   addRun(spec, held?)      the run appears in the store at once ("ready"); removed again if the worker refuses.
 *                            A DPO run gets mode "online" when the task ships no preference dataset. held: not
 *                            stepped until loadRunCheckpoint (an import).
 *   removeRun(id)            from the store and the worker; the last run that trains gone, the lab pauses.
 *   renameRun(id, label)     the store at once; the worker in turn, after a step in flight.
 *   forkRun(id, spec)        a copy of run `id` from its current state (weights, AdamW moments, step count)
 *                            under `spec`; the store copies the source's history and markers to it.
 *   setConfig(id, patch)     applies at the run's next step (the worker records a marker); before the run's
 *                            first step it rebuilds the run, so any setting may change. Rejects with the
 *                            field's message on an invalid value; the store changes only on success.
 *   winRate(id, vs?)         the run's win rate over the start model or run `vs` (held-out prompts, gold, 95 % CI).
 *   exportCheckpoint(id, resume?)  the run's policy as safetensors bytes (resume: with its AdamW states).
 *   exportPolicyOnnx(id)     the run's policy as ONNX (next-token logits; src/onnx/policy_export.ts).
 *   loadRunCheckpoint(id, bytes, at)  resume a run from saved weights (IndexedDB) after step at.step.
 *   rewindRun(id)            a run in error back to its last checkpoint (its error cleared).
 *   pipelineStage, stopPipelineStage, handOffPipeline, pipelineRmOnnx, pipelineModels: ./client_pipeline.ts.
 *   start(spec, pipeline?)   with saved Pipeline models (a reload), runs with reward "pipeline" keep it.
 *   loadRewardModel(bytes, name)  check and load a user's ONNX reward model (reward "custom"); rejects with
 *                            what is wrong with the file. A new worker has none: start() moves runs that
 *                            optimised "custom" to the gold scorer, with a notice.
 *   stats                    { updates, firstUpdateAt, lastUpdateAt } (ms, performance.now()): update rates.
 *   dispose()                stop the worker.
 * Errors the user can act on: a run's error (non-finite metric: metric and step named) is in its RunState;
 * device loss and start-up fallbacks arrive as the store's notice; a worker that stops answering, the lab's error.
 */
import * as Comlink from "comlink";
import { reloadMayHelp } from "../lab/browser_error";
import type {
  ExperimentSpec,
  LabWorkerApi,
  PipelineModels,
  PipelineProgress,
  PipelineSettings,
  PipelineStage,
  PipelineStageResult,
  RewardModelInfo,
  RunCounters,
  RunSpec,
  SettingValue,
} from "../lab/protocol";
import { ALGORITHMS } from "../lab/registry";
import { stepOnceIds } from "../lab/run_slot";
import { customRewardsToGold } from "../lab/settings";
import { errorMessage as message } from "../util/errors";
import { showFork } from "./client_fork";
import {
  afterStopAt,
  allAtStop,
  withoutStopSentence,
  withoutTrainingAsks,
  withStopSentence,
} from "./client_notices";
import * as pipelineCommands from "./client_pipeline";
import { type ClientStats, stageReceiver, updateReceiver, withoutWorkerNotice } from "./client_updates";
import { notReady, refreshCustomModel, showStarted, spawnTrainingWorker, workerWatch } from "./client_worker";
import { reloadForEdit } from "./hot_reload";
import { usePipelineStore } from "./lab/pipeline_store";
import { useRewardModels } from "./lab/reward_models";
import { useLab } from "./lab_store";
import { watchWorker } from "./worker_watch";

/** Held-out prompts a run's win rate is measured on (a 95 % CI of about ±12 points). */
export const WIN_RATE_PROMPTS = 64;

export { HANDED_OFF_LINE, STAGE_PAUSED_LINE } from "./client_notices";
export type { ClientStats } from "./client_updates";

export class LabClient {
  private worker: Worker | null = null;
  private api: Comlink.Remote<LabWorkerApi> | null = null;
  /** Stops watching the started worker (./worker_watch.ts). */
  private unwatch = () => {};
  /** Bumped by every start(): updates and results of an older worker are ignored. */
  private generation = 0;
  /** Bumped by every Step and by Play: only the latest Step clears the cards' "stepping" state. */
  private stepGen = 0;
  /** Bumped when the Steps queued are dropped (Play, Reset, a new worker): older Steps no longer count down. */
  private queueGen = 0;
  /** Whether the task ships a preference dataset (from init). */
  private preferences = true;
  /** Removals so far, by run id: a fork's round trip tells its source from a new run that took its id. */
  private removals = new Map<string, number>();
  readonly stats: ClientStats = { updates: 0, firstUpdateAt: null, lastUpdateAt: null };

  private get store() {
    return useLab.getState();
  }

  /** @throws when the worker cannot start (the store's phase is "error" with the same message). */
  async start(opened: ExperimentSpec, pipeline?: PipelineModels): Promise<void> {
    this.dispose();
    const gen = ++this.generation;
    this.dropQueuedSteps();
    useRewardModels.getState().setCustom(null);
    usePipelineStore.getState().clear();
    const { spec, changed: lostRm } = customRewardsToGold(opened, pipeline?.handed != null);
    const s = this.store;
    s.setSpec(spec);
    s.setPlaying(false);
    s.setModel(null);
    s.setPhase("loading");
    const { worker, api, died } = spawnTrainingWorker();
    this.worker = worker;
    this.api = api;
    // Applied while this worker is the current one; acknowledged once the page has painted them (the worker
    // sends the next batch only then: ./client_updates.ts).
    const current = () => gen === this.generation;
    const onUpdate = updateReceiver(current, this.stats, () => refreshCustomModel(api, current));
    try {
      const base = new URL(import.meta.env.BASE_URL, document.baseURI).href;
      const onStage = stageReceiver(current);
      const info = await Promise.race([api.init(spec, onUpdate, base, pipeline, onStage), died]);
      if (gen !== this.generation) return;
      this.preferences = info.preferences;
      showStarted(info, spec, opened, pipeline, lostRm, (r) => this.withDataMode(r));
      s.setPhase("ready");
      this.unwatch = watchWorker(worker, () => api.ping(), workerWatch(current));
      // A Speed or Stop at changed while the worker started (a lesson's "Free play" pressed while loading): sent
      // now, in the same turn as the phase changed, so a change after this goes by itself.
      const speed = this.store.speed;
      if (speed) void api.setSpeed(speed);
      const stopAt = this.store.spec.steps ?? 0;
      if (stopAt !== (spec.steps ?? 0)) void api.setStopAt(stopAt);
    } catch (e) {
      if (gen !== this.generation) return;
      s.setPhase("error", message(e), reloadMayHelp(e));
      this.dispose();
      throw e;
    }
  }

  play(): void {
    // Not while saved runs are being restored (lab_store.ts restoring): the page's Play is disabled then too.
    if (!this.api || this.store.phase !== "ready" || this.store.restoring) return;
    const stopAt = this.store.spec.steps ?? 0;
    if (allAtStop(Object.values(this.store.runs), stopAt)) {
      this.store.setNotice(withStopSentence(this.store.notice, stopAt));
      return;
    }
    this.dropUntilTraining();
    this.stepGen++;
    this.dropQueuedSteps();
    this.store.setStepping(null); // Play takes over from a Step in progress
    this.store.setPlaying(true);
    void this.api.play();
  }

  pause(): void {
    this.store.setPlaying(false);
    void this.api?.pause();
  }

  async stepOnce(): Promise<void> {
    const api = this.need();
    if (this.store.restoring) return;
    this.store.setPlaying(false);
    this.dropUntilTraining();
    const s = this.store;
    // The runs this Step will train (the worker plans the same after any step in flight has landed).
    const runs = Object.values(s.runs);
    const ids = new Set(
      stepOnceIds(runs.map((r) => ({ id: r.spec.id, step: r.step, runnable: r.status !== "error" }))),
    );
    s.setStepping(Object.fromEntries(runs.filter((r) => ids.has(r.spec.id)).map((r) => [r.spec.id, r.step])));
    const gen = ++this.stepGen;
    const queue = this.queueGen;
    this.store.setStepsQueued(this.store.stepsQueued + 1);
    try {
      await api.stepOnce();
    } finally {
      if (queue === this.queueGen) this.store.setStepsQueued(Math.max(0, this.store.stepsQueued - 1));
      // A later Step (queued behind this one) or Play owns the cards' state now.
      if (gen === this.stepGen) this.store.setStepping(null);
    }
  }

  /**
   * Training on: a "reached the stop step" or "Press Play to train" sentence from before no longer holds (the
   * notice's other sentences may: they stay).
   */
  private dropUntilTraining(): void {
    const notice = this.store.notice;
    const rest = withoutTrainingAsks(notice);
    if (rest !== notice) this.store.setNotice(rest);
  }

  /** The worker drops the Steps queued (Play, Reset) or is gone (a new one): none is waiting any more. */
  private dropQueuedSteps(): void {
    this.queueGen++;
    this.store.setStepsQueued(0);
  }

  async reset(): Promise<void> {
    const api = this.need();
    this.store.setPlaying(false);
    this.dropQueuedSteps();
    await api.reset();
    this.store.clearProgress();
    // Every run is back at step 0: "every run has reached the stop step" (Play refused before) holds no more,
    // nor where the worker said runs went on (a lost device's recovery, which a Reset waits for).
    const notice = withoutStopSentence(withoutWorkerNotice(this.store.notice, this.stats));
    if (notice !== this.store.notice) this.store.setNotice(notice);
  }

  setSpeed(stepsPerSecond: number): void {
    if (!Number.isFinite(stepsPerSecond) || stepsPerSecond < 0)
      throw new RangeError(`speed must be ≥ 0 steps/s, got ${stepsPerSecond}`);
    this.store.setSpeed(stepsPerSecond);
    // While the worker starts, start() sends the store's speed once it is up.
    if (this.store.phase === "ready") void this.api?.setSpeed(stepsPerSecond);
  }

  /** Pause once every run has done `steps` steps (0 = no limit); the experiment (and the URL) keeps it. */
  setStopAt(steps: number): void {
    if (!Number.isInteger(steps) || steps < 0)
      throw new RangeError(`the step limit must be a whole number ≥ 0, got ${steps}`);
    this.store.setStopAt(steps);
    // While the worker starts, the store keeps it and start() sends it once the worker is up.
    if (this.store.phase === "ready") void this.api?.setStopAt(steps);
    const s = this.store;
    const notice = afterStopAt(s.notice, steps, s.playing, allAtStop(Object.values(s.runs), steps));
    if (notice !== s.notice) s.setNotice(notice);
  }

  /**
   * Measure a run's win rate over the start model (`vs` null) or another run on `prompts` held-out prompts
   * (between steps); the store's winRates follow ("measuring", then the result or the error).
   */
  async winRate(runId: string, vs: string | null = null, prompts = WIN_RATE_PROMPTS): Promise<void> {
    const api = this.need();
    this.store.setWinRate(runId, { status: "measuring" });
    try {
      this.store.setWinRate(runId, { status: "done", result: await api.winRate(runId, prompts, vs) });
    } catch (e) {
      this.store.setWinRate(runId, { status: "error", message: message(e) });
    }
  }

  async addRun(added: RunSpec, held = false): Promise<void> {
    const api = this.need();
    const spec = this.withDataMode(added);
    if (this.store.runs[spec.id]) throw new RangeError(`a run "${spec.id}" already exists`);
    this.store.upsertRun(spec);
    try {
      await api.addRun(spec, held);
    } catch (e) {
      this.store.removeRun(spec.id);
      throw e;
    }
  }

  /**
   * The store takes the name at once; the worker names the run so in its messages once it gets to it (after a
   * step in flight: not waited for, the name is the page's).
   */
  renameRun(runId: string, label: string): void {
    this.store.setRunLabel(runId, label);
    this.api?.renameRun(runId, label).catch(() => {});
  }

  /** Out of the store at once; resolves when the worker has dropped it too. */
  async removeRun(runId: string): Promise<void> {
    this.removals.set(runId, (this.removals.get(runId) ?? 0) + 1);
    this.store.removeRun(runId);
    // None left to train: pause (Pause is disabled without runs), so a run added next waits for Play.
    if (this.store.playing && Object.values(this.store.runs).every((r) => r.comparison)) this.pause();
    await this.api?.removeRun(runId);
  }

  async forkRun(runId: string, spec: RunSpec): Promise<void> {
    const api = this.need();
    const removals = this.removals.get(runId) ?? 0;
    const forked = await api.forkRun(runId, spec);
    // The source removed meanwhile (even if a new run took its id): the fork is a fork of nothing here.
    showFork(forked, (this.removals.get(runId) ?? 0) === removals ? this.store.runs[runId] : undefined);
  }

  /**
   * The store (and so the link and the saved experiment) takes the values at once: the worker applies them
   * between steps, on a slow GPU minutes later, and a reload meanwhile must not lose them (the run then
   * resumes with them, its next step marked). Values the worker refuses are put back, unless changed since.
   */
  async setConfig(runId: string, patch: Record<string, SettingValue>): Promise<void> {
    const api = this.need();
    const run = this.store.spec.runs.find((r) => r.id === runId);
    // What each key was (its default where the spec leaves it out), to put back on a refusal.
    const fields = run ? (ALGORITHMS[run.algo]?.fields ?? []) : [];
    const before = (k: string) => run?.config[k] ?? fields.find((f) => f.key === k)?.default;
    this.store.setRunConfig(runId, patch);
    try {
      await api.setConfig(runId, patch);
    } catch (e) {
      const now = this.store.spec.runs.find((r) => r.id === runId)?.config ?? {};
      const back: Record<string, SettingValue> = {};
      for (const k of Object.keys(patch)) {
        const was = before(k);
        if (now[k] === patch[k] && was !== undefined) back[k] = was;
      }
      if (Object.keys(back).length) this.store.setRunConfig(runId, back);
      throw e;
    }
  }

  exportCheckpoint(runId: string, resume = false): Promise<Uint8Array> {
    return this.need().exportCheckpoint(runId, resume);
  }

  exportPolicyOnnx(runId: string): Promise<Uint8Array> {
    return this.need().exportPolicyOnnx(runId);
  }

  loadRunCheckpoint(runId: string, bytes: Uint8Array, at: RunCounters): Promise<string | null> {
    return this.need().loadRunCheckpoint(runId, bytes, at);
  }

  rewindRun(runId: string): Promise<number> {
    return this.need().rewindRun(runId);
  }

  async pipelineStage(
    stage: PipelineStage,
    settings: Partial<PipelineSettings>,
    onProgress: (p: PipelineProgress) => void,
  ): Promise<PipelineStageResult> {
    return pipelineCommands.trainStage(this.need(), stage, settings, onProgress);
  }

  async stopPipelineStage(): Promise<PipelineStage | null> {
    return pipelineCommands.stopStage(this.api);
  }

  async handOffPipeline(): Promise<{ model: string; runs: string[] }> {
    return pipelineCommands.handOff(this.need());
  }

  pipelineRmOnnx(): Promise<Uint8Array> {
    return pipelineCommands.rmOnnx(this.need());
  }

  pipelineModels(): Promise<PipelineModels | null> {
    return pipelineCommands.models(this.need());
  }

  async loadRewardModel(bytes: Uint8Array, name: string): Promise<RewardModelInfo> {
    const info = await this.need().loadRewardModel(
      Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]),
      name,
    );
    useRewardModels.getState().setCustom(info);
    return info;
  }

  dispose(): void {
    this.unwatch();
    this.generation++;
    if (this.api) this.api[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = null;
    this.api = null;
  }

  /** A DPO run without an explicit data mode trains online when the task ships no preference dataset. */
  private withDataMode(spec: RunSpec): RunSpec {
    if (spec.algo !== "dpo" || this.preferences || spec.config.mode !== undefined) return spec;
    return { ...spec, config: { ...spec.config, mode: "online" } };
  }

  private need(): Comlink.Remote<LabWorkerApi> {
    if (!this.api || this.store.phase !== "ready") throw notReady(this.store.phaseError);
    return this.api;
  }
}

/** The page's one client (the lab has one worker). */
export const labClient = new LabClient();

// Editing this module under `npx vite` reloads the page, saving first (./hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit(() => labClient.dispose()));
}
