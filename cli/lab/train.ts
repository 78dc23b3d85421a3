/**
 * `lab train` (options: ./train_args.ts): one run, or a sweep, by the same code. One run (`--seed S`, single
 * `--set` values) writes its per-step log to `--out FILE.jsonl` and can `--save` the model, as it always has. A
 * sweep — `--seeds 0,1,2` or `0-4`, and/or `--set key=a,b` (./grid.ts) — trains each combination at each seed
 * in turn, in this process and GPU context; per seed, as `lab lesson` does, the start model, preference data,
 * reference and reward models are made once and shared by that seed's runs. Each run's log goes to
 * `--out DIR/<settings>/seed<S>.jsonl` (`DIR/seed<S>.jsonl` when only the seed varies), with its spec beside it
 * as `seed<S>.spec.json` (task, model, seed, algorithm, settings, steps, the lab's version and training-code
 * fingerprint); then the summary across seeds is printed (./sweep_summary.ts) and, with `--summary`, saved.
 * Ctrl-C (or SIGTERM) ends the step in progress: the run's log ends with `{"interrupted": …}`, no further run
 * starts, a sweep still prints the summary of the runs that finished, and the exit code is 130 (143).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gitCommit } from "../../build/version";
import type { GpuContext } from "../../src/gpu/context";
import { acquireGpu } from "../../src/gpu/device";
import type { RunSpec } from "../../src/lab/protocol";
import { LabRuns } from "../../src/lab/runs";
import { trainingCodeHash } from "./code_hash";
import type { GridPoint } from "./grid";
import { nodeRewardSources } from "./node_rewards";
import { loadPreferenceFile } from "./preferences";
import { RunLogLines } from "./run_log";
import { loadStart, openTask, writeRunLog } from "./support";
import { type SweepRun, summarise, summaryCsv, summaryTable } from "./sweep_summary";
import type { TrainPlan } from "./train_args";

type Stop = { signal: NodeJS.Signals; code: number };

/**
 * Ctrl-C and SIGTERM, once each, from `arm()` (the first run made: before that Node's default ends the process):
 * `stop` is set and the step in progress ends (exiting under it crashed Dawn: SIGSEGV); a second signal ends
 * the process at once (Node's default, the handler being gone). `off()` hands them back to Node's default.
 */
class Signals {
  stop: Stop | null = null;
  private armed = false;
  private readonly onInt = this.stopping("SIGINT", 130);
  private readonly onTerm = this.stopping("SIGTERM", 143);

  private stopping(signal: NodeJS.Signals, code: number) {
    return () => {
      this.stop ??= { signal, code };
      console.log(`${signal}: stopping after the step in progress (again to stop at once)`);
    };
  }

  arm(): void {
    if (this.armed) return;
    this.armed = true;
    process.once("SIGINT", this.onInt);
    process.once("SIGTERM", this.onTerm);
  }

  off(): void {
    process.off("SIGINT", this.onInt);
    process.off("SIGTERM", this.onTerm);
  }
}

/** The lab's version and commit, as far as this folder says ("unknown" in the device kit). */
function labVersion(): { version: string; commit: string } {
  let version = "unknown";
  try {
    version = JSON.parse(readFileSync("package.json", "utf8")).version ?? version;
  } catch {}
  return { version, commit: gitCommit(process.cwd()) };
}

/** Run `lab train` as planned; returns the exit code (130/143 when stopped by a signal). */
export async function trainCommand(plan: TrainPlan): Promise<number | undefined> {
  const { info } = plan;
  const { task, tokenizer } = await openTask(plan.task);
  const prefsPath = plan.prefs ?? `public/models/${task.id}/preferences.jsonl`;
  const signals = new Signals();
  const finished: SweepRun[] = [];
  const lab = plan.sweep ? labVersion() : null;
  const code = plan.sweep ? trainingCodeHash() : "";
  let ctx: GpuContext | null = null;
  try {
    for (const seed of plan.seeds) {
      const start = await loadStart(plan.model, task.id, tokenizer, seed);
      ctx ??= await acquireGpu();
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
      try {
        for (const point of plan.grid) {
          if (signals.stop) break;
          const spec: RunSpec = { id: info.id, algo: info.id, label: info.title, config: point.config };
          if (seed === plan.seeds[0]) sayIgnored(runs, spec, plan, prefsPath);
          const path = plan.sweep ? runPath(plan.out, point, seed) : (plan.out ?? null);
          if (path && plan.sweep && lab) {
            mkdirSync(path.slice(0, path.lastIndexOf("/")) || ".", { recursive: true });
            const model = plan.model ?? "sft";
            const about = {
              task: task.id,
              model,
              seed,
              algo: info.id,
              settings: point.config,
              steps: plan.steps,
              lab,
              code,
            };
            writeFileSync(path.replace(/\.jsonl$/, ".spec.json"), `${JSON.stringify(about)}\n`);
          }
          const head = plan.sweep ? `${point.name ? `${point.name} ` : ""}seed ${seed}: ` : "";
          const rows = await trainRun(runs, spec, seed, plan, path, signals, head);
          if (rows) finished.push({ name: point.name, varied: point.varied, seed, rows });
        }
      } finally {
        runs.destroy();
      }
      if (signals.stop) break;
    }
  } finally {
    signals.off();
    if (ctx) {
      ctx.destroy();
      await ctx.lost;
    }
  }
  if (plan.sweep) {
    const lines = summarise(finished, plan.last);
    console.log(summaryTable(lines));
    if (signals.stop)
      console.log(`(${finished.length} of ${plan.seeds.length * plan.grid.length} runs finished)`);
    if (plan.summary)
      writeFileSync(
        plan.summary,
        plan.summary.endsWith(".json") ? `${JSON.stringify(lines, null, 2)}\n` : summaryCsv(lines),
      );
  }
  return signals.stop?.code;
}

