/**
 * Build a preference dataset (prompt, chosen, rejected) for a task, labelled by a simulated annotator:
 *
 *   node --import tsx --import ./cli/raw-loader.mjs scripts/build-preferences.ts --task sentiment|arithmetic
 *        (--samples FILE.jsonl | --placeholder K) [--seed 0] [--flip 0.25] [--pairs 2000]
 *        [--eval-fraction 0.1] [--task-seed 0] [--skip-ties] [--out PATH]
 *
 * Completions come from a {@link CompletionGenerator}: in code, pass one that samples the SFT policy to
 * {@link buildPreferences} (the pretraining stage does this); on the command line, either a samples file
 * (`--samples`, JSONL of {prompt, completions[]}, see src/tasks/preferences.ts) or the PLACEHOLDER generator
 * (`--placeholder K`: K fake completions per prompt, scripts/placeholder-samples.ts; for dry runs only).
 *
 * Output (default PATH = public/models/<task>/preferences.jsonl; with --placeholder, --out is required):
 * - PATH: the pairs, JSONL in the format of src/tasks/preferences.ts;
 * - PATH with .meta.json for .jsonl: task, seeds, flip rate, source, counts (no timestamp: deterministic);
 * - PATH with .samples.jsonl for .jsonl: the completions the pairs came from (when generated here), so the lab
 *   can rebuild pairs with another seed or flip rate.
 * Random streams: Rng(seed) picks prompts, Rng(seed + 1) drives the generator, Rng(seed + 2) draws pairs and
 * labels; so a different --flip keeps the same prompts, completions and pairs and only relabels.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { checkedInput, realNumber, scriptArgs, wholeNumber, writableFile } from "../cli/args";
import { SimulatedAnnotator } from "../src/tasks/annotator";
import { loadTask } from "../src/tasks/index";
import {
  buildPreferencePairs,
  type PreferenceRecord,
  parseSamplesJsonl,
  preferencesToJsonl,
  samplesToJsonl,
} from "../src/tasks/preferences";
import { type PromptSamples, shuffle, type Task, type TaskId } from "../src/tasks/task";
import { Rng } from "../src/util/rng";
import { placeholderGenerator } from "./placeholder-samples";

/** Completions for prompts (e.g. sampled from a policy); all random choices from `rng`. */
export type CompletionGenerator = (
  prompts: readonly string[],
  rng: Rng,
) => PromptSamples[] | Promise<PromptSamples[]>;

export interface BuildPreferencesOptions {
  /** Seed of prompt choice, generation and labels. Default 0. */
  seed?: number;
  /** Label-flip rate in [0, 1]. Default 0.25. */
  flipRate?: number;
  /** Pairs wanted. Default 2000. */
  pairs?: number;
  /** Share of pairs from the task's eval prompts (the rest from train prompts), in [0, 1]. Default 0.1. */
  evalFraction?: number;
  /** Skip pairs with equal gold scores (see BuildPairsOptions.skipTies). Default false. */
  skipTies?: boolean;
}

/** What {@link buildPreferences} made. */
export interface BuiltPreferences {
  records: PreferenceRecord[];
  samples: PromptSamples[];
  meta: Record<string, unknown>;
}

/**
 * Choose prompts (⌈pairs·(1 − evalFraction)⌉ train and the rest eval, capped by what the task has), get their
 * completions from `source` (a generator, or ready samples used as they are), and label pairs.
 * @throws RangeError on options out of range (see {@link BuildPreferencesOptions}).
 */
export async function buildPreferences(
  task: Task,
  source: CompletionGenerator | readonly PromptSamples[],
  opts: BuildPreferencesOptions = {},
  sourceName = "generator",
): Promise<BuiltPreferences> {
  const seed = opts.seed ?? 0;
  const flipRate = opts.flipRate ?? 0.25;
  const pairs = opts.pairs ?? 2000;
  const evalFraction = opts.evalFraction ?? 0.1;
  if (!(evalFraction >= 0 && evalFraction <= 1))
    throw new RangeError(`evalFraction ${evalFraction} not in [0, 1]`);
  if (!Number.isInteger(pairs) || pairs < 1) throw new RangeError(`pairs ${pairs} must be an integer ≥ 1`);
  let samples: PromptSamples[];
  if (typeof source === "function") {
    const promptRng = new Rng(seed);
    const nTrain = Math.min(Math.ceil(pairs * (1 - evalFraction)), task.prompts.train.length);
    const nEval = Math.min(pairs - Math.ceil(pairs * (1 - evalFraction)), task.prompts.eval.length);
    const prompts = [
      ...shuffle(task.prompts.train, promptRng).slice(0, nTrain),
      ...shuffle(task.prompts.eval, promptRng).slice(0, nEval),
    ];
    samples = await source(prompts, new Rng(seed + 1));
  } else {
    samples = [...source];
  }
  const annotator = new SimulatedAnnotator(task, flipRate);
  const records = buildPreferencePairs(task, samples, annotator, new Rng(seed + 2), {
    pairs,
    skipTies: opts.skipTies ?? false,
  });
  const count = (f: (r: PreferenceRecord) => boolean) => records.filter(f).length;
  const nonTies = count((r) => !r.tie);
  const meta = {
    format: "rlhf-playground/preferences",
    version: 1,
    task: task.id,
    task_seed: task.seed,
    seed,
    flip_rate: flipRate,
    skip_ties: opts.skipTies ?? false,
    source: sourceName,
    pairs: records.length,
    train_pairs: count((r) => r.split === "train"),
    eval_pairs: count((r) => r.split === "eval"),
    ties: records.length - nonTies,
    flipped: count((r) => r.flipped),
    observed_flip_rate: nonTies > 0 ? count((r) => r.flipped) / nonTies : 0,
    created_by: "scripts/build-preferences.ts",
  };
  return { records, samples, meta };
}

