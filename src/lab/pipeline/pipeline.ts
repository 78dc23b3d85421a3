/**
 * The three stages of RLHF in the training worker, at nano/tiny scale (Ouyang et al. 2022 Fig. 2):
 *   1. SFT: a fresh preset (seeded init) trained with next-token cross-entropy on the task's text
 *      (src/model/sft.ts SftTrainer, data ./sft_data.ts), with a sampled completion of a held-out prompt now
 *      and then;
 *   2. reward model: a copy of the stage-1 model with its scalar reward head, trained with the Bradley–Terry
 *      loss on the task's shipped preference pairs (src/rewards/rm_trainer.ts RewardModelTrainer), its
 *      held-out label and gold accuracy measured before, every few steps and at the end (src/rewards/rm_eval.ts);
 *   3. hand-off: the stage-1 weights as the runs' start model and the stage-2 model as a reward source on the
 *      WGSL engine (src/rewards/sources.ts engineReward), reward "pipeline".
 * Every step is reported through `onProgress` (the loops: ./stages.ts); {@link LabPipeline.stop} ends a stage
 * between two steps with the model trained so far. Every trained model keeps a CPU copy, so a lost device takes
 * none of them ({@link LabPipeline.rebind}).
 */
import type { RewardSource } from "../../algorithms/reward";
import type { GpuContext } from "../../gpu/context";
import type { GPTConfig } from "../../model/config";
import { initParams, paramLayout } from "../../model/params";
import { GptWeights } from "../../model/weights";
import { exportRewardModelOnnx } from "../../rewards/onnx_export";
import type { EncodedPair } from "../../rewards/rm_eval";
import { RewardModelScorer } from "../../rewards/rm_trainer";
import { engineReward } from "../../rewards/sources";
import { Rng } from "../../util/rng";
import type { StartModel } from "../resources";
import type {
  PipelineModels,
  PipelineProgress,
  PipelineSettings,
  PipelineStage,
  PipelineStageResult,
} from "./fields";
import { describeConfig, pipelineConfig } from "./model_config";
import { pipelinePairs } from "./pairs";
import { type PipelineDeps, trainRm, trainSft } from "./stages";

export type { PipelineDeps } from "./stages";

export class LabPipeline {
  /** The trained stages, on the GPU and as CPU copies (`params`, taken when the stage ends: a lost device's
   * buffers are gone, and {@link rebind} uploads them again). */
  private policy: {
    w: GptWeights;
    params: Float32Array;
    config: GPTConfig;
    size: PipelineSettings["size"];
    steps: number;
  } | null = null;
  private rm: { w: GptWeights; params: Float32Array; scorer: RewardModelScorer; steps: number } | null = null;
  private pairs: { train: EncodedPair[]; eval: EncodedPair[] } | null = null;
  /** The handed-off reward model: its own GPU copy (stages may train again meanwhile) and a CPU copy. */
  private handed: {
    config: GPTConfig;
    params: Float32Array;
    w: GptWeights;
    scorer: RewardModelScorer;
    start: StartModel;
  } | null = null;
  private busy = false;
  /** The stage in training, and whether it was asked to stop ({@link stop}). */
  private training: PipelineStage | null = null;
  private stopAsked = false;
  /** The size preset of the handed-off models (kept for snapshots once stage 1 is retrained or gone). */
  private handedSize: PipelineSettings["size"] = "nano";

  constructor(
    private ctx: GpuContext,
    private readonly d: PipelineDeps,
  ) {}

  /** Steps of the trained stages (0: not trained). */
  get trained(): { sft: number; rm: number } {
    return { sft: this.policy?.steps ?? 0, rm: this.rm?.steps ?? 0 };
  }

  /**
   * Stage 1: a fresh `s.size` model trained for s.sftSteps steps (replaces an earlier stage 1 and 2); {@link stop}
   * ends it early with the model trained so far (its result's `steps` < `planned`).
   * @throws RangeError on bad settings or while another stage runs; whatever the GPU throws.
   */
  sft(s: PipelineSettings, onProgress: (p: PipelineProgress) => void): Promise<PipelineStageResult> {
    return this.stage("sft", async (stopped) => {
      const { task, tokenizer: tok, seed } = this.d;
      const config = pipelineConfig(s.size, task, tok);
      const rng = new Rng(seed);
      this.dropRm();
      this.policy?.w.destroy();
      this.policy = null;
      const w = new GptWeights(
        this.ctx,
        config,
        initParams(paramLayout(config), () => rng.normal()),
      );
      let r: Omit<PipelineStageResult, "model">;
      let params: Float32Array;
      try {
        r = await trainSft(this.ctx, w, config, this.d, s, { onProgress, stopped });
        params = await w.download();
      } catch (e) {
        w.destroy();
        throw e;
      }
      this.policy = { w, params, config, size: s.size, steps: r.steps };
      return { ...r, model: describeConfig(s.size, config) };
    });
  }

