/** File and model plumbing of the headless lab CLI (Node only). */
import { createWriteStream, existsSync } from "node:fs";
import { finished } from "node:stream/promises";
import type { GpuContext } from "../../src/gpu/context";
import { compareWeights, type EvalOptions, evaluateWeights } from "../../src/lab/evaluate";
import { readCheckpointPath } from "../../src/model/checkpoint_files";
import { type GPTConfig, PRESETS, type PresetName, preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { GptWeights } from "../../src/model/weights";
import { loadTask, TASK_IDS, type Task, type TaskId } from "../../src/tasks";
import { readTokenizerFile } from "../../src/tokenizer/node";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";
import { Rng } from "../../src/util/rng";

export async function openTask(id: string): Promise<{ task: Task; tokenizer: Tokenizer }> {
  if (!TASK_IDS.includes(id as TaskId))
    throw new RangeError(`unknown task "${id}" (known: ${TASK_IDS.join(", ")})`);
  const task = await loadTask(id as TaskId);
  return { task, tokenizer: readTokenizerFile(`public/${task.tokenizerPath}`) };
}

export interface StartModel {
  config: GPTConfig;
  params: Float32Array;
  tokenizerRef: string;
  source: string;
}

/** A preset (fresh seeded init with the tokenizer's vocabulary), a checkpoint path, or the task's shipped SFT model. */
export async function loadStart(
  model: string | undefined,
  task: TaskId,
  tok: Tokenizer,
  seed: number,
): Promise<StartModel> {
  const tokenizerRef = `models/${task}/tokenizer.json`;
  if (model && Object.hasOwn(PRESETS, model)) {
    const config = preset(model as PresetName, { vocabSize: tok.vocabSize });
    const rng = new Rng(seed);
    return {
      config,
      params: initParams(paramLayout(config), () => rng.normal()),
      tokenizerRef,
      source: `${model} (random init, seed ${seed})`,
    };
  }
  const path = model ?? `public/models/${task}/sft.safetensors`;
  if (!existsSync(path))
    throw new RangeError(`no model at ${path}; pass --model nano|tiny|small or a .safetensors path`);
  let ck: Awaited<ReturnType<typeof readCheckpointPath>>;
  try {
    ck = await readCheckpointPath(path);
  } catch (e) {
    throw new RangeError(`${path}: ${e instanceof Error ? e.message : e}`);
  }
  if (ck.info.kind === "reward-model")
    throw new RangeError(`${path} is a reward model (its metadata says kind: reward-model), not a policy`);
  if (ck.config.vocabSize !== tok.vocabSize)
    throw new RangeError(
      `${path}: vocabulary ${ck.config.vocabSize} ≠ the ${task} tokenizer's ${tok.vocabSize}`,
    );
  return { config: ck.config, params: ck.params, tokenizerRef: ck.tokenizer || tokenizerRef, source: path };
}

/**
 * One JSON object per line (or nothing without a path). Check the path first (cli/args.ts writableFile): a
 * write that fails anyway (a full disk) makes close() reject with the path named, never an unhandled error.
 */
export function writeRunLog(path: string | null) {
  if (!path) return { write: (_: object) => {}, close: async () => {} };
  const stream = createWriteStream(path);
  let failed: Error | null = null;
  stream.on("error", (e) => {
    failed ??= e;
  });
  return {
    write: (o: object) => {
      if (!failed) stream.write(`${JSON.stringify(o)}\n`);
    },
    close: async () => {
      stream.end();
      await finished(stream).catch((e: Error) => {
        failed ??= e;
      });
      if (failed) throw new RangeError(`--out ${path}: writing failed (${failed.message})`);
    },
  };
}

/** Sample `samples` completions for `prompts` held-out prompts and run the task's evaluation (src/lab/evaluate.ts). */
export async function evaluateModel(
  ctx: GpuContext,
  task: Task,
  tok: Tokenizer,
  start: StartModel,
  o: EvalOptions,
) {
  const w = new GptWeights(ctx, start.config, start.params);
  try {
    return { task: task.id, model: start.source, ...(await evaluateWeights(ctx, task, tok, w, o)) };
  } finally {
    w.destroy();
  }
}

/**
 * Win rate of `a` over `b` on the same held-out prompts by the gold scorer (AlpacaFarm style), each sampled
 * with its own seed so a model against itself is a fair coin.
 */
export async function compareModels(
  ctx: GpuContext,
  task: Task,
  tok: Tokenizer,
  a: StartModel,
  b: StartModel,
  o: EvalOptions,
) {
  const wa = new GptWeights(ctx, a.config, a.params);
  const wb = new GptWeights(ctx, b.config, b.params);
  try {
    return { task: task.id, a: a.source, b: b.source, ...(await compareWeights(ctx, task, tok, wa, wb, o)) };
  } finally {
    wa.destroy();
    wb.destroy();
  }
}
