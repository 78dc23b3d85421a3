/**
 * The reward sources the worker's runs can optimise (RUN_FIELDS' `reward`, src/lab/settings.ts), shared by
 * every run that uses them: the task's gold scorer; the task's shipped proxy reward model
 * (`models/<task>/rm.onnx`, fetched and loaded on first use); a user's ONNX reward model (loaded from the
 * page's file input, checked against the task's tokenizer with loadOnnxRewardModel); and the reward model the
 * Pipeline view trained (./pipeline/pipeline.ts, on the WGSL engine). Loading failures are
 * errors naming what is wrong; nothing half-loaded is kept, so the other sources keep working.
 *
 * A run holds a {@link RunReward}: the source it optimises now, switchable between steps (a settings change).
 * The "custom" source is one stable object that scores with the latest loaded user model, so runs that use it
 * follow a newly loaded file from their next step.
 */
import type { RewardSample, RewardSource } from "../algorithms/reward";
import type { OnnxRewardModel } from "../rewards/onnx_reward_model";
import { RM_METADATA } from "../rewards/rm_metadata";
import { onnxReward } from "../rewards/sources";
import { goldRewardSource } from "../rewards/task_rewards";
import type { Task } from "../tasks/task";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { bytesDigest } from "../util/digest";
import { errorMessage as message } from "../util/errors";
import { clipped } from "../util/quote";
import { type RewardChoice, RUN_FIELDS } from "./settings";
import { fetchShipped } from "./shipped_fetch";

/** A reward model the worker loaded and validated. */
export interface RewardModelInfo {
  /** The file's name (custom) or its path under the app (proxy), e.g. "models/arithmetic/rm.onnx". */
  name: string;
  /** V of the tokenizer it was checked against. */
  vocabSize: number;
  /** Longest sequence it accepts (metadata max_length), or null. */
  maxLength: number | null;
  /** Non-fatal findings of the loader. */
  warnings: string[];
  /** SHA-256 of the file (a run's checkpoint records its proxy's: ./saved_origin.ts). */
  sha256: string;
}

/** Loads and validates ONNX bytes against a vocabulary (loadOnnxRewardModel with the page's settings). */
export type OnnxLoader = (bytes: Uint8Array, vocabSize: number, padId: number) => Promise<OnnxRewardModel>;

export interface RewardSourcesOptions {
  /** The app's base URL (models/ lives under it); without it the proxy RM is unavailable. */
  baseUrl?: string;
  fetchFn?: typeof fetch;
  /** How ONNX files are loaded; without it only the gold scorer is available. */
  loadOnnx?: OnnxLoader;
  /** Whether models/<task>/rm.onnx is shipped (from models/manifest.json); null: unknown, try to fetch. */
  proxyShipped?: boolean | null;
  /** Told when the proxy's file has come and its runtime starts (the lab's loading line). */
  onProxyLoading?: () => void;
}

import { RewardSourceError } from "./reward_source_error";

export { RewardSourceError };

/** @throws RangeError naming the options when `v` is not a reward choice. */
export function checkRewardChoice(v: unknown): RewardChoice {
  const f = RUN_FIELDS[0];
  if (typeof v !== "string" || !(f.options as readonly string[]).includes(v))
    throw new RangeError(`reward must be one of ${f.options.join(" | ")}, got ${JSON.stringify(v)}`);
  return v as RewardChoice;
}

/** A loaded ONNX reward model: the source over it, what it is, the model (its worker's state). */
interface LoadedModel {
  source: RewardSource;
  info: RewardModelInfo;
  model: OnnxRewardModel;
}

/** The user's loaded model and how many scorings use it now (it is released when replaced and unused). */
interface CustomModel extends LoadedModel {
  scoring: number;
}

/** A custom model whose worker was ended: what to do. */
const stoppedCustom = (m: CustomModel) =>
  new RewardSourceError(
    `the custom reward model "${clipped(m.info.name, 60)}" was stopped (${m.model.stopped}): load it again with Load RM, or choose another reward`,
  );

