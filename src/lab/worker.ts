/**
 * The training worker (a dedicated module Web Worker, exposed with comlink as {@link LabWorkerApi}). It owns
 * its own GPU device, the shared resources (task, tokenizer, start model, preference data) and the runs; the
 * {@link Scheduler} steps them in turn and sends small batched RunUpdates to the page. The page never
 * waits on training: every GPU call happens here.
 *
 * A lost device (driver reset, GPU process crash) is re-acquired and every run is rebuilt from its last CPU
 * checkpoint (./recovery.ts).
 */
import * as Comlink from "comlink";
import type { GpuContext } from "../gpu/context";
import { acquireGpu } from "../gpu/device";
import { GpuDeviceLostError } from "../gpu/errors";
import type { AutotuneResult } from "../kernels/autotune";
import { setMatmulVariant } from "../kernels/matmul";
import { exportPolicyOnnx } from "../onnx/policy_export";
import { errorMessage as message } from "../util/errors";
import { withTimeout } from "../util/settle";
import { Turns } from "../util/turns";
import { BrowserSupportError, workerGpuError } from "./browser_error";
import { pickLabKernels } from "./kernel_choice";
import { workerOnnxLoader } from "./ort_loader";
import {
  type PipelineModels,
  type PipelineProgress,
  type PipelineSettings,
  type PipelineStage,
  pipelineSettings,
} from "./pipeline/fields";
import { fetchPipelinePairs } from "./pipeline/pairs";
import { LabPipeline } from "./pipeline/pipeline";
import type {
  ExperimentSpec,
  LabWorkerApi,
  RewardModelInfo,
  RunCounters,
  RunSpec,
  RunUpdate,
  RunWinRate,
  SettingValue,
  WorkerInfo,
} from "./protocol";
import { rewindMarker } from "./protocol";
import { recoverFromLoss } from "./recovery";
import { algorithm } from "./registry";
import { loadResources } from "./resources";
import { RewardSources } from "./reward_sources";
import { CHECKPOINT_EVERY, type LabRun, LabRuns } from "./runs";
import { Scheduler } from "./scheduler";
import { customRewardsToGold } from "./settings";
import { progressFetch, type StartStage } from "./start_progress";
import { runWinRate } from "./win_rate";

/** How long the worker waits for an adapter and a device before it says so. */
const ACQUIRE_TIMEOUT_MS = 30_000;

class LabWorker implements LabWorkerApi {
  private ctx: GpuContext | null = null;
  /** The matmul variant picked at start-up (null: the timing failed and the adapter kind's default is used). */
  private kernels: AutotuneResult | null = null;
  private runs: LabRuns | null = null;
  private scheduler: Scheduler | null = null;
  private spec: ExperimentSpec | null = null;
  /** The settings changes asked for, in order (setConfig). */
  private readonly configs = new Turns();
  private pipeline: LabPipeline | null = null;
  /** The recovery from a lost device under way (a Pipeline stage waits for it: it does not take the scheduler's
   * turns, so it would start on the lost device and fail). */
  private recovering: Promise<void> | null = null;
  private baseUrl = "";

  ping(): boolean {
    return true;
  }

  async init(
    spec: ExperimentSpec,
    onUpdate: (u: RunUpdate[]) => void,
    baseUrl: string,
    pipeline?: PipelineModels,
    onStage: (s: StartStage) => void = () => {},
  ): Promise<WorkerInfo> {
    if (this.scheduler) throw new Error("the training worker is already initialised");
    if (!("gpu" in navigator))
      throw new BrowserSupportError(
        "This browser gives WebGPU to the page but not to Web Workers, where the lab trains. Use Chrome or Edge 113 or newer.",
      );
    let ctx: GpuContext;
    try {
      onStage({ stage: "gpu" });
      ctx = await withTimeout(acquireGpu(), ACQUIRE_TIMEOUT_MS, "WebGPU did not answer");
    } catch (e) {
      throw workerGpuError(e);
    }
    let res: Awaited<ReturnType<typeof loadResources>>;
    try {
      res = await loadResources(spec, baseUrl, fetch, onStage);
    } catch (e) {
      ctx.destroy();
      throw e;
    }
    try {
      onStage({ stage: "kernels" });
      this.kernels = await pickLabKernels(ctx, res.start.config);
    } catch (e) {
      res.notices.push(
        `Timing the matrix-multiply kernels failed (${message(e)}); training uses the default kernel.`,
      );
    }
    this.ctx = ctx;
    this.spec = spec;
    this.baseUrl = baseUrl;
    const proxyShipped = res.shipped ? res.shipped.has(`models/${res.task.id}/rm.onnx`) : null;
    // The start's loading line, and later the reward menu's line while a reward model loads (RewardLoading.tsx).
    const report = onStage;
    const rewards = new RewardSources(res.task, res.tokenizer, {
      baseUrl,
      loadOnnx: workerOnnxLoader(
        progressFetch(fetch, (s) => report(s)),
        () => report({ stage: "reward" }),
      ),
      proxyShipped,
      fetchFn: progressFetch(fetch, (s) => report(s)),
      onProxyLoading: () => report({ stage: "reward" }),
    });
    const runs = new LabRuns(ctx, res, spec.seed, rewards);
    this.runs = runs;
    this.scheduler = new Scheduler({
      factory: runs,
      onUpdate,
      fieldLabel: (s, key) => algorithm(s.algo).fields.find((f) => f.key === key)?.label ?? key,
      isDeviceLoss: (e) => e instanceof GpuDeviceLostError || this.ctx?.lostError != null,
    });
    this.watch(ctx);
    const pipelineRestored = pipeline ? this.restorePipeline(pipeline, res.notices) : false;
    this.scheduler.setStopAt(spec.steps ?? 0);
    // Without the saved hand-off, runs that optimised the Pipeline's reward model optimise gold (as on any start).
    const runSpecs = customRewardsToGold(spec, pipelineRestored).spec.runs;
    onStage({ stage: "runs" });
    for (const r of runSpecs) await this.scheduler.addRun(r, true);
    return {
      adapter: ctx.adapter,
      model: runs.res.start.source,
      vocabSize: res.tokenizer.vocabSize,
      notices: res.notices,
      preferences: res.prefs !== null,
      pipelineRestored,
      kernels: this.kernels,
    };
  }