  /**
   * Stage 2: a reward model from the stage-1 weights, trained for s.rmSteps steps of s.rmBatch pairs;
   * {@link stop} ends it early with the model trained so far.
   * @throws Error when stage 1 has not run or the task ships no preference pairs.
   */
  rmStage(s: PipelineSettings, onProgress: (p: PipelineProgress) => void): Promise<PipelineStageResult> {
    return this.stage("rm", async (stopped) => {
      const policy = this.policy;
      if (!policy) throw new Error("train stage 1 (SFT) first: the reward model starts from its weights");
      const pairs = await this.loadPairs();
      this.dropRm();
      const w = new GptWeights(this.ctx, policy.config, policy.params);
      const scorer = new RewardModelScorer(this.ctx, w, this.d.tokenizer.padId);
      try {
        const r = await trainRm(this.ctx, w, scorer, pairs, this.d, s, { onProgress, stopped });
        this.rm = { w, params: await w.download(), scorer, steps: r.steps };
        return r;
      } catch (e) {
        scorer.destroy();
        w.destroy();
        throw e;
      }
    });
  }

  /**
   * Stop the stage in training after its step in progress (and that step's sample or evaluation): it ends as if
   * it had been asked for the steps it reached, its model kept. Returns the stage, or null when none trains.
   */
  stop(): PipelineStage | null {
    if (this.training) this.stopAsked = true;
    return this.training;
  }

  /**
   * Stage 3: the stage-1 model as a start model and the stage-2 model as a reward source (name "pipeline-rm"),
   * both copies: training the stages again changes the runs only at the next hand-off. The reward source
   * scores with the latest hand-off's model (rebuilt after a lost device). @throws Error when a stage has not
   * run.
   */
  async handOff(tokenizerRef: string): Promise<{ start: StartModel; reward: RewardSource }> {
    const policy = this.policy;
    const rm = this.rm;
    if (!policy || !rm) throw new Error("train stage 1 (SFT) and stage 2 (reward model) first");
    const [params, rmParams] = [policy.params.slice(), rm.params.slice()];
    const source = `pipeline: ${describeConfig(policy.size, policy.config)} after ${policy.steps} SFT steps (this page)`;
    return this.setHanded(policy.config, params, rmParams, source, tokenizerRef);
  }

  /** The Pipeline's models as arrays (downloads; between stages). null: nothing trained or handed off. */
  async snapshot(): Promise<PipelineModels | null> {
    return this.exclusive(async () => {
      const { policy, rm, handed } = this;
      const config = policy?.config ?? handed?.config;
      if (!config) return null;
      return {
        task: this.d.task.id,
        size: policy?.size ?? this.handedSize,
        config,
        // Copies: the worker moves the arrays to the page.
        sft: policy ? { steps: policy.steps, params: policy.params.slice() } : null,
        rm: rm ? { steps: rm.steps, params: rm.params.slice() } : null,
        handed: handed
          ? {
              source: handed.start.source,
              policy: handed.start.params,
              rm: handed.params,
              config: handed.config,
              size: this.handedSize,
            }
          : null,
      };
    });
  }

  /**
   * Bring back a {@link snapshot} (a reload): the trained stages, and the hand-off, whose start model and reward
   * source are returned for the runs (null when there was none).
   * @throws Error when the snapshot is of another task or its arrays do not fit its config.
   */
  restore(m: PipelineModels, tokenizerRef: string): { start: StartModel; reward: RewardSource } | null {
    if (m.task !== this.d.task.id) throw new Error(`the saved Pipeline is for task "${m.task}"`);
    const handedConfig = m.handed?.config ?? m.config;
    const fits = (a: Float32Array | undefined, config: GPTConfig) => {
      const n = paramLayout(config).size;
      if (a && a.length !== n) throw new Error(`a saved Pipeline model has ${a.length} parameters, not ${n}`);
    };
    for (const a of [m.sft?.params, m.rm?.params]) fits(a, m.config);
    for (const a of [m.handed?.policy, m.handed?.rm]) fits(a, handedConfig);
    this.destroy();
    const pad = this.d.tokenizer.padId;
    if (m.sft)
      this.policy = {
        w: new GptWeights(this.ctx, m.config, m.sft.params),
        params: m.sft.params,
        config: m.config,
        size: m.size,
        steps: m.sft.steps,
      };
    if (m.sft && m.rm) {
      const w = new GptWeights(this.ctx, m.config, m.rm.params);
      this.rm = {
        w,
        params: m.rm.params,
        scorer: new RewardModelScorer(this.ctx, w, pad),
        steps: m.rm.steps,
      };
    }
    if (!m.handed) {
      this.handedSize = m.size;
      return null;
    }
    const out = this.setHanded(handedConfig, m.handed.policy, m.handed.rm, m.handed.source, tokenizerRef);
    this.handedSize = m.handed.size ?? m.size;
    return out;
  }

