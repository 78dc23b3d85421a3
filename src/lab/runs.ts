/**
 * The worker's runs on the GPU: each run has its own policy (a copy of the start weights) and its own
 * optimizer; every run that needs one shares one frozen reference model (the same start weights, never
 * written: forward passes only). {@link LabRuns} is the scheduler's RunFactory: it creates, forks and restores
 * runs and keeps a CPU checkpoint of each run every {@link CHECKPOINT_EVERY} steps, from which the runs are
 * rebuilt on a new device after the old one is lost. Each run optimises the reward source its `reward` setting
 * names (./reward_sources.ts, shared by all runs) and always scores the gold reward too. What a run's exported
 * safetensors carry besides its weights is read in ./run_metadata.ts.
 */
import type { AlgorithmRun, ExtraWeights, RunEnv, StepProgress, StepResult } from "../algorithms/run";
import type { GpuContext } from "../gpu/context";
import { loadCheckpoint, saveCheckpoint } from "../model/checkpoint";
import type { AdamWState } from "../model/optimizer";
import { GptWeights } from "../model/weights";
import { buildEnv } from "./environment";
import { inspectView } from "./inspect/build";
import { tokenText } from "./inspect/text";
import { type RunSpec, SAMPLE_LIMIT, type SettingValue } from "./protocol";
import { algorithm } from "./registry";
import type { LabResources, StartModel } from "./resources";
import { checkRewardChoice, RewardSources, RunReward } from "./reward_sources";
import { parseRunState, parseSettings, RUN_STATE_KEY, sortedEntries } from "./run_metadata";
import { sampleViews } from "./samples";
import { checkStart, originInfo, proxyReplaced, proxyReplacedNote, REWARD_DIGEST_KEY } from "./saved_origin";
import type { Restored, ResumeNote, RunFactory, SchedRun, StepOutput } from "./sched_run";
import { algoConfig } from "./settings";

/**
 * Steps between CPU checkpoints (policy weights + AdamW moments, downloaded). After a lost device a run loses
 * at most this many steps. On the `tiny` model a checkpoint is ~10 MB of readback, a few ms on a real GPU.
 */
export const CHECKPOINT_EVERY = 10;

/** A run's state on the CPU. */
export interface RunCheckpoint {
  step: number;
  params: Float32Array;
  optimizer: AdamWState | null;
  /** The algorithm's own scalar state (AlgorithmRun.runState, e.g. Safe RLHF's λ, PPO's adaptive β), when it has any. */
  state?: Record<string, number>;
  /** The settings these weights last trained with (LabRun.trainedWith); null: none recorded. */
  trainedWith?: Record<string, SettingValue> | null;
  /** Models trained besides the policy (AlgorithmRun.exportExtra: PPO's separate value model), when any. */
  extra?: Record<string, ExtraWeights>;
}

/** One algorithm run with its environment (policy weights) and the tokenizer for sample views. */
export class LabRun implements SchedRun {
  constructor(
    readonly env: RunEnv,
    readonly run: AlgorithmRun,
    private readonly res: LabResources,
    /** The source the run optimises (env.reward); null: env.reward as built (gold). */
    readonly reward: RunReward | null = null,
    private readonly rewards: RewardSources | null = null,
  ) {
    env.progress = (p) => this.onProgress?.(p);
  }

  /** Told where the step in flight is (set for the duration of {@link step}). */
  private onProgress: ((p: StepProgress) => void) | null = null;

  /**
   * The settings the weights last trained with: taken before each step (a step may change its own settings,
   * e.g. PPO's adaptive β for the next step), carried by forks, checkpoints and loaded files; null when unknown
   * (a run that has not stepped in this worker).
   */
  trainedWith: Record<string, SettingValue> | null = null;

  changesSinceTrained(): { from: Record<string, SettingValue>; keys: string[] } | null {
    const from = this.trainedWith;
    if (!from) return null;
    const now = this.config;
    // Settings the algorithm moves itself between steps are its state (runState), not a change to mark.
    const own = new Set(Object.keys(this.run.runState?.() ?? {}));
    const keys = Object.keys(now).filter((k) => !own.has(k) && k in from && from[k] !== now[k]);
    return keys.length ? { from, keys } : null;
  }

