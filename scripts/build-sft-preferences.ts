/**
 * The shipped preference datasets: completions sampled from the SFT checkpoint, paired and labelled by the
 * simulated annotator (scripts/build-preferences.ts `buildPreferences`):
 *
 *   npm run build-sft-preferences -- --task sentiment|arithmetic [--pairs N] [--per-prompt K] [--seed 0]
 *        [--flip 0.25] [--sampler tfjs-wasm|wgsl] [--skip-ties | --no-skip-ties] [--checkpoint PATH] [--out DIR]
 *        [--name preferences]
 *
 * Reads PATH (default public/models/<task>/sft.safetensors); writes DIR/NAME.jsonl (default DIR
 * public/models/<task>, NAME preferences) with its .meta.json and .samples.jsonl sidecars and, when DIR is the
 * shipped folder, records all three in public/models/manifest.json with the code revision and the run time (which
 * the files leave out, so a rebuild can match them). The shipped arithmetic reward model trains on its own, larger
 * file (NAME rm-preferences: `--pairs 10000 --seed 1`, docs/reward-models.md), so that the pairs the DPO lesson
 * samples stay as they are.
 * Prompts: ⌈0.9·pairs⌉ train prompts and the rest held-out eval prompts (pairs marked split "eval", for the
 * reward model's held-out accuracy); K completions per prompt at τ = 1 (the task's maxNewTokens).
 * Samplers: the TF.js twin on the WASM backend (default; recomputes each step on the CPU, seeded by our Rng)
 * or our WGSL Generator (`--sampler wgsl`; the lab's KV-cached sampler — on a real GPU the faster one).
 * Defaults per task:
 * - sentiment: 3,000 pairs, K = 4, skipTies (most completions hold no AFINN word and score 0: with K = 2 and ties
 *   kept, 248 of 300 pairs were coin tosses). 300 pairs were too few for the reward model: it memorised its 268
 *   train pairs (train label accuracy 1.0) and stayed at chance on held-out pairs (gold accuracy 0.51 on 290);
 * - arithmetic: 1,000 pairs, K = 4, skipTies (two wrong sums both score 0 and two right sums are the same
 *   text, so only right-vs-wrong pairs carry information; K = 4 gives each prompt several such pairs).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { checkedInput, realNumber, scriptArgs, wholeNumber, writableFolder } from "../cli/args";
import { disposeTfGpt, tfGptFromFlat } from "../cli/bench/tfjs-gpt";
import { acquireGpu } from "../src/gpu/device";
import { readCheckpointPath } from "../src/model/checkpoint_files";
import { GptWeights } from "../src/model/weights";
import { loadTask } from "../src/tasks/index";
import { preferencesToJsonl, samplesToJsonl } from "../src/tasks/preferences";
import type { PromptSamples, TaskId } from "../src/tasks/task";
import { readTokenizerFile } from "../src/tokenizer/node";
import { Rng } from "../src/util/rng";
import { buildPreferences, type CompletionGenerator } from "./build-preferences";
import { codeRevision } from "./code-revision";
import { recordShipped, shellQuote } from "./models-manifest";
import { type CompleteOptions, wgslComplete } from "./pretrain/sample";
import { tfCompleteCached } from "./pretrain/tfjs-kv-sample";
import { tfjsWasm } from "./pretrain/tfjs-wasm";

const DEFAULTS: Record<TaskId, { pairs: number; perPrompt: number; skipTies: boolean }> = {
  sentiment: { pairs: 3000, perPrompt: 4, skipTies: true },
  arithmetic: { pairs: 1000, perPrompt: 4, skipTies: true },
};

const USAGE =
  "usage: npm run build-sft-preferences -- --task sentiment|arithmetic [--pairs N] [--per-prompt K] [--seed 0] [--flip 0.25] [--sampler tfjs-wasm|wgsl] [--skip-ties | --no-skip-ties] [--checkpoint PATH] [--out DIR] [--name preferences]";

async function main(): Promise<number> {
  const { values } = scriptArgs(USAGE, {
    options: {
      task: { type: "string" },
      pairs: { type: "string" },
      "per-prompt": { type: "string" },
      seed: { type: "string", default: "0" },
      flip: { type: "string", default: "0.25" },
      sampler: { type: "string", default: "tfjs-wasm" },
      "skip-ties": { type: "boolean" },
      "no-skip-ties": { type: "boolean" },
      checkpoint: { type: "string" },
      out: { type: "string" },
      name: { type: "string", default: "preferences" },
    },
  });
  const taskId = values.task as TaskId;
  if (taskId !== "sentiment" && taskId !== "arithmetic") {
    console.error("--task sentiment|arithmetic is required");
    return 2;
  }
  const sampler = values.sampler;
  if (sampler !== "tfjs-wasm" && sampler !== "wgsl") {
    console.error("--sampler must be tfjs-wasm or wgsl");
    return 2;
  }
  const name = values.name;
  if (!/^[\w-]+$/.test(name)) {
    console.error("--name must be a plain file name (letters, digits, - and _)");
    return 2;
  }
  const d = DEFAULTS[taskId];
  const shipped = `public/models/${taskId}`;
  const dir = values.out ?? shipped;
  const ckPath = values.checkpoint ?? `${shipped}/sft.safetensors`;
  // Numbers, the checkpoint and the output folder are checked before the sampling (a bad --flip or an --out that
  // cannot be written once failed after it, with a stack trace).
  const { pairs, perPrompt, seed, flip } = checkedInput(() => {
    const checked = {
      pairs: wholeNumber("pairs", values.pairs, d.pairs, 1),
      perPrompt: wholeNumber("per-prompt", values["per-prompt"], d.perPrompt, 2),
      seed: wholeNumber("seed", values.seed, 0),
      flip: realNumber("flip", values.flip, 0.25, 0, 1),
    };
    if (!existsSync(ckPath)) throw new RangeError(`--checkpoint ${ckPath}: no such file`);
    writableFolder("out", dir);
    return checked;
  });
  const skipTies = values["skip-ties"] ? true : values["no-skip-ties"] ? false : d.skipTies;
  const t0 = performance.now();
  const revision = codeRevision(); // the code as the run starts

  const ck = await readCheckpointPath(ckPath);
  const tok = readTokenizerFile(`public/${ck.tokenizer}`);
  const task = await loadTask(taskId);
  const opts: CompleteOptions = {
    maxNewTokens: task.generation.maxNewTokens,
    greedy: false,
    temperature: 1,
    batch: taskId === "arithmetic" ? 256 : 64,
  };
  let complete: (prompts: readonly string[], seed: number) => Promise<string[]>;
  let cleanup: () => void;
  if (sampler === "wgsl") {
    const ctx = await acquireGpu();
    const w = new GptWeights(ctx, ck.config, ck.params);
    complete = (prompts, s) => wgslComplete(ctx, w, tok, prompts, opts, s);
    cleanup = () => {
      w.destroy();
      ctx.destroy();
    };
  } else {
    const { tf } = await tfjsWasm();
    const m = await tfGptFromFlat(tf, ck.config, ck.params);
    complete = (prompts, s) => tfCompleteCached(m, tok, prompts, opts, new Rng(s));
    cleanup = () => disposeTfGpt(m);
  }
  const generator: CompletionGenerator = async (prompts, rng): Promise<PromptSamples[]> => {
    const repeated = prompts.flatMap((p) => Array<string>(perPrompt).fill(p));
    console.log(`sampling ${repeated.length} completions (${sampler}) …`);
    const texts = await complete(repeated, rng.int(0, 2 ** 31 - 1));
    return prompts.map((prompt, i) => ({
      prompt,
      completions: texts.slice(i * perPrompt, (i + 1) * perPrompt),
    }));
  };
  const ckSha = createHash("sha256").update(readFileSync(ckPath)).digest("hex");
  const source = `sft:${ckPath.replace(/^public\//, "")} (sha256 ${ckSha}), ${sampler}, τ=1, ${perPrompt} per prompt`;
  const built = await buildPreferences(task, generator, { seed, flipRate: flip, pairs, skipTies }, source);
  cleanup();
  const runTime = Math.round((performance.now() - t0) / 1000);

  mkdirSync(dir, { recursive: true });
  const files = {
    pairs: `${dir}/${name}.jsonl`,
    meta: `${dir}/${name}.meta.json`,
    samples: `${dir}/${name}.samples.jsonl`,
  };
  // max_new_tokens: the sampling limit, which says which stored completions were cut (src/tasks/preferences.ts
  // encodeCompletion: those as long as it get no EOS). No run time: it is a fact of this run, not of the data,
  // and would make every rebuild differ; the manifest entries hold it.
  const meta = {
    ...built.meta,
    per_prompt: perPrompt,
    sampler,
    temperature: 1,
    max_new_tokens: opts.maxNewTokens,
  };
  writeFileSync(files.pairs, preferencesToJsonl(built.records));
  writeFileSync(files.meta, `${JSON.stringify(meta, null, 2)}\n`);
  writeFileSync(files.samples, samplesToJsonl(built.samples));
  // The command as given, plus the pair counts it resolved (defaults may change), so that the manifest says how
  // to make these files again.
  const resolved = [
    ...(values.pairs === undefined ? ["--pairs", String(pairs)] : []),
    ...(values["per-prompt"] === undefined ? ["--per-prompt", String(perPrompt)] : []),
  ];
  const command = `npm run build-sft-preferences -- ${[...process.argv.slice(2), ...resolved].map(shellQuote).join(" ")}`;
  for (const [role, path] of Object.entries(files))
    if (dir === shipped)
      recordShipped(path.slice("public/".length), "preferences", taskId, {
        role,
        ...(role === "pairs" ? { ...built.meta, per_prompt: perPrompt, sampler } : {}),
        ...(role === "samples" ? { prompts: built.samples.length, per_prompt: perPrompt } : {}),
        run_time_s: runTime,
        command,
        code_revision: revision,
      });
  console.log(`wrote ${files.pairs} in ${runTime} s: ${JSON.stringify(meta)}`);
  for (const r of built.records.slice(0, 4)) console.log(JSON.stringify(r));
  return 0;
}

process.exit(await main());
