/**
 * The headless lab (same src/ code as the page):
 *   npm run lab -- train --task <sentiment|arithmetic> --algo <id: src/lab/registry.ts, e.g. ppo|grpo|dpo|kto>
 *                        [--model nano|tiny|small|<path.safetensors>] [--steps N] [--seed S] [--set key=value]...
 *                        [--prefs pairs.jsonl] [--out run.jsonl] [--save model.safetensors]
 *                        [--seeds 0,1,2|0-4] [--set key=a,b]... [--out DIR] [--last N] [--summary FILE.csv|json]
 *                        (a sweep: every combination at every seed, one log per run, a summary across seeds;
 *                        cli/lab/train.ts)
 *                        (--set reward=proxy optimises the task's shipped rm.onnx, as in the page; gold is the default;
 *                        --prefs: offline DPO's pairs, default public/models/<task>/preferences.jsonl)
 *   npm run lab -- eval --task <t> [--model <path>] [--vs <path>] [--prompts N] [--samples K] [--temperature τ] [--seed S]
 *   npm run lab -- lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes]
 *                        (a guided lesson's effect, per seed; --runs and --reuse check a lesson piecewise;
 *                        `lesson <id|all> --list-runs` prints each lesson's id and run ids, for scripts)
 *   npm run lab -- pipeline --task <t> [--recipe quick|shipped] [--set key=value]... [--seed S] [--out result.json]
 *                        (the page's Pipeline headless: SFT, reward model, the SFT model's evaluation; cli/lab/pipeline.ts)
 * `train` writes one JSON object per step ({step, algo, samples, tokens, ...metrics}, the page CSV's columns:
 * cli/lab/run_log.ts) to --out (and a line per step to stdout);
 * `eval` prints the task's evaluation as JSON; with --vs, the win rate of --model over --vs (gold scorer, 95% CI).
 * Options are checked before any work (cli/args.ts): an unknown one, a bad number or an output path that cannot
 * be written is refused with the usage; `--help` after a command prints its usage.
 */
import { acquireGpu } from "../src/gpu/device";
import { LESSONS } from "../src/lab/presets/index";
import { lessonStatusText } from "../src/lab/presets/lesson";
import { MAX_SEED } from "../src/lab/settings";
import {
  readArgs,
  realNumber,
  runTool,
  UsageRequest,
  wholeNumber,
  wholeNumbers,
  writableFolder,
} from "./args";
import { lessonHelp, lessonRunLines, trainHelp } from "./lab/help";
import { lessonIds, runLessonSeed } from "./lab/lesson";
import { PIPELINE_OPTIONS, PIPELINE_USAGE, pipelineCommand } from "./lab/pipeline";
import { compareModels, evaluateModel, loadStart, openTask } from "./lab/support";
import { trainCommand } from "./lab/train";
import { TRAIN_OPTIONS, TRAIN_USAGE, trainPlan } from "./lab/train_args";

const EVAL_USAGE =
  "usage: lab eval --task <sentiment|arithmetic> [--model <m>] [--vs <m>] [--prompts N] [--samples K] " +
  "[--temperature τ] [--seed S]";
const LESSON_USAGE =
  "usage: lab lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes] [--train no]\n" +
  "       lab lesson <id|all> --list-runs   (one line per lesson: its id and its run ids, comma-separated)";
const USAGE = [
  "usage: lab train|eval|lesson|pipeline … (--help after a command for its options; after `train --algo <id>`,\n" +
    "  the algorithm's settings; after `lesson`, the lesson ids)",
  TRAIN_USAGE,
  EVAL_USAGE,
  LESSON_USAGE,
  PIPELINE_USAGE,
].join("\n");