  /** Make (policy, rm) the handed-off pair: the runs' start model and the "pipeline" reward source. */
  private setHanded(
    config: GPTConfig,
    params: Float32Array,
    rmParams: Float32Array,
    source: string,
    tokenizerRef: string,
  ): { start: StartModel; reward: RewardSource } {
    this.dropHanded();
    const w = new GptWeights(this.ctx, config, rmParams);
    const start: StartModel = { config, params, source, tokenizerRef };
    this.handed = {
      config,
      params: rmParams,
      w,
      scorer: new RewardModelScorer(this.ctx, w, this.d.tokenizer.padId),
      start,
    };
    this.handedSize = this.policy?.size ?? this.handedSize;
    const reward: RewardSource = {
      name: "pipeline-rm",
      score: (samples) => {
        const scorer = this.handed?.scorer;
        if (!scorer) throw new Error("the pipeline's reward model is gone");
        return engineReward(scorer, this.d.tokenizer.bosId, "pipeline-rm").score(samples);
      },
    };
    return { start, reward };
  }

  /**
   * The stage-2 reward model as an ONNX file (docs/reward-models.md contract: it loads as a "custom" reward
   * model and in the exported TRL scripts). @throws Error when stage 2 has not run.
   */
  async rmOnnx(): Promise<Uint8Array> {
    const rm = this.rm;
    const policy = this.policy;
    if (!rm || !policy) throw new Error("train stage 2 (reward model) first");
    return exportRewardModelOnnx(policy.config, rm.params, {
      tokenizer: this.d.task.tokenizerPath,
      docString: `RLHF Playground Pipeline reward model: ${describeConfig(policy.size, policy.config)}, ${policy.steps} SFT steps, ${rm.steps} reward-model steps.`,
      metadata: { task: this.d.task.id, sft_steps: String(policy.steps), steps: String(rm.steps) },
    });
  }

  /**
   * Move to a new device (the old one is lost): the trained stages and the handed-off reward model are uploaded
   * again from their CPU copies (a stage in training when the device went fails: SFT had dropped both earlier
   * models when it began, a reward-model stage only its own earlier one).
   * @throws GpuDeviceLostError when `ctx` is lost too.
   */
  rebind(ctx: GpuContext): void {
    this.ctx = ctx;
    const pad = this.d.tokenizer.padId;
    const p = this.policy;
    if (p) this.policy = { ...p, w: new GptWeights(ctx, p.config, p.params) };
    const rm = this.rm;
    if (rm && p) {
      const w = new GptWeights(ctx, p.config, rm.params);
      this.rm = { ...rm, w, scorer: new RewardModelScorer(ctx, w, pad) };
    }
    const h = this.handed;
    if (h) {
      const w = new GptWeights(ctx, h.config, h.params);
      this.handed = { ...h, w, scorer: new RewardModelScorer(ctx, w, pad) };
    }
  }

  destroy(): void {
    this.dropRm();
    this.dropHanded();
    this.policy?.w.destroy();
    this.policy = null;
  }

  private dropHanded(): void {
    this.handed?.scorer.destroy();
    this.handed?.w.destroy();
    this.handed = null;
  }

  private dropRm(): void {
    this.rm?.scorer.destroy();
    this.rm?.w.destroy();
    this.rm = null;
  }

  private async loadPairs(): Promise<{ train: EncodedPair[]; eval: EncodedPair[] }> {
    this.pairs ??= pipelinePairs(
      this.d.task.id,
      await this.d.preferences(),
      this.d.tokenizer,
      this.d.task.generation.maxNewTokens,
    );
    return this.pairs;
  }

  /** Train a stage (exclusive); `stopped` says whether {@link stop} was called since it began. */
  private stage<T>(stage: PipelineStage, fn: (stopped: () => boolean) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      this.training = stage;
      this.stopAsked = false;
      try {
        return await fn(() => this.stopAsked);
      } finally {
        this.training = null;
        this.stopAsked = false;
      }
    });
  }

  /** One stage at a time. */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.busy) throw new RangeError("a pipeline stage is already training");
    this.busy = true;
    try {
      return await fn();
    } finally {
      this.busy = false;
    }
  }
}