  /** The algorithm's effective settings plus the run's reward source. */
  get config(): Record<string, SettingValue> {
    return { ...this.run.config, reward: this.reward?.choice ?? "gold" };
  }

  async step(onProgress?: (p: StepProgress) => void): Promise<StepOutput> {
    const used = this.config;
    const config = { ...this.run.config }; // the inspector shows the settings this step ran with
    this.onProgress = onProgress ?? null;
    let r: StepResult;
    try {
      r = await this.run.step();
    } finally {
      this.onProgress = null;
    }
    this.trainedWith = used;
    const { rollout, advantages, logpTheta, shownRows } = r;
    const tok = this.res.tokenizer;
    return {
      step: r.step,
      metrics: r.metrics,
      samples: rollout
        ? () => sampleViews(rollout, tok, advantages, logpTheta, SAMPLE_LIMIT, shownRows)
        : undefined,
      inspect: () => inspectView(this.run.algo, config, r, tokenText(tok)),
    };
  }

  /**
   * Apply settings from the next step on; a new `reward` must be loaded already (RewardSources.get).
   * @throws RangeError / RewardSourceError naming the bad field; nothing changes then.
   */
  setConfig(patch: Record<string, SettingValue>): void {
    let swap: (() => void) | null = null;
    if (patch.reward !== undefined) {
      const choice = checkRewardChoice(patch.reward);
      const { reward, rewards } = this;
      if (!reward || !rewards) throw new RangeError("this run's reward source is fixed");
      const source = rewards.ready(choice);
      swap = () => reward.set(choice, source);
    }
    const own = algoConfig(patch);
    if (Object.keys(own).length) this.run.setConfig(own);
    swap?.();
  }

  /** Download the run's state (between steps). */
  async checkpoint(): Promise<RunCheckpoint> {
    const step = this.run.stepsDone;
    const [params, optimizer, extra] = await Promise.all([
      this.env.policy.download(),
      this.run.optimizer ? this.run.optimizer.exportState() : Promise.resolve(null),
      this.run.exportExtra?.(),
    ]);
    return { step, params, optimizer, state: this.run.runState?.(), trainedWith: this.trainedWith, extra };
  }

  /** Load a checkpoint into this (fresh) run. */
  load(ck: RunCheckpoint): void {
    this.env.policy.upload(ck.params);
    if (ck.optimizer && this.run.optimizer) this.run.optimizer.importState(ck.optimizer);
    if (ck.state) this.run.setRunState?.(ck.state);
    if (ck.extra) this.run.importExtra?.(ck.extra);
    this.trainedWith = ck.trainedWith ?? null;
    this.run.resumeAt(ck.step);
  }

  /**
   * The policy as safetensors bytes, with the run's settings in the metadata: `settings`, the ones its last step
   * trained with (the current ones before a first step here), and `settings_next`, the current ones, only when a
   * knob changed since (they apply from the next step: these weights never trained with them).
   * `resume`: with the AdamW states too (policy and extra models; the file is then about three times larger),
   * for a reload to go on exactly as the run would have (the page's saved checkpoints); an export holds weights
   * only.
   * @throws RangeError when a weight is NaN or ±∞ (a run that went non-finite).
   */
  async safetensors(spec: RunSpec, seed: number, resume = false): Promise<Uint8Array> {
    const [params, moments] = await Promise.all([
      this.env.policy.download(),
      resume && this.run.optimizer ? this.run.optimizer.exportState() : null,
    ]);
    // Never a checkpoint of a broken policy: a reload or an import would resume it and fail again.
    const bad = params.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw new RangeError(
        `${spec.label}'s weights hold a non-finite value (${params[bad]}, parameter ${bad}): nothing sound to save; send it back to its last checkpoint`,
      );
    const state = this.run.runState?.();
    const models = Object.entries((await this.run.exportExtra?.(resume)) ?? {});
    const extra = Object.fromEntries(models.map(([name, x]) => [name, x.params]));
    const optimizers: Record<string, AdamWState> = {};
    if (moments) optimizers[""] = moments;
    for (const [name, x] of models) if (x.optimizer) optimizers[name] = x.optimizer;
    const now = this.config;
    const trained = this.trainedWith ?? now;
    const changed = JSON.stringify(sortedEntries(trained)) !== JSON.stringify(sortedEntries(now));
    return saveCheckpoint({
      config: this.env.policy.config,
      params,
      tokenizer: this.res.start.tokenizerRef,
      extra,
      ...(resume && { optimizers }),
      info: {
        task: this.res.task.id,
        algo: spec.algo,
        run: spec.label,
        steps: String(this.run.stepsDone),
        seed: String(seed),
        ...originInfo(this.res.start, trained.reward, this.rewards?.proxyInfo ?? null),
        settings: JSON.stringify(trained),
        ...(changed && { settings_next: JSON.stringify(now) }),
        ...(state && Object.keys(state).length > 0 && { [RUN_STATE_KEY]: JSON.stringify(state) }),
      },
    });
  }