/** PATH.jsonl → PATH<suffix>. */
function sidecar(path: string, suffix: string): string {
  return path.endsWith(".jsonl") ? `${path.slice(0, -".jsonl".length)}${suffix}` : `${path}${suffix}`;
}

const USAGE =
  "usage: node --import tsx --import ./cli/raw-loader.mjs scripts/build-preferences.ts --task sentiment|arithmetic (--samples FILE.jsonl | --placeholder K) [--seed 0] [--flip 0.25] [--pairs 2000] [--eval-fraction 0.1] [--task-seed 0] [--skip-ties] [--out PATH]";

async function main(): Promise<number> {
  const { values } = scriptArgs(USAGE, {
    options: {
      task: { type: "string" },
      samples: { type: "string" },
      placeholder: { type: "string" },
      seed: { type: "string", default: "0" },
      flip: { type: "string", default: "0.25" },
      pairs: { type: "string", default: "2000" },
      "eval-fraction": { type: "string", default: "0.1" },
      "task-seed": { type: "string", default: "0" },
      "skip-ties": { type: "boolean", default: false },
      out: { type: "string" },
    },
  });
  const taskId = values.task;
  if (taskId !== "sentiment" && taskId !== "arithmetic") {
    console.error("--task sentiment|arithmetic is required");
    return 2;
  }
  if ((values.samples === undefined) === (values.placeholder === undefined)) {
    console.error("give exactly one of --samples FILE.jsonl and --placeholder K");
    return 2;
  }
  if (values.placeholder !== undefined && values.out === undefined) {
    console.error("--placeholder data is not for shipping: give --out (outside public/models/)");
    return 2;
  }
  // Every number and the input file checked up front, each in one line (Number() let "--pairs abc" through as NaN).
  const n = checkedInput(() => {
    if (values.samples !== undefined && !existsSync(values.samples))
      throw new RangeError(`--samples ${values.samples}: no such file`);
    if (values.out !== undefined) writableFile("out", values.out);
    return {
      taskSeed: wholeNumber("task-seed", values["task-seed"], 0),
      placeholder: wholeNumber("placeholder", values.placeholder, 1, 1),
      seed: wholeNumber("seed", values.seed, 0),
      flipRate: realNumber("flip", values.flip, 0.25, 0, 1),
      pairs: wholeNumber("pairs", values.pairs, 2000, 1),
      evalFraction: realNumber("eval-fraction", values["eval-fraction"], 0.1, 0, 1),
    };
  });
  const task = await loadTask(taskId as TaskId, { seed: n.taskSeed });
  const source = values.samples
    ? parseSamplesJsonl(readFileSync(values.samples, "utf8"))
    : placeholderGenerator(taskId, n.placeholder);
  const sourceName = values.samples ? `samples:${values.samples}` : "placeholder";
  const built = await buildPreferences(
    task,
    source,
    {
      seed: n.seed,
      flipRate: n.flipRate,
      pairs: n.pairs,
      evalFraction: n.evalFraction,
      skipTies: values["skip-ties"],
    },
    sourceName,
  );
  const out = values.out ?? `public/models/${taskId}/preferences.jsonl`;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, preferencesToJsonl(built.records));
  writeFileSync(sidecar(out, ".meta.json"), `${JSON.stringify(built.meta, null, 2)}\n`);
  if (!values.samples) writeFileSync(sidecar(out, ".samples.jsonl"), samplesToJsonl(built.samples));
  console.log(`wrote ${out}: ${JSON.stringify(built.meta)}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(await main());
