/**
 * The headless lab (same src/ code as the page):
 *   npm run lab -- train --task <sentiment|arithmetic> --algo <id: src/lab/registry.ts, e.g. ppo|grpo|dpo|kto>
 *                        [--model nano|tiny|small|<path.safetensors>] [--steps N] [--seed S] [--set key=value]...
 *                        [--prefs pairs.jsonl] [--out run.jsonl] [--save model.safetensors]
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
import { existsSync } from "node:fs";
import { parseSetting } from "../src/algorithms/fields";
import { acquireGpu } from "../src/gpu/device";
import { linkedSettings } from "../src/lab/linked_settings";
import { LESSONS } from "../src/lab/presets/index";
import { lessonStatusText } from "../src/lab/presets/lesson";
import { algorithm } from "../src/lab/registry";
import { LabRuns } from "../src/lab/runs";
import { MAX_SEED } from "../src/lab/settings";
import {
  readArgs,
  realNumber,
  runTool,
  UsageRequest,
  wholeNumber,
  wholeNumbers,
  writableFile,
  writableFolder,
} from "./args";
import { lessonHelp, lessonRunLines, trainHelp } from "./lab/help";
import { lessonIds, runLessonSeed } from "./lab/lesson";
import { nodeRewardSources } from "./lab/node_rewards";
import { PIPELINE_OPTIONS, PIPELINE_USAGE, pipelineCommand } from "./lab/pipeline";
import { loadPreferenceFile } from "./lab/preferences";
import { RunLogLines } from "./lab/run_log";
import { compareModels, evaluateModel, loadStart, openTask, writeRunLog } from "./lab/support";

const TRAIN_USAGE =
  "usage: lab train --task <sentiment|arithmetic> --algo <id> [--model nano|tiny|small|<path.safetensors>] " +
  "[--steps N] [--seed S] [--set key=value]... [--prefs pairs.jsonl] [--out run.jsonl] [--save model.safetensors]";
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
          options: ["task", "algo", "model", "steps", "seed", "prefs", "out", "save"],
          lists: ["set"],
          usage: TRAIN_USAGE,
          help: (v) => trainHelp(TRAIN_USAGE, typeof v.algo === "string" ? v.algo : undefined),
        })
      : readArgs(rest, {
          options: ["task", "model", "vs", "prompts", "samples", "temperature", "seed"],
          usage: EVAL_USAGE,
        });
  if (!o.task) throw new RangeError("--task is required (sentiment | arithmetic)");
  const seed = wholeNumber("seed", o.seed, 0, 0, MAX_SEED); // as a link takes it;
  if (cmd === "eval") {
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
  // Everything a run needs is checked before the GPU starts: its settings, length and output paths.
  if (!o.algo) throw new RangeError("--algo is required");
  const info = algorithm(o.algo);
  // A loss or cost set without its β or d brings its own (SimPO's β = 2), as the run card does.
  const config = linkedSettings(
    { algo: info.id, config: {} },
    Object.fromEntries(lists.set.map((kv) => parseSetting(info.id, info.fields, kv))),
  );
  if (config.reward === "custom" || config.reward === "pipeline")
    throw new RangeError(
      `--set reward=${config.reward} scores with ${config.reward === "custom" ? "an .onnx loaded in the page" : "the reward model the page's Pipeline trained"}; here: gold or proxy`,
    );
  const steps = wholeNumber("steps", o.steps, 20, 1);
  if (o.prefs !== undefined && !existsSync(o.prefs)) throw new RangeError(`--prefs ${o.prefs}: no such file`);
  if (o.out) writableFile("out", o.out);
  if (o.save) writableFile("save", o.save);
  const { task, tokenizer } = await openTask(o.task);
  const start = await loadStart(o.model, task.id, tokenizer, seed);
  const ctx = await acquireGpu();
  {
    const prefsPath = o.prefs ?? `public/models/${task.id}/preferences.jsonl`;
    const prefs =
      info.id === "dpo" && existsSync(prefsPath)
        ? await loadPreferenceFile(prefsPath, tokenizer, seed, task.generation.maxNewTokens)
        : null;
    // The page's own run factory: environment, shared reference, reward source (`--set reward=proxy`).
    const runs = new LabRuns(
      ctx,
      { task, tokenizer, start, prefs, notices: [] },
      seed,
      nodeRewardSources(task, tokenizer),
    );
    const spec = { id: info.id, algo: info.id, label: info.title, config };
    // What the lab sets that the command did not (DPO without a preference file trains online), said.
    const set = runs.effectiveConfig(spec);
    for (const k of Object.keys(set))
      if (set[k] !== config[k])
        console.log(`${info.id}: ${k} ${set[k]} (no preference file at ${prefsPath})`);
    // A setting given that its other settings leave unused (the run card greys it out): said, not silent.
    for (const f of info.fields) {
      const w = f.usedWhen;
      const now = w && (set[w.key] ?? info.fields.find((x) => x.key === w.key)?.default);
      if (w && f.key in config && !w.values.includes(now as string | boolean))
        console.log(
          `${info.id}: ${f.key} has no effect with ${w.key} ${String(now)} (used with ${w.values.join(" or ")})`,
        );
    }
    const lab = await runs.create(spec);
    const run = lab.run;
    const log = writeRunLog(o.out ?? null);
    // Stopped (Ctrl-C, a kill): the log's last line says so, or it would read as a finished shorter run.
    // Stopped (Ctrl-C, a kill): the step on the GPU ends first (exiting under it crashed Dawn: SIGSEGV), then the
    // log's last line says so, or it would read as a finished shorter run. A second Ctrl-C ends it at once.
    let done = 0;
    let stop: { signal: NodeJS.Signals; code: number } | null = null;
    const stopping = (signal: NodeJS.Signals, code: number) => () => {
      stop ??= { signal, code };
      console.log(`${signal}: stopping after the step in progress (again to stop at once)`);
    };
    const onInt = stopping("SIGINT", 130);
    const onTerm = stopping("SIGTERM", 143);
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    const lines = new RunLogLines({ algo: info.id });
    for (let s = 0; s < steps && !stop; s++) {
      const r = await run.step();
      log.write(lines.line(r.step, r.metrics));
      done = r.step;
      console.log(
        `step ${r.step} reward ${r.metrics.reward.toFixed(3)} gold ${r.metrics.reward_gold.toFixed(3)} kl ${r.metrics["objective/kl"].toFixed(3)} entropy ${r.metrics.entropy.toFixed(3)} (${r.metrics.step_time.toFixed(1)} s)`,
      );
    }
    const stopped = stop as { signal: NodeJS.Signals; code: number } | null;
    if (stopped) {
      log.write({ interrupted: stopped.signal, step: done, steps });
      console.log(`${stopped.signal}: stopped after ${done} of ${steps} steps`);
    }
    // The log is complete: a stop from here on (during --save) ends the command as it would anyway.
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    await log.close();
    if (o.save && !stopped) {
      // The bytes the page's export writes: settings, run state and extra models (PPO's value model) included,
      // so the page's Import continues the run. Written beside and renamed: stopped midway, no half file.
      const bytes = await lab.safetensors(spec, seed);
      const { rename, writeFile } = await import("node:fs/promises");
      await writeFile(`${o.save}.partial`, bytes);
      await rename(`${o.save}.partial`, o.save);
      console.log(`saved ${o.save}`);
    }
    lab.destroy();
    runs.destroy();
    ctx.destroy();
    await ctx.lost;
    return stopped?.code;
  }
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
