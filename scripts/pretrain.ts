/**
 * `npm run pretrain -- --task sentiment|arithmetic [--steps N] [--seed S] [--out DIR] [--backend tfjs-wasm|wgsl]
 *    [--stop-after K] [--snapshot-every M]`
 *
 * Trains the `tiny` preset (4 layers, 4 heads, C = 128; vocabulary = the task tokenizer's) with next-token
 * cross-entropy and AdamW (β 0.9/0.95, wd 0.1, clip 1.0; warmup then cosine or constant lr), saves
 * DIR/sft.safetensors (default DIR public/models/<task>) and, when DIR is the shipped folder, records it in
 * public/models/manifest.json with the code revision the run started at. Data: scripts/pretrain/data.ts. Backends:
 * - tfjs-wasm (default): the TF.js twin of our GPT (cli/bench/tfjs-gpt.ts) on TF.js's WASM backend with the
 *   AdamW of scripts/pretrain/tfjs-adamw.ts — ~50× faster than WebGPU on a CPU-only machine. Single-threaded
 *   in Node (the backend's threaded build is not used there), so runs are bit-reproducible.
 * - wgsl: the same data, init and schedule through our SftTrainer on WebGPU (slow on SwiftShader).
 * Both start from initParams(Rng(seed)) and read batches from a stream seeded with seed + 1.
 * After training, the checkpoint is written and recorded, then loaded into our WGSL engine and evaluated there
 * (scripts/pretrain/report.ts), and the evaluation added to its entry (scripts/pretrain/publish.ts). The file's
 * metadata: scripts/pretrain/info.ts. The tokenizer it reads is made and recorded by `npm run build-tokenizer`.
 * --stop-after K stops after K steps of the N-step schedule (deterministic: the same command gives the same
 * file). --snapshot-every M saves (and records) the checkpoint every M steps, marked `partial` in the manifest
 * with the `--stop-after` command that reproduces it, so a run cut short on a busy machine still leaves one.
 */
import { checkedInput, scriptArgs, wholeNumber, writableFolder } from "../cli/args";
import { acquireGpu } from "../src/gpu/device";
import { type Checkpoint, saveCheckpoint } from "../src/model/checkpoint";
import { writeCheckpointPath } from "../src/model/checkpoint_files";
import { type GPTConfig, preset } from "../src/model/config";
import { initParams, paramLayout } from "../src/model/params";
import { loadTask } from "../src/tasks/index";
import { tokenizerPathOf } from "../src/tasks/task";
import { readTokenizerFile } from "../src/tokenizer/node";
import { Rng } from "../src/util/rng";
import { codeRevision } from "./code-revision";
import { recordShipped } from "./models-manifest";
import { checkpointInfo } from "./pretrain/info";
import { type PretrainSetup, SETUPS, type TaskName, train } from "./pretrain/loop";
import { publishCheckpoint } from "./pretrain/publish";
import { evaluateCheckpoint } from "./pretrain/report";

/** Checkpoints ship in the page: keep each under this size. */
const MAX_BYTES = 5 * 1024 * 1024;

const USAGE =
  "usage: npm run pretrain -- --task sentiment|arithmetic [--steps N] [--seed S] [--out DIR] [--backend tfjs-wasm|wgsl] [--log-every K] [--stop-after K] [--snapshot-every M]";

