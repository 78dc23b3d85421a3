/**
 * The DPO family (Rafailov et al. 2023; SLiC hinge: Zhao et al. 2023; IPO: Azar et al. 2023; SimPO: Meng et
 * al. 2024; cDPO label smoothing): offline on a fixed preference dataset, or online on pairs sampled from the
 * current policy each step and labelled by the simulated annotator (AlpacaFarm, Dubois et al. 2023). Reference
 * sequence log-probs are computed once per pair (cached for the offline dataset). Every step also samples the
 * policy on its prompts, so DPO runs get the same reward/KL/entropy charts as the online algorithms.
 * Spec: ../shared/docs/algorithms.md "DPO family".
 */
import type { Tensor } from "../gpu/tensor";
import { DPO_TERM_COUNT, type DpoLossMetrics, dpoLoss, dpoLossMetrics } from "../kernels/dpo_loss";
import { sequenceLogprob, sequenceLogprobBackward } from "../kernels/sequence_logprob";
import { tokenLogprob, tokenLogprobBackward } from "../kernels/token_logprob";
import { gptBackward, zeroGrads } from "../model/backward";
import { BatchIndex } from "../model/batch_index";
import { gptForward } from "../model/forward";
import { AdamW } from "../model/optimizer";
import { Rng } from "../util/rng";
import {
  COMMON_FIELDS,
  type ConfigValues,
  type Field,
  flipRateField,
  pairsPerStepField,
  patchConfig,
  validateConfig,
} from "./fields";
import { annotatorMetrics, annotatorRng, labelPairs, layoutPairs, type PreferencePair } from "./pairs";
import { type Rollout, RolloutEngine } from "./rollout";
import {
  type AlgorithmRun,
  checkFinite,
  completionBudget,
  type Metrics,
  type RunEnv,
  reportUpdate,
  resumeStep,
  rolloutMetrics,
  rolloutOptions,
  type StepResult,
  stepSeed,
  stepThroughput,
} from "./run";
import type { SequenceBatch } from "./sequences";

export type { PreferencePair } from "./pairs";

/**
 * A fixed dataset in a seeded order (same seed → same pairs in the same order). Its pairs are in gold order
 * (`chosen` has the higher gold score); the run's annotator flips a `flipRate` share of them ({@link offlineFlips}).
 */
export interface PreferenceSource {
  readonly size: number;
  /** Longest prompt and completion in the dataset (tokens). */
  readonly maxPrompt: number;
  readonly maxCompletion: number;
  /**
   * The n pairs of step `step`, their dataset indices (for the reference cache and the flips) and which are
   * gold ties (equal gold scores: never counted as flipped; absent = none).
   */
  batch(step: number, n: number): { pairs: PreferencePair[]; ids: number[]; ties?: boolean[] };
}

/**
 * Which offline pairs the simulated annotator flips: pair `id` is flipped iff u(seed, id) < flipRate, with u
 * uniform in [0, 1) and fixed per (seed, id). A pair keeps its label across epochs, and raising the rate only
 * adds flips (the flipped set at 0.1 is inside the set at 0.3). Dubois et al. 2023 (AlpacaFarm).
 * @param flipRate share in [0, 0.5] (DPO's `flipRate`).
 */
export function offlineFlips(ids: readonly number[], flipRate: number, seed: number): boolean[] {
  return ids.map((id) => Rng.mixed(stepSeed(seed ^ 0x2f1c9b37, id + 1)).float() < flipRate);
}