  /** A saved Pipeline back (before the runs exist): its hand-off becomes the start model and reward "pipeline". */
  private restorePipeline(saved: PipelineModels, notices: string[]): boolean {
    const runs = this.runs;
    if (!runs) return false;
    try {
      const handed = this.pipe().restore(saved, runs.res.start.tokenizerRef);
      if (!handed) return false;
      runs.setStart(handed.start);
      runs.rewards.setPipeline(handed.reward);
      return true;
    } catch (e) {
      notices.push(`The Pipeline saved in this browser could not be restored (${message(e)}).`);
      return false;
    }
  }

  play(): void {
    this.sched().play(this.changesIn());
  }

  pause(): void {
    this.sched().pause();
  }

  stepOnce(): Promise<void> {
    return this.sched().stepOnce(this.changesIn());
  }

  /** Resolves once the settings changes asked so far are in (proxy → gold, then Step: on gold, proxy loading). */
  private changesIn(): Promise<unknown> {
    return this.configs.take(() => undefined);
  }

  reset(): Promise<void> {
    return this.sched().reset();
  }

  setSpeed(stepsPerSecond: number): void {
    this.sched().setSpeed(stepsPerSecond);
  }

  setStopAt(steps: number): void {
    this.sched().setStopAt(steps);
  }

  addRun(run: RunSpec, held = false): Promise<void> {
    return this.sched().addRun(run, false, held);
  }

  removeRun(runId: string): void {
    this.sched().removeRun(runId);
  }

  renameRun(runId: string, label: string): Promise<void> {
    return this.sched().renameRun(runId, label);
  }

  forkRun(runId: string, run: RunSpec): Promise<RunSpec> {
    return this.sched().forkRun(runId, run);
  }

  setConfig(runId: string, patch: Record<string, SettingValue>): Promise<void> {
    // A reward model is loaded (once, shared) before the change goes in between two steps; changes go in in the
    // order they were made (proxy then gold: a model still loading must not let the later change in first).
    return this.configs.take(async () => {
      if (patch.reward !== undefined) await this.runs?.rewards.get(patch.reward);
      return this.sched().setConfig(runId, patch);
    });
  }

  winRate(runId: string, prompts: number, vs: string | null = null): Promise<RunWinRate> {
    const runs = this.runs;
    if (!runs || !this.ctx) throw new Error("the training worker is not initialised (init() first)");
    return runWinRate(
      () => this.ctx as GpuContext,
      runs,
      this.sched(),
      this.spec?.seed ?? 0,
      runId,
      prompts,
      vs,
    );
  }

  async exportCheckpoint(runId: string, resume = false): Promise<Uint8Array> {
    const seed = this.spec?.seed ?? 0;
    const bytes = await this.sched().withRun(runId, (run, spec) =>
      (run as LabRun).safetensors(spec, spec.seed ?? seed, resume),
    );
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  }

  async exportPolicyOnnx(runId: string): Promise<Uint8Array> {
    const res = this.runs?.res;
    const bytes = await this.sched().withRun(runId, async (run, spec) => {
      const lab = run as LabRun;
      return exportPolicyOnnx(lab.env.policy.config, await lab.env.policy.download(), {
        tokenizer: res?.start.tokenizerRef,
        metadata: {
          task: res?.task.id ?? "",
          algo: spec.algo,
          run: spec.label,
          steps: String(lab.run.stepsDone),
        },
      });
    });
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  }

  loadRunCheckpoint(runId: string, bytes: Uint8Array, at: RunCounters): Promise<string | null> {
    const runs = this.runs;
    if (!runs) throw new Error("the training worker is not initialised (init() first)");
    return this.sched().resumeRun(runId, at, (run) => runs.loadSaved(runId, run, bytes, at.step));
  }