async function main(): Promise<number> {
  const { values } = scriptArgs(USAGE, {
    options: {
      task: { type: "string" },
      steps: { type: "string" },
      seed: { type: "string", default: "0" },
      out: { type: "string" },
      backend: { type: "string", default: "tfjs-wasm" },
      "log-every": { type: "string", default: "50" },
      "stop-after": { type: "string" },
      "snapshot-every": { type: "string", default: "0" },
    },
  });
  const task = values.task as TaskName;
  if (task !== "sentiment" && task !== "arithmetic") {
    console.error("--task sentiment|arithmetic is required");
    return 2;
  }
  const backend = values.backend;
  if (backend !== "tfjs-wasm" && backend !== "wgsl") {
    console.error("--backend must be tfjs-wasm or wgsl");
    return 2;
  }
  const setup: PretrainSetup = { ...SETUPS[task] };
  const outDir = values.out ?? `public/models/${task}`;
  // Numbers and the output folder are checked before any work (a bad one once trained "1.5 steps").
  const { steps, seed, logEvery, stopAfter, snapshotEvery } = checkedInput(() => {
    writableFolder("out", outDir);
    return {
      steps: wholeNumber("steps", values.steps, setup.schedule.steps, 1),
      seed: wholeNumber("seed", values.seed, 0),
      logEvery: wholeNumber("log-every", values["log-every"], 50, 1),
      stopAfter: wholeNumber("stop-after", values["stop-after"], 0),
      snapshotEvery: wholeNumber("snapshot-every", values["snapshot-every"], 0),
    };
  });
  setup.schedule = { ...setup.schedule, steps };
  const t0 = performance.now();
  const revision = codeRevision(); // the code as the run starts (the tree may change during a long run)

  const tokenizer = tokenizerPathOf(task);
  const tok = readTokenizerFile(`public/${tokenizer}`);
  const taskObj = await loadTask(task);
  const config: GPTConfig = preset("tiny", { vocabSize: tok.vocabSize, contextLength: setup.contextLength });
  const rng = new Rng(seed);
  const init = initParams(paramLayout(config), () => rng.normal());
  console.log(
    `pretrain ${task}: tiny (${paramLayout(config).count} parameters, V ${config.vocabSize}, context ` +
      `${config.contextLength}), ${setup.schedule.steps} steps of ${setup.B}×${setup.T}, backend ${backend}`,
  );
  const path = `${outDir}/sft.safetensors`;
  const shipped = path.startsWith("public/models/");
  const command = `npm run pretrain -- --task ${task}${values.steps ? ` --steps ${values.steps}` : ""}${seed ? ` --seed ${seed}` : ""}`;
  const info = { task, backend, seed, scheduledSteps: setup.schedule.steps };
  const facts = {
    code_revision: revision,
    config,
    tokenizer,
    preset: "tiny",
    batch: [setup.B, setup.T],
    schedule: setup.schedule,
    adamw: setup.adamw,
    seed,
  };
  // The tokenizer is not recorded here: `npm run build-tokenizer` makes and records it.
  const record = (entryFacts: Record<string, unknown>) => {
    if (!shipped) return;
    const entry = recordShipped(path.slice("public/".length), "sft", task, entryFacts);
    console.log(`manifest: ${entry.path} sha256 ${entry.sha256}`);
  };
  const result = await train({
    task: taskObj,
    tok,
    config,
    init,
    setup,
    seed,
    backend,
    logEvery,
    stopAfter,
    snapshotEvery,
    onSnapshot: async (step, params, recentLoss, lossCurve, dataHash) => {
      const meta = checkpointInfo({ ...info, steps: step, finalLoss: recentLoss, dataHash, partial: true });
      await writeCheckpointPath(path, { config, params, tokenizer, info: meta });
      record({
        ...facts,
        partial: true,
        data_hash: dataHash,
        steps: step,
        tokens_seen: step * setup.B * setup.T,
        final_loss: Number(recentLoss.toFixed(4)),
        loss_curve: lossCurve,
        train_time_s: Math.round((performance.now() - t0) / 1000),
        command: `${command} --stop-after ${step}`,
      });
      console.log(`snapshot: ${path} at step ${step}`);
    },
  });
  const trainSeconds = (performance.now() - t0) / 1000;

  const ck: Checkpoint = {
    config,
    params: result.params,
    tokenizer,
    info: checkpointInfo({
      ...info,
      backendInfo: result.backendInfo,
      steps: result.steps,
      finalLoss: result.finalLoss,
      dataHash: result.dataHash,
    }),
  };
  const bytes = saveCheckpoint(ck).length;
  if (bytes > MAX_BYTES) throw new Error(`checkpoint is ${bytes} bytes, over the ${MAX_BYTES}-byte limit`);
  // Recorded as soon as it is written; the evaluation (in OUR engine, the lab's: WebGPU) is added after.
  await publishCheckpoint(
    {
      write: async () => {
        await writeCheckpointPath(path, ck);
        console.log(`wrote ${path} (${bytes} bytes) after ${trainSeconds.toFixed(0)} s`);
      },
      record,
      evaluate: async () => {
        const ctx = await acquireGpu();
        const r = await evaluateCheckpoint(ctx, taskObj, tok, config, result.params, seed);
        ctx.destroy();
        console.log(JSON.stringify(r, null, 2));
        return r;
      },
      seconds: () => (performance.now() - t0) / 1000,
    },
    {
      ...facts,
      data_hash: result.dataHash,
      data: result.dataDescription,
      steps: result.steps,
      tokens_seen: result.steps * setup.B * setup.T,
      ...(setup.stopAtAccuracy ? { stop_at_accuracy: setup.stopAtAccuracy } : {}),
      final_loss: Number(result.finalLoss.toFixed(4)),
      loss_curve: result.lossCurve,
      ...(result.evalCurve.length ? { eval_curve: result.evalCurve } : {}),
      backend: result.backendInfo,
      train_time_s: Math.round(trainSeconds),
      command: `${command}${values["stop-after"] ? ` --stop-after ${values["stop-after"]}` : ""}`,
    },
  );
  return 0;
}

process.exit(await main());