/** DIR/<settings>/seed<S>.jsonl, DIR/seed<S>.jsonl when only the seed varies; null without --out. */
export function runPath(out: string | undefined, point: GridPoint, seed: number): string | null {
  if (!out) return null;
  return `${out.replace(/\/+$/, "")}/${point.name ? `${point.name}/` : ""}seed${seed}.jsonl`;
}

/** What the lab sets that the command did not, and settings given that the others leave unused, said. */
function sayIgnored(runs: LabRuns, spec: RunSpec, plan: TrainPlan, prefsPath: string): void {
  const { info } = plan;
  const config = spec.config;
  // DPO without a preference file trains online.
  const set = runs.effectiveConfig(spec);
  for (const k of Object.keys(set))
    if (set[k] !== config[k]) console.log(`${info.id}: ${k} ${set[k]} (no preference file at ${prefsPath})`);
  // A setting given that its other settings leave unused (the run card greys it out): said, not silent.
  for (const f of info.fields) {
    const w = f.usedWhen;
    const now = w && (set[w.key] ?? info.fields.find((x) => x.key === w.key)?.default);
    if (w && f.key in config && !w.values.includes(now as string | boolean))
      console.log(
        `${info.id}: ${f.key} has no effect with ${w.key} ${String(now)} (used with ${w.values.join(" or ")})`,
      );
  }
}

/**
 * Train one run for `plan.steps` steps (fewer when a signal stops it between steps), its log to `path` (a
 * stop's last line says so, or the log would read as a finished shorter run), a line per step to stdout after
 * `head`; one run's `--save` after a full run. Returns the steps' metrics when every step ran, else null.
 */
async function trainRun(
  runs: LabRuns,
  spec: RunSpec,
  seed: number,
  plan: TrainPlan,
  path: string | null,
  signals: Signals,
  head: string,
): Promise<Record<string, number>[] | null> {
  const lab = await runs.create(spec);
  signals.arm();
  try {
    const log = writeRunLog(path);
    const lines = new RunLogLines({ algo: spec.algo });
    const rows: Record<string, number>[] = [];
    for (let s = 0; s < plan.steps && !signals.stop; s++) {
      const r = await lab.run.step();
      log.write(lines.line(r.step, r.metrics));
      rows.push(r.metrics);
      const m = r.metrics;
      console.log(
        `${head}step ${r.step} reward ${m.reward.toFixed(3)} gold ${m.reward_gold.toFixed(3)} kl ${m["objective/kl"].toFixed(3)} entropy ${m.entropy.toFixed(3)} (${m.step_time.toFixed(1)} s)`,
      );
    }
    const stop = signals.stop;
    if (stop) {
      log.write({ interrupted: stop.signal, step: rows.length, steps: plan.steps });
      console.log(`${head}${stop.signal}: stopped after ${rows.length} of ${plan.steps} steps`);
    }
    await log.close();
    if (plan.save && !stop) {
      // The log is complete: a stop from here on (during --save) ends the command as it would anyway.
      signals.off();
      // The bytes the page's export writes: settings, run state and extra models (PPO's value model) included,
      // so the page's Import continues the run. Written beside and renamed: stopped midway, no half file.
      const bytes = await lab.safetensors(spec, seed);
      const { rename, writeFile } = await import("node:fs/promises");
      await writeFile(`${plan.save}.partial`, bytes);
      await rename(`${plan.save}.partial`, plan.save);
      console.log(`saved ${plan.save}`);
    }
    return rows.length === plan.steps ? rows : null;
  } finally {
    lab.destroy();
  }
}
