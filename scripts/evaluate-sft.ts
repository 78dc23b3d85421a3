/**
 * `npm run evaluate-sft -- --task <sentiment|arithmetic> [--seed S]`: evaluate the shipped SFT checkpoint in our
 * WGSL engine (scripts/pretrain/report.ts: the same report the pretraining run writes when it finishes) and
 * store it as the `evaluation` of its manifest entry, keeping every other fact. For a checkpoint that was a
 * snapshot of a run cut short (`partial` in the manifest), which has no evaluation of its own.
 */
import { checkedInput, scriptArgs, wholeNumber } from "../cli/args";
import { acquireGpu } from "../src/gpu/device";
import { readCheckpointPath } from "../src/model/checkpoint_files";
import { loadTask, TASK_IDS, type TaskId } from "../src/tasks";
import { readTokenizerFile } from "../src/tokenizer/node";
import { readManifest, recordShipped } from "./models-manifest";
import { evaluateCheckpoint } from "./pretrain/report";

const USAGE = "usage: npm run evaluate-sft -- --task sentiment|arithmetic [--seed S]";

async function main(): Promise<number> {
  const { values } = scriptArgs(USAGE, {
    options: { task: { type: "string" }, seed: { type: "string", default: "0" } },
  });
  const task = values.task as TaskId;
  if (!TASK_IDS.includes(task)) {
    console.error(`--task ${TASK_IDS.join("|")} is required`);
    return 2;
  }
  const seed = checkedInput(() => wholeNumber("seed", values.seed, 0));
  const path = `models/${task}/sft.safetensors`;
  const entry = readManifest().files.find((f) => f.path === path);
  if (!entry) {
    console.error(`${path} is not in the manifest`);
    return 2;
  }
  const ck = await readCheckpointPath(`public/${path}`);
  const t = await loadTask(task);
  const tok = readTokenizerFile(`public/${t.tokenizerPath}`);
  const ctx = await acquireGpu();
  const report = await evaluateCheckpoint(ctx, t, tok, ck.config, ck.params, seed);
  ctx.destroy();
  console.log(JSON.stringify(report, null, 2));
  const { path: _p, kind: _k, task: _t, sha256: _s, bytes: _b, ...facts } = entry;
  recordShipped(path, "sft", task, { ...facts, evaluation: report });
  console.log(`manifest: ${path} evaluation recorded`);
  return 0;
}

process.exit(await main());
