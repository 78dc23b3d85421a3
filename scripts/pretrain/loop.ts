/**
 * The pretraining loop, the same for both backends: batches from scripts/pretrain/data.ts, next-token targets
 * on every real token, AdamW at the scheduled learning rate, a log line every `logEvery` steps and, for
 * arithmetic, a greedy held-out evaluation every `evalEvery` steps.
 */
import { disposeTfGpt, tfGptFromFlat, tfParamsFlat } from "../../cli/bench/tfjs-gpt";
import type { Tf } from "../../cli/bench/tfjs-peer";
import { acquireGpu } from "../../src/gpu/device";
import type { HostBatch } from "../../src/model/batch";
import type { GPTConfig } from "../../src/model/config";
import type { AdamWConfig } from "../../src/model/optimizer";
import { nextTokenTargets, SftTrainer } from "../../src/model/sft";
import { GptWeights } from "../../src/model/weights";
import { type Task, unknownTask } from "../../src/tasks/task";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import { Rng } from "../../src/util/rng";
import { arithmeticStream, type DataStream, sentimentStream } from "./data";
import { type CompleteOptions, tfComplete, wgslComplete } from "./sample";
import { type LrSchedule, lrAt, TfAdamW } from "./tfjs-adamw";
import { tfjsWasm } from "./tfjs-wasm";

export type TaskName = "sentiment" | "arithmetic";

export interface PretrainSetup {
  /** The model's context length (tiny's 128 for sentiment; 16 fits every `<bos>a+b=c<eos>` of 2-digit sums). */
  contextLength: number;
  /** Rows per batch and tokens per row. */
  B: number;
  T: number;
  schedule: LrSchedule;
  adamw: Required<Omit<AdamWConfig, "lr">>;
  /** Greedy held-out evaluation every this many steps (0 = never). */
  evalEvery: number;
  /**
   * Stop at the first evaluation whose held-out greedy pass@1 reaches this (0 = run all steps). The lr is
   * constant after warmup, so the stop step k makes the same model as `--steps k`; the run is deterministic,
   * so re-running the same command stops at the same k. (Model selection on the eval prompts: we aim the
   * starting policy at a mediocre accuracy, we do not maximise it.)
   */
  stopAtAccuracy: number;
}

const ADAMW = { beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1.0 };

/**
 * Per-task defaults. sentiment: 600 steps × 16 rows × 128 tokens ≈ 1.2 M tokens ≈ one pass over the book,
 * cosine 2e-3 → 2e-4. arithmetic: 64 sums per step at a constant 1e-3 after warmup, at most 6,000 steps,
 * stopping once the held-out greedy accuracy reaches 40 % (so it lands inside 20–70 %).
 */
export const SETUPS: Record<TaskName, PretrainSetup> = {
  sentiment: {
    contextLength: 128,
    B: 16,
    T: 128,
    schedule: { lr: 2e-3, minLr: 2e-4, warmup: 100, steps: 600, kind: "cosine" },
    adamw: ADAMW,
    evalEvery: 0,
    stopAtAccuracy: 0,
  },
  arithmetic: {
    contextLength: 16,
    B: 64,
    T: 12,
    schedule: { lr: 1e-3, minLr: 1e-3, warmup: 100, steps: 6000, kind: "constant" },
    adamw: ADAMW,
    evalEvery: 100,
    stopAtAccuracy: 0.4,
  },
};

interface Engine {
  info: string;
  step(batch: HostBatch, targets: Int32Array, lr: number): Promise<{ loss: number; gradNorm: number }>;
  complete(prompts: readonly string[], o: CompleteOptions, seed: number): Promise<string[]>;
  params(): Promise<Float32Array>;
  dispose(): void;
}

async function tfEngine(
  config: GPTConfig,
  init: Float32Array,
  s: PretrainSetup,
  tok: Tokenizer,
): Promise<Engine> {
  const { tf, info } = await tfjsWasm();
  const m = await tfGptFromFlat(tf as Tf, config, init);
  const opt = new TfAdamW(m);
  return {
    info: `tfjs-wasm (TF.js ${tf.version_core}, ${info.simd ? "SIMD" : "no SIMD"}, ${info.threads} thread)`,
    step: (batch, targets, lr) => opt.step(batch, targets, { ...s.adamw, lr }),
    complete: (prompts, o, seed) => tfComplete(m, tok, prompts, o, new Rng(seed)),
    params: () => tfParamsFlat(m),
    dispose: () => {
      opt.dispose();
      disposeTfGpt(m);
    },
  };
}

async function wgslEngine(
  config: GPTConfig,
  init: Float32Array,
  s: PretrainSetup,
  tok: Tokenizer,
): Promise<Engine> {
  const ctx = await acquireGpu();
  const w = new GptWeights(ctx, config, init);
  const trainer = new SftTrainer(ctx, w, s.B, s.T);
  return {
    info: `wgsl (${ctx.adapter.name}${ctx.adapter.isSoftware ? ", software" : ""})`,
    step: (batch, targets, lr) => trainer.step(batch, targets, { ...s.adamw, lr }),
    complete: (prompts, o, seed) => wgslComplete(ctx, w, tok, prompts, o, seed),
    params: () => w.download(),
    dispose: () => {
      trainer.destroy();
      w.destroy();
      ctx.destroy();
    },
  };
}