async function main(): Promise<number | undefined> {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === "--help" || cmd === "-h") throw new UsageRequest(USAGE);
  if (cmd === "lesson") return lessonCommand(rest);
  if (cmd === "pipeline") {
    const a = readArgs(rest, { options: PIPELINE_OPTIONS, lists: ["set"], usage: PIPELINE_USAGE });
    return pipelineCommand(a.values, a.lists.set);
  }
  if (cmd !== "train" && cmd !== "eval")
    throw new RangeError(`${cmd ? `unknown command "${cmd}"` : "no command"}\n${USAGE}`);
  const { values: o, lists } =
    cmd === "train"
      ? readArgs(rest, {
          options: TRAIN_OPTIONS,
          lists: ["set"],
          usage: TRAIN_USAGE,
          help: (v) => trainHelp(TRAIN_USAGE, typeof v.algo === "string" ? v.algo : undefined),
        })
      : readArgs(rest, {
          options: ["task", "model", "vs", "prompts", "samples", "temperature", "seed"],
          usage: EVAL_USAGE,
        });
  if (cmd === "eval") {
    if (!o.task) throw new RangeError("--task is required (sentiment | arithmetic)");
    const seed = wholeNumber("seed", o.seed, 0, 0, MAX_SEED); // as a link takes it
    const opts = {
      prompts: wholeNumber("prompts", o.prompts, 64, 1),
      samples: wholeNumber("samples", o.samples, 1, 1),
      temperature: realNumber("temperature", o.temperature, 1, 0, 100),
      seed,
    };
    const ctx = await acquireGpu();
    const { task, tokenizer } = await openTask(o.task);
    const start = await loadStart(o.model, task.id, tokenizer, seed);
    const result = o.vs
      ? await compareModels(
          ctx,
          task,
          tokenizer,
          start,
          await loadStart(o.vs, task.id, tokenizer, seed + 1),
          opts,
        )
      : await evaluateModel(ctx, task, tokenizer, start, opts);
    console.log(JSON.stringify(result, null, 2));
    ctx.destroy();
    await ctx.lost;
    return;
  }
  // Everything a run or sweep needs is checked before the GPU starts: settings, seeds, length, output paths.
  return trainCommand(trainPlan(o, lists.set));
}

/**
 * `lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes] [--train no]` (cli/lab/lesson.ts);
 * `lesson <id|all> --list-runs` prints the lessons' run ids (cli/lab/help.ts lessonRunLines) and trains nothing.
 */
async function lessonCommand(argv: string[]): Promise<number | undefined> {
  const { values: o, positionals } = readArgs(argv, {
    options: ["seeds", "steps", "out", "runs", "reuse", "train"],
    flags: ["list-runs"],
    positionals: 1,
    usage: LESSON_USAGE,
    help: () => lessonHelp(LESSON_USAGE),
  });
  const which = positionals[0];
  if (!which) throw new RangeError(`which lesson?\n${LESSON_USAGE}`);
  const ids = lessonIds(which);
  if (o["list-runs"]) {
    console.log(lessonRunLines(ids).join("\n"));
    return 0;
  }
  if (o.runs && ids.length > 1) throw new RangeError("--runs names runs of one lesson: give its id, not all");
  const seeds = wholeNumbers("seeds", o.seeds, [0, 1, 2], 0, MAX_SEED); // as a link takes a seed
  const steps = o.steps === undefined ? undefined : wholeNumber("steps", o.steps, 0, 1);
  if (o.reuse !== undefined && o.reuse !== "yes" && o.reuse !== "no")
    throw new RangeError(`--reuse yes|no: ${o.reuse}`);
  if (o.reuse === "yes" && !o.out)
    throw new RangeError("--reuse yes reads the logs under --out DIR: give --out");
  if (o.train !== undefined && o.train !== "yes" && o.train !== "no")
    throw new RangeError(`--train yes|no: ${o.train}`);
  if (o.train === "no" && o.reuse !== "yes")
    throw new RangeError("--train no checks from the logs: give --reuse yes");
  if (o.out && o.train !== "no") writableFolder("out", o.out);
  const ctx = await acquireGpu();
  let failed = 0;
  let partial = 0;
  let otherCode = 0;
  for (const id of ids) {
    // A lesson known not to pass (or not checked yet) says so first: its verdicts are read against that.
    if (LESSONS[id].status.kind !== "verified")
      console.error(`${id}: ${lessonStatusText(LESSONS[id].status)}`);
    for (const seed of seeds) {
      const v = await runLessonSeed(ctx, id, seed, {
        seeds,
        steps,
        out: o.out ?? null,
        runs: o.runs?.split(","),
        reuse: o.reuse === "yes",
        train: o.train !== "no",
        log: (l) => console.error(l),
      });
      console.log(JSON.stringify(v));
      if (v.partial) partial++;
      else if (!v.ok) failed++;
      otherCode += v.otherCode.length;
    }
  }
  const n = ids.length * seeds.length;
  console.error(
    failed === 0 && partial === 0
      ? "every lesson seed showed its effect"
      : `${failed} of ${n} lesson seeds did not show the effect; ${partial} not checked (runs missing)`,
  );
  if (otherCode)
    console.error(
      `${otherCode} run log(s) were written by another version of the training code, or before logs named it (their seeds' "otherCode"): checked as they are; --train yes makes them again`,
    );
  ctx.destroy();
  await ctx.lost;
  return failed || partial ? 2 : 0;
}

runTool("lab", main);