  destroy(): void {
    this.run.destroy();
    this.env.policy.destroy();
  }
}

export class LabRuns implements RunFactory {
  private ref: GptWeights;
  private readonly checkpoints = new Map<string, RunCheckpoint>();

  constructor(
    private ctx: GpuContext,
    readonly res: LabResources,
    readonly seed: number,
    /** The reward sources the runs choose from. Default: the gold scorer only. */
    readonly rewards: RewardSources = new RewardSources(res.task, res.tokenizer),
  ) {
    this.ref = new GptWeights(ctx, res.start.config, res.start.params);
  }

  /** The settings a run starts with: DPO without a shipped dataset trains online unless told otherwise. */
  effectiveConfig(spec: RunSpec): Record<string, SettingValue> {
    if (spec.algo === "dpo" && !this.res.prefs && spec.config.mode === undefined)
      return { ...spec.config, mode: "online" };
    return spec.config;
  }

  async create(spec: RunSpec): Promise<LabRun> {
    const info = algorithm(spec.algo);
    const { task, tokenizer, start } = this.res;
    const choice = checkRewardChoice(spec.config.reward ?? "gold");
    const reward = new RunReward(choice, await this.rewards.get(choice));
    const env = buildEnv({
      ctx: this.ctx,
      task,
      tokenizer,
      config: start.config,
      params: start.params,
      // Its own training seed (RunSpec.seed) when it has one: prompts and sampling; the start model is shared.
      seed: spec.seed ?? this.seed,
      withRef: false,
      reward,
    });
    const full: RunEnv = { ...env, ref: info.needsRef ? this.ref : null };
    try {
      // Offline pairs in its own seed's order, as its prompts are (the dataset is the experiment's).
      const prefs = this.res.prefs?.withSeed(spec.seed ?? this.seed) ?? null;
      const run = info.create(full, this.effectiveConfig(spec), prefs);
      return new LabRun(full, run, this.res, reward, this.rewards);
    } catch (e) {
      env.policy.destroy();
      throw e;
    }
  }

  /**
   * A copy of `source`: its weights and AdamW moments (copied on the GPU), its step count (so prompts and
   * sampler seeds continue) and its effective settings (e.g. adaptive-KL β), except the settings `spec`
   * changes relative to `sourceSpec`. Extras the run copies itself (copyExtraFrom: PPO's separate value model
   * and adapted β, Safe RLHF's λ, REINFORCE's moving baseline) come along, so with the same settings the fork
   * trains exactly as its source does (same prompts and sampler seeds from the same step).
   */
  async fork(source: SchedRun, sourceSpec: RunSpec, spec: RunSpec): Promise<LabRun> {
    const src = source as LabRun;
    const changed = Object.entries(spec.config).filter(([k, v]) => sourceSpec.config[k] !== v);
    const config = { ...src.config, ...Object.fromEntries(changed) };
    const run = await this.create({ ...spec, config });
    this.ctx.copy(src.env.policy.params.flat, run.env.policy.params.flat);
    if (src.run.optimizer && run.run.optimizer) run.run.optimizer.copyFrom(src.run.optimizer);
    run.run.copyExtraFrom?.(src.run);
    run.trainedWith = src.trainedWith; // the fork's weights trained with the source's settings
    run.run.resumeAt(src.run.stepsDone);
    this.checkpoints.set(spec.id, await run.checkpoint());
    return run;
  }

  async afterStep(runId: string, run: SchedRun, out: StepOutput): Promise<void> {
    if (out.step % CHECKPOINT_EVERY === 0) this.checkpoints.set(runId, await (run as LabRun).checkpoint());
  }