export const DPO_FIELDS: readonly Field[] = [
  ...COMMON_FIELDS.filter((f) => f.key !== "batchPrompts"),
  pairsPerStepField("Preference pairs per step."),
  {
    key: "mode",
    label: "data",
    kind: "enum",
    default: "offline",
    options: ["offline", "online"],
    doc: "Train on the task's preference dataset, or on pairs sampled from the current policy each step; both are labelled by the simulated annotator at the flip rate.",
    source: "Rafailov et al. 2023; Guo et al. 2024 (online DPO)",
  },
  {
    key: "lossType",
    label: "loss",
    kind: "enum",
    default: "sigmoid",
    options: ["sigmoid", "hinge", "ipo", "simpo"],
    doc: "DPO (sigmoid), hinge (SLiC's, on the reference log-ratio as in RSO and TRL), IPO (squared, on per-token averaged log-probs as TRL), SimPO (reference-free, length-normalised).",
    source: "Rafailov et al. 2023; Zhao et al. 2023; Azar et al. 2023; Meng et al. 2024",
    trl: "loss_type",
  },
  {
    key: "beta",
    label: "β",
    kind: "number",
    default: 0.1,
    min: 0.001,
    max: 100,
    doc: "Strength of the implicit KL constraint: larger β keeps π closer to π_ref; the implicit reward is β·log(π/π_ref). SimPO's usual β is 2 (a run card moves β between 0.1 and 2 with the loss while it is at the other's).",
    source: "Rafailov et al. 2023 eq. 7",
    trl: "beta",
  },
  {
    key: "labelSmoothing",
    label: "ε_ls",
    kind: "number",
    default: 0,
    min: 0,
    max: 0.49,
    doc: "Assumed label-noise rate (cDPO), sigmoid loss only.",
    source: "Mitchell 2023 (cDPO)",
    trl: "label_smoothing",
    usedWhen: { key: "lossType", values: ["sigmoid"] },
  },
  {
    key: "simpoGamma",
    label: "γ",
    kind: "number",
    default: 0.5,
    min: 0,
    max: 10,
    doc: "SimPO's target reward margin.",
    source: "Meng et al. 2024 eq. 6",
    trl: "simpo_gamma",
    usedWhen: { key: "lossType", values: ["simpo"] },
  },
  flipRateField(
    "Share of preference labels the simulated annotator flips: online, of each step's sampled pairs; offline, of the dataset's pairs, labelled again from their gold scores (the shipped sets were built at 0.25).",
  ),
];

/** DPO settings (Rafailov et al. 2023, and the IPO, SLiC and SimPO losses), validated against {@link DPO_FIELDS}. */
export interface DpoConfig extends ConfigValues {
  /** AdamW learning rate, in [0, 1] (log scale); default 1e-4 (Loshchilov & Hutter 2019). */
  lr: number;
  /**
   * B: preference pairs per step, an integer in [1, 256]; algorithm default 8 (CLI/TRL mapping); the lab's
   * starting experiment uses 16 (src/lab/defaults.ts). Fixed once a run starts (buffer shape).
   */
  batchPairs: number;
  /** Completion limit in tokens, an integer in [1, 256] (capped at context − prompt); default 24; fixed. */
  maxNewTokens: number;
  /** τ: sampling temperature, in [0.05, 5]; default 1. Log-probs, KL and entropy use logits/τ. */
  temperature: number;
  /** Sample among the k most likely tokens, an integer in [0, 1024]; default 0 (all). */
  topK: number;
  /** Global gradient-norm clip ‖g‖, in [0, 100]; default 1; 0 = off (Pascanu et al. 2013). */
  maxGradNorm: number;
  /** AdamW decoupled weight decay, in [0, 1]; default 0 (Loshchilov & Hutter 2019). */
  weightDecay: number;
  /** "offline" (the task's preference dataset, default) or "online" (pairs sampled each step; Guo et al. 2024). */
  mode: "offline" | "online";
  /** "sigmoid" (DPO, default), "hinge" (SLiC's, on the reference log-ratio as RSO and TRL), "ipo" (Azar et al. 2023) or "simpo" (Meng et al. 2024). */
  lossType: "sigmoid" | "hinge" | "ipo" | "simpo";
  /** β: strength of the implicit KL constraint, in [0.001, 100]; default 0.1 (Rafailov et al. 2023 eq. 7). */
  beta: number;
  /** ε_ls: assumed label-noise rate (cDPO; sigmoid loss only), in [0, 0.49]; default 0 (Mitchell 2023). */
  labelSmoothing: number;
  /** γ: SimPO's target reward margin (simpo loss only), in [0, 10]; default 0.5 (Meng et al. 2024 eq. 6). */
  simpoGamma: number;
  /** Share of labels the simulated annotator flips, in [0, 0.5]; default 0.25 (Dubois et al. 2023). */
  flipRate: number;
}

/** cDPO's ε_ls applies to the sigmoid loss only; under another loss the setting is kept but unused (0). */
function smoothingOf(c: DpoConfig): number {
  return c.lossType === "sigmoid" ? c.labelSmoothing : 0;
}

/**
 * DPO family, offline or online: owns a RolloutEngine of 2·batchPairs rows, an AdamW over env.policy, a
 * BatchIndex and loss buffers; destroy() frees them, not env's models. RangeError on an invalid config,
 * offline without a dataset, or a loss other than simpo without a reference; step() NonFiniteMetricError.
 */
export class DpoRun implements AlgorithmRun {
  readonly algo = "dpo";
  config: DpoConfig;
  private readonly engine: RolloutEngine;
  private readonly opt: AdamW;
  private readonly t: Record<
    "logp" | "dlogp" | "seqLogp" | "lengths" | "refLogps" | "grad" | "terms" | "sums",
    Tensor
  >;
  private readonly refCache = new Map<number, [number, number]>();
  private readonly index: BatchIndex;
  private steps = 0;