export class RewardSources {
  /** The task's gold scorer (also every run's `reward_gold`). */
  readonly gold: RewardSource;
  private proxy: Promise<LoadedModel> | null = null;
  private proxyReady: LoadedModel | null = null;
  /** The proxy as runs hold it: scores with the loaded model, loaded again when its worker was ended. */
  private readonly proxySource: RewardSource;
  private customModel: CustomModel | null = null;
  private readonly customSource: RewardSource;
  private pipelineSource: RewardSource | null = null;

  constructor(
    private readonly task: Task,
    private readonly tokenizer: Tokenizer,
    private readonly o: RewardSourcesOptions = {},
  ) {
    this.gold = goldRewardSource(task, tokenizer);
    const self = this;
    this.proxySource = {
      name: "proxy-rm",
      score: async (samples: readonly RewardSample[]) => (await this.loadProxy()).source.score(samples),
    };
    this.customSource = {
      get name() {
        return self.customModel?.source.name ?? "custom-rm";
      },
      score: async (samples: readonly RewardSample[]) => {
        const m = self.customModel;
        if (!m) throw new RewardSourceError("no custom reward model is loaded");
        if (m.model.stopped) throw stoppedCustom(m);
        m.scoring++;
        try {
          return await m.source.score(samples);
        } finally {
          if (--m.scoring === 0 && m !== self.customModel) await m.model.release().catch(() => undefined);
        }
      },
    };
  }

  /** The proxy RM's path under the app. */
  get proxyPath(): string {
    return `models/${this.task.id}/rm.onnx`;
  }

  /** The loaded user model, or null (none loaded, or its worker was ended). */
  get custom(): RewardModelInfo | null {
    return this.customModel && !this.customModel.model.stopped ? this.customModel.info : null;
  }

  /** The loaded proxy model, or null (not asked for yet, loading, or failed). */
  get proxyInfo(): RewardModelInfo | null {
    return this.proxyReady?.info ?? null;
  }

  /**
   * The proxy model, loading it if it is not yet.
   * @throws RewardSourceError when it is missing or does not load.
   */
  async proxyLoaded(): Promise<RewardModelInfo> {
    return (await this.loadProxy()).info;
  }

  /**
   * The source for a choice, loading the proxy RM on first use (shared by every run; a failed load is
   * retried on the next ask).
   * @throws RangeError for an unknown choice; RewardSourceError when the model is missing or does not load.
   */
  async get(choice: unknown): Promise<RewardSource> {
    const c = checkRewardChoice(choice);
    if (c === "proxy") {
      await this.loadProxy();
      return this.proxySource;
    }
    return this.ready(c);
  }

  /**
   * The source for a choice that is loaded already (between steps, synchronously).
   * @throws RangeError for an unknown choice; RewardSourceError when it is not loaded.
   */
  ready(choice: unknown): RewardSource {
    const c = checkRewardChoice(choice);
    if (c === "gold") return this.gold;
    if (c === "proxy") {
      if (!this.proxyReady)
        throw new RewardSourceError(`the proxy reward model (${this.proxyPath}) is not loaded`);
      return this.proxySource;
    }
    if (c === "pipeline") {
      if (!this.pipelineSource)
        throw new RewardSourceError(
          'no pipeline reward model: train stages 1 and 2 in the Pipeline view and press "Use in RL" first',
        );
      return this.pipelineSource;
    }
    if (!this.customModel)
      throw new RewardSourceError(
        'no custom reward model is loaded: load an .onnx file with "Load RM" (top bar) first',
      );
    if (this.customModel.model.stopped) throw stoppedCustom(this.customModel);
    return this.customSource;
  }

  /** The Pipeline view's reward model (reward "pipeline"), from its hand-off. */
  setPipeline(source: RewardSource): void {
    this.pipelineSource = source;
  }

  /**
   * Check and load a user's ONNX reward model; on success it becomes the "custom" source (for every run that
   * uses it, from its next step). On failure the previous custom model (if any) stays.
   * @throws OnnxRewardModelError naming what is wrong with the file; RewardSourceError without a loader.
   */
  async loadCustom(bytes: Uint8Array, name: string): Promise<RewardModelInfo> {
    const model = await this.loadModel(bytes);
    const info = infoOf(model, name, bytes);
    const previous = this.customModel;
    this.customModel = {
      source: onnxReward(model, this.tokenizer, { name: `custom-rm:${name}` }),
      info,
      model,
      scoring: 0,
    };
    // A step in flight may still be scoring with the previous model: then it is released when that is done.
    if (previous && previous.scoring === 0) await previous.model.release().catch(() => undefined);
    return info;
  }

