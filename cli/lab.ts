/**
 * The headless lab (same src/ code as the page):
 *   npm run lab -- train --task <sentiment|arithmetic> --algo <id: src/lab/registry.ts, e.g. ppo|grpo|dpo|kto>
 *                        [--model nano|tiny|small|<path.safetensors>] [--steps N] [--seed S] [--set key=value]...
 *                        [--out run.jsonl] [--save model.safetensors]
 *                        (--set reward=proxy optimises the task's shipped rm.onnx, as in the page; gold is the default)
 *   npm run lab -- eval --task <t> [--model <path>] [--vs <path>] [--prompts N] [--samples K] [--temperature τ] [--seed S]
 *   npm run lab -- lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes]
 *                        (a guided lesson's effect, per seed; --runs and --reuse check a lesson piecewise)
 *   npm run lab -- pipeline --task <t> [--recipe quick|shipped] [--set key=value]... [--seed S] [--out result.json]
 *                        (the page's Pipeline headless: SFT, reward model, the SFT model's evaluation; cli/lab/pipeline.ts)
 * `train` writes one JSON object per step ({step, algo, ...metrics}) to --out (and a summary line to stdout);
 * `eval` prints the task's evaluation as JSON; with --vs, the win rate of --model over --vs (gold scorer, 95% CI).
 */
import { existsSync } from "node:fs";
import { parseSetting } from "../src/algorithms/fields";
import { acquireGpu } from "../src/gpu/device";
import { algorithm } from "../src/lab/registry";
import { LabRuns } from "../src/lab/runs";
import { lessonIds, runLessonSeed } from "./lab/lesson";
import { nodeRewardSources } from "./lab/node_rewards";
import { pipelineCommand } from "./lab/pipeline";
import { loadPreferenceFile } from "./lab/preferences";
import { compareModels, evaluateModel, loadStart, openTask, writeRunLog } from "./lab/support";

function args(argv: string[]) {
  const [cmd, ...rest] = argv;
  const o: Record<string, string> = {};
  const sets: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith("--")) throw new RangeError(`unexpected argument "${a}"`);
    const v = rest[i + 1];
    if (v === undefined || v.startsWith("--")) throw new RangeError(`${a} needs a value`);
    if (a === "--set") sets.push(v);
    else o[a.slice(2)] = v;
    i++;
  }
  return { cmd, o, sets };
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === "lesson") return lessonCommand(argv.slice(1));
  const { cmd, o, sets } = args(argv);
  if (cmd === "pipeline") return pipelineCommand(o, sets);
  if (cmd !== "train" && cmd !== "eval")
    throw new RangeError(`usage: lab train|eval|lesson|pipeline … (got "${cmd ?? ""}")`);
  if (!o.task) throw new RangeError("--task is required (sentiment | arithmetic)");
  const seed = Number(o.seed ?? 0);
  const ctx = await acquireGpu();
  const { task, tokenizer } = await openTask(o.task);
  const start = await loadStart(o.model, task.id, tokenizer, seed);
  if (cmd === "eval") {
    const opts = {
      prompts: Number(o.prompts ?? 64),
      samples: Number(o.samples ?? 1),
      temperature: Number(o.temperature ?? 1),
      seed,
    };
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
  } else {
    if (!o.algo) throw new RangeError("--algo is required");
    const info = algorithm(o.algo);
    const config = Object.fromEntries(sets.map((kv) => parseSetting(info.id, info.fields, kv)));
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
    const lab = await runs.create({ id: info.id, algo: info.id, label: info.title, config });
    const run = lab.run;
    const steps = Number(o.steps ?? 20);
    const log = writeRunLog(o.out ?? null);
    for (let s = 0; s < steps; s++) {
      const r = await run.step();
      const line = { step: r.step, algo: info.id, ...r.metrics };
      log.write(line);
      console.log(
        `step ${r.step} reward ${r.metrics.reward.toFixed(3)} gold ${r.metrics.reward_gold.toFixed(3)} kl ${r.metrics["objective/kl"].toFixed(3)} entropy ${r.metrics.entropy.toFixed(3)} (${r.metrics.step_time.toFixed(1)} s)`,
      );
    }
    await log.close();
    if (o.save) {
      const { writeCheckpointPath } = await import("../src/model/checkpoint_files");
      await writeCheckpointPath(o.save, {
        config: start.config,
        params: await lab.env.policy.download(),
        tokenizer: start.tokenizerRef,
        info: {
          task: task.id,
          algo: info.id,
          steps: String(steps),
          seed: String(seed),
          settings: JSON.stringify(run.config),
        },
      });
      console.log(`saved ${o.save}`);
    }
    lab.destroy();
    runs.destroy();
  }
  ctx.destroy();
  await ctx.lost;
}

const LESSON_USAGE =
  "usage: lab lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes] [--train no]";

/** `lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes] [--train no]` (cli/lab/lesson.ts). */
async function lessonCommand(argv: string[]) {
  const [which, ...rest] = argv;
  if (!which) throw new RangeError(LESSON_USAGE);
  const { o } = args(["lesson", ...rest]);
  const ids = lessonIds(which);
  if (o.runs && ids.length > 1) throw new RangeError("--runs names runs of one lesson: give its id, not all");
  const seeds = (o.seeds ?? "0,1,2").split(",").map(Number);
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new RangeError(`--seeds: ${o.seeds}`);
  if (o.reuse !== undefined && o.reuse !== "yes" && o.reuse !== "no")
    throw new RangeError(`--reuse yes|no: ${o.reuse}`);
  if (o.reuse === "yes" && !o.out)
    throw new RangeError("--reuse yes reads the logs under --out DIR: give --out");
  if (o.train !== undefined && o.train !== "yes" && o.train !== "no")
    throw new RangeError(`--train yes|no: ${o.train}`);
  if (o.train === "no" && o.reuse !== "yes")
    throw new RangeError("--train no checks from the logs: give --reuse yes");
  const ctx = await acquireGpu();
  let failed = 0;
  let partial = 0;
  for (const id of ids)
    for (const seed of seeds) {
      const v = await runLessonSeed(ctx, id, seed, {
        seeds,
        steps: o.steps ? Number(o.steps) : undefined,
        out: o.out ?? null,
        runs: o.runs?.split(","),
        reuse: o.reuse === "yes",
        train: o.train !== "no",
        log: (l) => console.error(l),
      });
      console.log(JSON.stringify(v));
      if (v.partial) partial++;
      else if (!v.ok) failed++;
    }
  const n = ids.length * seeds.length;
  console.error(
    failed === 0 && partial === 0
      ? "every lesson seed showed its effect"
      : `${failed} of ${n} lesson seeds did not show the effect; ${partial} not checked (runs missing)`,
  );
  ctx.destroy();
  await ctx.lost;
  if (failed || partial) process.exitCode = 2;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(`lab: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  },
);