  constructor(
    private readonly env: RunEnv,
    private readonly prefs: PreferenceSource | null,
    config: Partial<DpoConfig> = {},
  ) {
    this.config = validateConfig<DpoConfig>("dpo", DPO_FIELDS, config);
    const c = this.config;
    if (c.mode === "offline" && !prefs) throw new RangeError("dpo.mode offline needs a preference dataset");
    if (c.lossType !== "simpo" && !env.ref)
      throw new RangeError(`dpo loss ${c.lossType} needs a reference model`);
    const P = Math.max(env.prompts.maxLength, prefs?.maxPrompt ?? 0);
    const S = Math.max(completionBudget(env, c.maxNewTokens, P), prefs?.maxCompletion ?? 0);
    const R = 2 * c.batchPairs;
    this.engine = new RolloutEngine(env.ctx, env.policy, env.ref, R, P, S);
    this.opt = new AdamW(env.ctx, env.policy);
    this.index = new BatchIndex(env.ctx, "dpo");
    const N = this.engine.acts.N;
    const f = (n: number, label: string) => env.ctx.tensor([n], "f32", label);
    this.t = {
      logp: f(N, "dpo.logp"),
      dlogp: f(N, "dpo.dlogp"),
      seqLogp: f(R, "dpo.seqLogp"),
      lengths: f(R, "dpo.lengths"),
      refLogps: f(R, "dpo.refLogps"),
      grad: f(R, "dpo.grad"),
      terms: f(DPO_TERM_COUNT * c.batchPairs, "dpo.terms"),
      sums: f(DPO_TERM_COUNT, "dpo.sums"),
    };
  }

  get stepsDone(): number {
    return this.steps;
  }

  resumeAt(steps: number): void {
    this.steps = resumeStep(steps);
  }

  get optimizer(): AdamW {
    return this.opt;
  }

  setConfig(patch: Record<string, number | string | boolean>): void {
    const next = patchConfig<DpoConfig>("dpo", DPO_FIELDS, this.config, patch);
    if (next.mode === "offline" && !this.prefs)
      throw new RangeError("dpo.mode offline needs a preference dataset");
    if (next.lossType !== "simpo" && !this.env.ref)
      throw new RangeError(`dpo loss ${next.lossType} needs a reference model`);
    // Cached reference log-probs were measured at the old τ.
    if (next.temperature !== this.config.temperature) this.refCache.clear();
    this.config = next;
  }

  /** Sample two completions per prompt (rows i and i + B) and measure them: the step's charts, and online pairs. */
  private sample(prompts: number[][], step: number): Promise<Rollout> {
    const c = this.config;
    const { env } = this;
    // The engine's S also holds the dataset's pairs (possibly longer): sample the run's own budget only.
    const maxNewTokens = completionBudget(env, c.maxNewTokens, this.engine.P);
    return this.engine.collect([...prompts, ...prompts], { ...rolloutOptions(env, c, step), maxNewTokens });
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const { env } = this;
    const t0 = performance.now();
    const step = this.steps + 1;
    const B = c.batchPairs;
    const offline = c.mode === "offline" && this.prefs ? this.prefs.batch(step - 1, B) : null;
    const prompts = offline ? offline.pairs.map((p) => p.prompt) : env.prompts.batch(step - 1, B);
    const r = await this.sample(prompts, step);
    // Counted once its samples are scored: a step whose reward failed can be tried again as it was.
    this.steps = step;
    const metrics: Metrics = rolloutMetrics(r);
    let pairs: PreferencePair[];
    let flips: boolean[] = [];
    if (offline) {
      // A tie's order is a coin either way: swapping it is not a flip.
      flips = offlineFlips(offline.ids, c.flipRate, env.seed).map((f, i) => f && !offline.ties?.[i]);
      pairs = offline.pairs.map((p, i) => (flips[i] ? { ...p, chosen: p.rejected, rejected: p.chosen } : p));
      Object.assign(
        metrics,
        annotatorMetrics(flips.filter(Boolean).length, offline.ties?.filter(Boolean).length ?? 0, B),
      );
    } else {
      const lab = labelPairs(r, c.flipRate, annotatorRng(env.seed, step));
      pairs = lab.pairs;
      flips = lab.flips;
      Object.assign(metrics, annotatorMetrics(lab.flipped, lab.ties, B));
    }
    const seq = layoutPairs(pairs, this.engine.P, this.engine.S, env.padId);
    const cache = offline ? { ids: offline.ids, flips } : null;
    const ref = c.lossType === "simpo" ? null : await this.referenceLogps(seq, cache);
    reportUpdate(env, 0, 1);
    const m = await this.train(seq, ref);
    const len = Array.from(seq.lengths);
    Object.assign(metrics, m.dpo.metrics, {
      loss: m.dpo.loss,
      grad_norm: m.gradNorm,
      learning_rate: c.lr,
      kl_coef: c.beta,
    });
    Object.assign(metrics, stepThroughput(t0, r.tokens, 2 * B));
    checkFinite(metrics, step);
    const preferences = {
      pairs: pairs.map((p, i) => ({
        prompt: p.prompt,
        chosen: p.chosen.slice(0, len[i]),
        rejected: p.rejected.slice(0, len[i + B]),
      })),
      logps: {
        chosenLogps: m.logps.slice(0, B),
        rejectedLogps: m.logps.slice(B),
        refChosenLogps: ref?.slice(0, B) ?? null,
        refRejectedLogps: ref?.slice(B) ?? null,
        chosenLengths: len.slice(0, B),
        rejectedLengths: len.slice(B),
      },
      options: {
        lossType: c.lossType,
        beta: c.beta,
        labelSmoothing: smoothingOf(c),
        simpoGamma: c.simpoGamma,
      },
      flipped: flips,
    };
    return { step, metrics, rollout: r, preferences };
  }