  /** The proxy, loaded on first use and again after its worker was ended (a time limit, a crash). */
  private loadProxy(): Promise<LoadedModel> {
    if (this.proxyReady?.model.stopped) {
      this.proxy = null;
      this.proxyReady = null;
    }
    this.proxy ??= this.fetchAndLoadProxy().then(
      (r) => {
        this.proxyReady = r;
        return r;
      },
      (e) => {
        this.proxy = null;
        throw e;
      },
    );
    return this.proxy;
  }

  private async fetchAndLoadProxy(): Promise<LoadedModel> {
    const path = this.proxyPath;
    const missing = new RewardSourceError(
      `the ${this.task.id} task ships no proxy reward model (${path}); train one with npm run train-rm -- --task ${this.task.id}`,
    );
    if (!this.o.baseUrl) throw missing;
    let res: Response | null;
    try {
      res = await fetchShipped(
        new URL(path, this.o.baseUrl),
        this.o.fetchFn ?? fetch,
        this.o.proxyShipped ?? null,
        "check the connection, then try again",
      );
    } catch (e) {
      throw new RewardSourceError(message(e));
    }
    if (!res) throw missing;
    const bytes = new Uint8Array(await res.arrayBuffer());
    this.o.onProxyLoading?.();
    const model = await this.loadModel(bytes);
    return {
      source: onnxReward(model, this.tokenizer, { name: "proxy-rm" }),
      info: infoOf(model, path, bytes),
      model,
    };
  }

  /**
   * Load and check a model against this task's tokenizer: beyond the contract (loadOnnxRewardModel), a model whose
   * metadata names another tokenizer is refused (its ids stand for other characters: another task's reward model).
   * @throws RewardSourceError naming both tokenizers; whatever the loader throws.
   */
  private async loadModel(bytes: Uint8Array): Promise<OnnxRewardModel> {
    if (!this.o.loadOnnx) throw new RewardSourceError("this lab cannot load ONNX reward models");
    const model = await this.o.loadOnnx(bytes, this.tokenizer.vocabSize, this.tokenizer.padId);
    const theirs = tokenizerRef(model.metadata[RM_METADATA.tokenizer] ?? "");
    const ours = tokenizerRef(this.task.tokenizerPath);
    if (theirs && theirs !== ours) {
      await model.release();
      throw new RewardSourceError(
        `it was made for ${clipped(theirs, 60)}, not this task's ${ours} (its metadata "${RM_METADATA.tokenizer}"): its token ids stand for other characters here, so its scores would mean nothing`,
      );
    }
    return model;
  }
}

/** A tokenizer reference as the models name it: "public/models/x/tokenizer.json" and "./models/…" as "models/…". */
const tokenizerRef = (path: string) => path.trim().replace(/^(\.\/)?(public\/)?/, "");

function infoOf(model: OnnxRewardModel, name: string, bytes: Uint8Array): RewardModelInfo {
  const { vocabSize, maxLength } = model;
  return { name, vocabSize, maxLength, warnings: [...model.warnings], sha256: bytesDigest(bytes) };
}

/**
 * The reward source a run optimises now: a RewardSource whose target can change between steps (a settings
 * change), so the algorithm keeps its one `env.reward`.
 */
export class RunReward implements RewardSource {
  constructor(
    public choice: RewardChoice,
    private source: RewardSource,
  ) {}

  get name(): string {
    return this.source.name;
  }

  score(samples: readonly RewardSample[]): Promise<Float64Array> | Float64Array {
    return this.source.score(samples);
  }

  /** Optimise `source` (for `choice`) from the next scoring on. */
  set(choice: RewardChoice, source: RewardSource): void {
    this.choice = choice;
    this.source = source;
  }
}