export interface TrainArgs {
  task: Task;
  tok: Tokenizer;
  config: GPTConfig;
  init: Float32Array;
  setup: PretrainSetup;
  seed: number;
  backend: "tfjs-wasm" | "wgsl";
  logEvery: number;
  /** Stop after this many steps, keeping the schedule of setup.schedule.steps (0 = run them all). */
  stopAfter?: number;
  /** Called every `snapshotEvery` steps with the current parameters (e.g. to save a checkpoint). */
  snapshotEvery?: number;
  onSnapshot?: (
    step: number,
    params: Float32Array,
    recentLoss: number,
    lossCurve: [number, number][],
    dataHash: string,
  ) => Promise<void>;
}

export interface TrainResult {
  params: Float32Array;
  /** Steps taken (fewer than scheduled when stopAtAccuracy stopped the run). */
  steps: number;
  /** Mean loss of the last 50 steps (nats per token). */
  finalLoss: number;
  /** [step, mean loss of the steps since the previous point]. */
  lossCurve: [number, number][];
  /** [step, held-out greedy pass@1] (arithmetic). */
  evalCurve: [number, number][];
  dataHash: string;
  dataDescription: string;
  backendInfo: string;
}

/** Greedy held-out pass@1 of the task's eval prompts (arithmetic: exact match). */
export async function greedyAccuracy(task: Task, complete: Engine["complete"]): Promise<number> {
  const prompts = task.prompts.eval;
  const out = await complete(
    prompts,
    { maxNewTokens: task.generation.maxNewTokens, greedy: true, batch: 256 },
    0,
  );
  return task.evaluate(prompts.map((prompt, i) => ({ prompt, completions: [out[i]] })))["pass@1"];
}

export async function train(a: TrainArgs): Promise<TrainResult> {
  const { setup: s, tok } = a;
  const id = a.task.id;
  if (id !== "sentiment" && id !== "arithmetic") return unknownTask(id);
  const stream: DataStream =
    id === "sentiment"
      ? await sentimentStream(tok, s.B, s.T, a.seed + 1)
      : arithmeticStream(a.task, tok, s.B, s.T, a.seed + 1);
  const dataDescription =
    id === "sentiment"
      ? `Moby-Dick sentences (${stream.lines}), <bos> sentence <eos> concatenated, rows of ${s.T} from sentence starts`
      : `a+b=c lines of the ${stream.lines} train prompts (arithmeticLines, seed ${a.seed + 1}), <bos> line <eos>`;
  console.log(`data: ${dataDescription}; ${stream.epochTokens} tokens per epoch; sha256 ${stream.dataHash}`);
  const engine =
    a.backend === "wgsl"
      ? await wgslEngine(a.config, a.init, s, tok)
      : await tfEngine(a.config, a.init, s, tok);
  console.log(`backend: ${engine.info}`);
  const losses: number[] = [];
  const lossCurve: [number, number][] = [];
  const evalCurve: [number, number][] = [];
  const t0 = performance.now();
  let stepsRun = s.schedule.steps;
  for (let t = 0; t < s.schedule.steps; t++) {
    const batch = stream.next();
    const lr = lrAt(s.schedule, t);
    const { loss, gradNorm } = await engine.step(batch, nextTokenTargets(batch), lr);
    if (!Number.isFinite(loss)) throw new Error(`loss is ${loss} at step ${t + 1}`);
    losses.push(loss);
    const step = t + 1;
    if (step % a.logEvery === 0 || step === s.schedule.steps) {
      const recent = losses.slice(lossCurve.length ? lossCurve[lossCurve.length - 1][0] : 0);
      const mean = recent.reduce((x, y) => x + y, 0) / recent.length;
      lossCurve.push([step, Number(mean.toFixed(4))]);
      const sec = (performance.now() - t0) / 1000;
      const tokS = (step * s.B * s.T) / sec;
      console.log(
        `step ${step} loss ${mean.toFixed(4)} grad_norm ${gradNorm.toFixed(3)} lr ${lr.toExponential(2)} ` +
          `${sec.toFixed(0)} s ${tokS.toFixed(0)} tok/s`,
      );
    }
    if (a.onSnapshot && a.snapshotEvery && step % a.snapshotEvery === 0 && step < s.schedule.steps) {
      const last = losses.slice(-50);
      await a.onSnapshot(
        step,
        await engine.params(),
        last.reduce((x, y) => x + y, 0) / last.length,
        lossCurve,
        stream.dataHash,
      );
    }
    if (a.stopAfter && step >= a.stopAfter) {
      console.log(`stopping after ${step} steps (--stop-after)`);
      stepsRun = step;
      break;
    }
    if (s.evalEvery > 0 && (step % s.evalEvery === 0 || step === s.schedule.steps)) {
      const acc = await greedyAccuracy(a.task, engine.complete);
      evalCurve.push([step, Number(acc.toFixed(4))]);
      console.log(`step ${step} held-out greedy pass@1 ${(100 * acc).toFixed(1)} %`);
      if (s.stopAtAccuracy > 0 && acc >= s.stopAtAccuracy) {
        console.log(`stopping: accuracy reached ${s.stopAtAccuracy} at step ${step}`);
        stepsRun = step;
        break;
      }
    }
  }
  const last = losses.slice(-50);
  const params = await engine.params();
  engine.dispose();
  return {
    params,
    steps: stepsRun,
    finalLoss: last.reduce((x, y) => x + y, 0) / last.length,
    lossCurve,
    evalCurve,
    dataHash: stream.dataHash,
    dataDescription,
    backendInfo: engine.info,
  };
}