  /**
   * Reference sequence log-probs [2B] at τ (chosen rows, then rejected rows): cached per dataset pair in gold
   * order (a flipped pair reads its entry swapped), else one reference forward.
   */
  private async referenceLogps(
    seq: SequenceBatch,
    cache: { ids: number[]; flips: boolean[] } | null,
  ): Promise<Float32Array> {
    const B = this.config.batchPairs;
    const out = new Float32Array(2 * B);
    const orient = (i: number, a: number, b: number): [number, number] => (cache?.flips[i] ? [b, a] : [a, b]);
    if (cache?.ids.every((id) => this.refCache.has(id))) {
      cache.ids.forEach((id, i) => {
        [out[i], out[i + B]] = orient(i, ...this.refCache.get(id)!);
      });
      return out;
    }
    const m = await this.engine.measure(seq, this.config.temperature);
    for (let r = 0; r < 2 * B; r++) for (let j = 0; j < seq.S; j++) out[r] += m.logpRef[r * seq.S + j];
    cache?.ids.forEach((id, i) => {
      this.refCache.set(id, orient(i, out[i], out[i + B]));
    });
    return out;
  }

  private async train(
    seq: SequenceBatch,
    ref: Float32Array | null,
  ): Promise<{ dpo: DpoLossMetrics; gradNorm: number; logps: Float32Array }> {
    const c = this.config;
    const { ctx } = this.env;
    const e = this.engine;
    const w = this.env.policy;
    const R = seq.B;
    const mean = c.lossType === "ipo" || c.lossType === "simpo";
    e.load(seq);
    if (ref) ctx.upload(this.t.refLogps, ref);
    const indexes = this.index.upload(seq.tokens, seq.positions, w.config);
    const tau = c.temperature;
    const mask = e.lossMask;
    const mask2 = mask.reshape([R, seq.T]);
    zeroGrads(ctx, w);
    gptForward(ctx, w, e.acts);
    tokenLogprob(ctx, this.t.logp, e.acts.logits, e.targets, { tau, mask });
    sequenceLogprob(ctx, this.t.seqLogp, this.t.lengths, this.t.logp.reshape([R, seq.T]), mask2);
    dpoLoss(
      ctx,
      { grad: this.t.grad, terms: this.t.terms, sums: this.t.sums },
      {
        logps: this.t.seqLogp,
        refLogps: ref ? this.t.refLogps : null,
        lengths: mean ? this.t.lengths : null,
      },
      { lossType: c.lossType, beta: c.beta, labelSmoothing: smoothingOf(c), simpoGamma: c.simpoGamma },
    );
    sequenceLogprobBackward(ctx, this.t.dlogp.reshape([R, seq.T]), this.t.grad, mask2);
    tokenLogprobBackward(ctx, e.acts.dlogits, e.acts.logits, e.targets, this.t.dlogp, { tau, mask });
    gptBackward(ctx, w, e.acts, indexes);
    this.opt.step({ lr: c.lr, maxGradNorm: c.maxGradNorm, weightDecay: c.weightDecay });
    const [sums, norm, logps] = await Promise.all([
      ctx.read(this.t.sums),
      ctx.read(this.opt.gradNorm),
      ctx.read(this.t.seqLogp),
    ]);
    return { dpo: dpoLossMetrics(sums, R / 2), gradNorm: norm[0], logps: logps as Float32Array };
  }

  destroy(): void {
    this.opt.destroy();
    this.engine.destroy();
    for (const t of Object.values(this.t)) t.destroy();
    this.index.destroy();
  }
}