  forget(runId: string): void {
    this.checkpoints.delete(runId);
  }

  /** The step a run would resume after (its last checkpoint; 0 = the start model). */
  checkpointStep(runId: string): number {
    return this.checkpoints.get(runId)?.step ?? 0;
  }

  /**
   * Load a saved policy (safetensors) into a run and continue it after `step`; its AdamW states come back when
   * the file holds them (the page's own checkpoints: safetensors(…, resume)), else they restart; the
   * algorithm's scalar state (Safe RLHF's λ) comes back from the metadata and its other models (PPO's separate
   * value model) from their tensors when the file has them.
   * A CPU checkpoint is taken at once, so a lost device later resumes from here, not from the start model.
   * @returns for a run that trained on and optimises the proxy reward model when that file is another now, what
   *   to tell the page and mark at the next step (./saved_origin.ts); else null.
   * @throws SafetensorsError / RangeError when the file does not fit the start model (its shape, or the start
   *   model its metadata names or its weights), or holds a non-finite weight.
   */
  async loadSaved(runId: string, run: SchedRun, bytes: Uint8Array, step: number): Promise<ResumeNote | null> {
    const r = run as LabRun;
    const ck = loadCheckpoint(bytes);
    checkStart(ck, this.res.start);
    r.env.policy.upload(ck.params);
    // A checkpoint the page saved holds the AdamW states (the run goes on exactly); an exported file does not
    // (AdamW restarts).
    const own = ck.optimizers?.[""];
    // Moments that do not fit (a value head the run no longer has): AdamW restarts, as from an export.
    if (own && r.run.optimizer?.fits(own)) r.run.optimizer.importState(own);
    else r.run.optimizer?.reset();
    const state = ck.info[RUN_STATE_KEY];
    if (state && r.run.setRunState) r.run.setRunState(parseRunState(state));
    // The file's other models (PPO's value model) come back too, with their AdamW when the file has it.
    if (ck.extra && r.run.importExtra)
      r.run.importExtra(
        Object.fromEntries(
          Object.entries(ck.extra).map(([name, params]) => [
            name,
            { params, optimizer: ck.optimizers?.[name] ?? null },
          ]),
        ),
      );
    r.trainedWith = parseSettings(ck.info.settings);
    r.run.resumeAt(step);
    this.checkpoints.set(runId, await r.checkpoint());
    // A run that optimised the proxy comes back on the file shipped now (the step would load it anyway); one
    // that cannot be had (offline) is the next step's error, not this resume's.
    const now = r.config.reward;
    if (now !== "proxy" || ck.info[REWARD_DIGEST_KEY] === undefined) return null;
    const proxy = await this.rewards.proxyLoaded().catch(() => null);
    const replaced = proxy && proxyReplaced(ck, r.trainedWith?.reward, now, proxy);
    return replaced && proxyReplacedNote(replaced, step);
  }

  /** The start model's weights on the GPU (the shared frozen reference): the baseline of a run's win rate. */
  startWeights(): GptWeights {
    return this.ref;
  }

  /**
   * Runs created from now on start from `start` (the Pipeline's SFT model); the shared reference follows and
   * the CPU checkpoints of the old start are dropped. Call between steps, with the old runs destroyed.
   */
  setStart(start: StartModel): void {
    this.ref.destroy();
    this.res.start = start;
    this.ref = new GptWeights(this.ctx, start.config, start.params);
    this.checkpoints.clear();
  }

  /** Move to a new device (the old one is lost): the shared reference is uploaded again. */
  rebind(ctx: GpuContext): void {
    try {
      this.ref.destroy();
    } catch {
      // Its device is gone.
    }
    this.ctx = ctx;
    this.ref = new GptWeights(ctx, this.res.start.config, this.res.start.params);
  }

  /** A run rebuilt from its last checkpoint (or from the start model when it has none yet). */
  async restore(spec: RunSpec): Promise<Restored> {
    const run = await this.create(spec);
    const ck = this.checkpoints.get(spec.id);
    if (ck) run.load(ck);
    return { run, step: ck?.step ?? 0 };
  }

  destroy(): void {
    this.ref.destroy();
    this.checkpoints.clear();
  }
}