  rewindRun(runId: string): Promise<number> {
    const runs = this.runs;
    if (!runs) throw new Error("the training worker is not initialised (init() first)");
    return this.sched().rewindRun(
      runId,
      (spec) => runs.restore(spec),
      (spec, step) => ({
        marker: rewindMarker(step),
        notice: `${spec.label} went back to ${step > 0 ? `step ${step}, its last checkpoint (taken every ${CHECKPOINT_EVERY} steps)` : "the start model (it had no checkpoint yet)"}: change a setting, such as a lower learning rate, before it trains on, or it may fail the same way.`,
      }),
    );
  }

  customRewardModel(): RewardModelInfo | null {
    return this.runs?.rewards.custom ?? null;
  }

  loadRewardModel(bytes: Uint8Array, name: string): Promise<RewardModelInfo> {
    if (!this.runs) throw new Error("the training worker is not initialised (init() first)");
    return this.runs.rewards.loadCustom(bytes, name);
  }

  async pipelineStage(
    stage: PipelineStage,
    settings: Partial<PipelineSettings>,
    onProgress: (p: PipelineProgress) => void,
  ) {
    const s = pipelineSettings(settings);
    this.sched().pause();
    while (this.recovering) await this.recovering;
    const pipe = this.pipe();
    return stage === "sft" ? pipe.sft(s, onProgress) : pipe.rmStage(s, onProgress);
  }

  stopPipelineStage(): PipelineStage | null {
    return this.pipeline?.stop() ?? null;
  }

  async handOffPipeline(): Promise<{ model: string; runs: string[] }> {
    const runs = this.runs;
    const sched = this.sched();
    if (!runs) throw new Error("the training worker is not initialised (init() first)");
    const { start, reward } = await this.pipe().handOff(runs.res.start.tokenizerRef);
    sched.pause();
    await sched.reset(() => {
      runs.setStart(start);
      runs.rewards.setPipeline(reward);
    });
    // A run removed meanwhile (the page's removal does not wait for this) is no longer there to change.
    for (const id of sched.runIds)
      await sched.setConfig(id, { reward: "pipeline" }).catch((e) => {
        if (sched.runIds.includes(id)) throw e;
      });
    return { model: start.source, runs: sched.runIds };
  }

  async pipelineRmOnnx(): Promise<Uint8Array> {
    const bytes = await this.pipe().rmOnnx();
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  }

  async pipelineModels(): Promise<PipelineModels | null> {
    const m = this.pipeline ? await this.pipeline.snapshot() : null;
    if (!m) return null;
    // The stages' arrays were just downloaded: move them. The hand-off's are the runs' own copies: cloned.
    const fresh = [m.sft?.params, m.rm?.params].filter((a) => a !== undefined);
    return Comlink.transfer(
      m,
      fresh.map((a) => a.buffer as ArrayBuffer),
    );
  }

  /** The Pipeline view's stages (made on first use). */
  private pipe(): LabPipeline {
    const runs = this.runs;
    if (!this.ctx || !runs) throw new Error("the training worker is not initialised (init() first)");
    const { task, tokenizer } = runs.res;
    this.pipeline ??= new LabPipeline(this.ctx, {
      task,
      tokenizer,
      seed: runs.seed,
      preferences: () => fetchPipelinePairs(task.id, this.baseUrl, runs.res.shipped ?? null),
    });
    return this.pipeline;
  }

  private sched(): Scheduler {
    if (!this.scheduler) throw new Error("the training worker is not initialised (init() first)");
    return this.scheduler;
  }

  /** Recover when this device is lost. */
  private watch(ctx: GpuContext): void {
    void ctx.lost.then((e) => {
      if (this.ctx === ctx) void this.recover(e);
    });
  }

  private async recover(lost: GpuDeviceLostError): Promise<void> {
    const s = this.scheduler;
    const runs = this.runs;
    if (!s || !runs) return;
    const done = recoverFromLoss(s, lost, {
      acquire: () => withTimeout(acquireGpu(), ACQUIRE_TIMEOUT_MS, "WebGPU did not answer"),
      adopt: (ctx) => {
        this.ctx = ctx;
        if (this.kernels) setMatmulVariant(ctx, this.kernels.matmul.variant);
        runs.rebind(ctx);
        this.pipeline?.rebind(ctx);
        this.watch(ctx);
      },
      restore: (spec) => runs.restore(spec),
    });
    this.recovering = done;
    await done;
    if (this.recovering === done) this.recovering = null;
  }
}

// A promise rejected with no handler (a voided call) is thrown again as an uncaught error, which the page's
// watch on the worker (src/ui/worker_watch.ts) shows: otherwise nobody would hear of it.
self.addEventListener("unhandledrejection", (ev) => {
  ev.preventDefault();
  const reason = ev.reason;
  setTimeout(() => {
    throw reason instanceof Error ? reason : new Error(String(reason));
  });
});

Comlink.expose(new LabWorker());
