/**
 * `npm run lab -- lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR] [--runs a,b] [--reuse yes] [--train no]`:
 * the headless check that a guided lesson (src/lab/presets) shows its effect on the shipped models. For each seed it
 * builds the lesson's experiment exactly as the page would (the worker's LabRuns: same environment, reference
 * model, preference data and reward sources), trains every run for the lesson's length (or --steps), writes each
 * run's metrics to DIR/<lesson>/seed<S>/<run>.jsonl, and applies the lesson's check. Prints one JSON verdict per
 * seed and a summary; the exit code is 0 only when the effect showed on every seed.
 *
 * Each run is trained on its own (its own sampler seeds, the shared frozen reference and reward models), so a
 * lesson can be checked piecewise: `--runs` trains only the named runs, and `--reuse yes` reads a run whose log
 * under DIR already holds the steps instead of training it again. A seed whose check needs a run that is
 * missing is reported as partial (not checked), never as a pass; runs the check does not read may be left out.
 * `--train no` (with --reuse yes) trains nothing: the check from the logs alone, e.g. at a shorter --steps than
 * the logs hold (a log's first N steps are a run of N steps: no setting depends on the run's length). It also
 * reads logs of the same settings written by other training code (or before logs named it, as the shipped
 * docs/lesson-runs): the verdict lists them under `otherCode`; training would make them again.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { GpuContext } from "../../src/gpu/context";
import { recordMetrics } from "../../src/lab/export/columns";
import { type LessonVerdict, MissingRunError } from "../../src/lab/presets/checks";
import { PRESET_IDS, type PresetId } from "../../src/lab/presets/ids";
import { LESSONS } from "../../src/lab/presets/index";
import type { ExperimentSpec, RunSpec } from "../../src/lab/protocol";
import type { LabResources } from "../../src/lab/resources";
import { LabRuns } from "../../src/lab/runs";
import { trainingCodeHash } from "./code_hash";
import { nodeRewardSources } from "./node_rewards";
import { loadPreferenceFile } from "./preferences";
import { RunLogLines } from "./run_log";
import { loadStart, openTask, writeRunLog } from "./support";

export interface LessonRunOptions {
  seeds: number[];
  /** Steps per run; default: the lesson's own length. */
  steps?: number;
  /** Where the per-run JSONL logs go; null: none. */
  out: string | null;
  /** Train only these runs (default: all of the lesson's). */
  runs?: readonly string[];
  /** Read a run's metrics from its complete log under `out` instead of training it. */
  reuse?: boolean;
  /** false: train nothing, check from the logs alone (a run without a complete log is missing). Default true. */
  train?: boolean;
  log?: (line: string) => void;
}

export interface SeedVerdict extends LessonVerdict {
  lesson: PresetId;
  seed: number;
  steps: number;
  seconds: number;
  /** Runs read back from their logs (--reuse). */
  reused: string[];
  /** Of those, runs whose log another version of the training code wrote, or one that did not say (--train no). */
  otherCode: string[];
  /** Runs neither trained nor found in a log. */
  missing: string[];
  /** The check needed a missing run: not checked (ok is false). */
  partial: boolean;
}

/**
 * A run's metrics from its JSONL log: the first `steps` lines, when the log holds steps 1…steps in order;
 * null when the file is missing, short, out of order or cut off mid-line. Each row holds what the step logged
 * (its own `samples` and `tokens`, from the line's `samples_step` and `tokens_step`; src/lab/export/columns.ts
 * recordMetrics, which also reads the older logs that wrote the step's own under `samples` and `tokens`).
 */
export function readRunLog(path: string, steps: number): Record<string, number>[] | null {
  if (!existsSync(path)) return null;
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  if (lines.length < steps) return null;
  const rows: Record<string, number>[] = [];
  for (let i = 0; i < steps; i++) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(lines[i]) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (o.step !== i + 1) return null;
    rows.push(recordMetrics(o));
  }
  return rows;
}

/**
 * What made a run's log (next to it as <run>.spec.json): the lesson, task, start model, seed, the run's
 * settings and the training code's fingerprint (./code_hash.ts). A log is reused only under the same identity,
 * so a lesson retuned since, or a log of another version of the lab, is trained again.
 */
export function runIdentity(lesson: PresetId, spec: ExperimentSpec, run: RunSpec, code: string): string {
  return JSON.stringify({ lesson, task: spec.task, model: spec.model, seed: spec.seed, run, code });
}

/** An identity without its code fingerprint (null when it is not an identity's JSON). */
function settingsOf(identity: string): string | null {
  try {
    const { code: _, ...settings } = JSON.parse(identity) as Record<string, unknown>;
    return JSON.stringify(settings);
  } catch {
    return null;
  }
}

/**
 * The log at `path` when its identity file names the same lesson, task, start model, seed and settings, with
 * `sameCode` when the same training code wrote it (false: another version, or a log from before logs named
 * it); else null.
 */
function reusableLog(
  path: string,
  identity: string,
  steps: number,
): { rows: Record<string, number>[]; sameCode: boolean } | null {
  const idPath = path.replace(/\.jsonl$/, ".spec.json");
  if (!existsSync(idPath)) return null;
  const written = readFileSync(idPath, "utf8").trim();
  const sameCode = written === identity;
  if (!sameCode) {
    const settings = settingsOf(written);
    if (settings === null || settings !== settingsOf(identity)) return null;
  }
  const rows = readRunLog(path, steps);
  return rows && { rows, sameCode };
}

/** Train one lesson at one seed and check it. */
export async function runLessonSeed(
  ctx: GpuContext,
  id: PresetId,
  seed: number,
  o: LessonRunOptions,
): Promise<SeedVerdict> {
  const lesson = LESSONS[id];
  const spec = lesson.experiment(seed);
  const steps = o.steps ?? spec.steps ?? 20;
  const unknown = (o.runs ?? []).filter((r) => !spec.runs.some((x) => x.id === r));
  if (unknown.length)
    throw new RangeError(
      `--runs: lesson ${id} has no run ${unknown.join(", ")} (it has ${spec.runs.map((r) => r.id).join(", ")})`,
    );
  const t0 = performance.now();
  const { task, tokenizer } = await openTask(spec.task);
  const start = await loadStart(spec.model === "sft" ? undefined : spec.model, task.id, tokenizer, seed);
  const prefsPath = `public/models/${task.id}/preferences.jsonl`;
  const res: LabResources = {
    task,
    tokenizer,
    start,
    prefs: existsSync(prefsPath)
      ? await loadPreferenceFile(prefsPath, tokenizer, seed, task.generation.maxNewTokens)
      : null,
    notices: [],
  };
  const runs = new LabRuns(ctx, res, seed, nodeRewardSources(task, tokenizer));
  const histories: Record<string, Record<string, number>[]> = {};
  const reused: string[] = [];
  const otherCode: string[] = [];
  const code = trainingCodeHash();
  try {
    for (const r of spec.runs) {
      const path = o.out ? `${o.out}/${id}/seed${seed}/${r.id}.jsonl` : null;
      const identity = runIdentity(id, spec, r, code);
      const old = o.reuse && path ? reusableLog(path, identity, steps) : null;
      // Another version's log only where nothing is trained: training makes it again with today's code.
      if (old && (old.sameCode || o.train === false)) {
        histories[r.id] = old.rows;
        reused.push(r.id);
        if (!old.sameCode) otherCode.push(r.id);
        continue;
      }
      if (o.train === false || (o.runs && !o.runs.includes(r.id))) continue;
      const run = await runs.create(r);
      const log = writeRunLog(path);
      if (path) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path.replace(/\.jsonl$/, ".spec.json"), `${identity}\n`);
      }
      const rows: Record<string, number>[] = [];
      const lines = new RunLogLines({ run: r.id, algo: r.algo });
      try {
        for (let s = 0; s < steps; s++) {
          const out = await run.step();
          rows.push(out.metrics);
          log.write(lines.line(out.step, out.metrics));
          o.log?.(
            `${id} seed ${seed} ${r.id} step ${out.step}/${steps} reward ${out.metrics.reward?.toFixed(3)} gold ${out.metrics.reward_gold?.toFixed(3)} kl ${out.metrics["objective/kl"]?.toFixed(3)} entropy ${out.metrics.entropy?.toFixed(3)}`,
          );
        }
      } finally {
        await log.close();
        run.destroy();
      }
      histories[r.id] = rows;
    }
  } finally {
    runs.destroy();
  }
  const head = {
    lesson: id,
    seed,
    steps,
    seconds: Math.round((performance.now() - t0) / 1000),
    reused,
    otherCode,
  };
  const missing = spec.runs.map((r) => r.id).filter((r) => !histories[r]);
  try {
    return { ...head, missing, partial: false, ...lesson.check(histories) };
  } catch (e) {
    if (!(e instanceof MissingRunError) || !missing.includes(e.run)) throw e;
    const summary = `partial: the check needs run ${e.run}, which was neither trained nor logged`;
    return { ...head, missing, partial: true, ok: false, conditions: {}, numbers: {}, summary };
  }
}

/** The lessons named by `which` ("all" or an id). @throws RangeError on an unknown id. */
export function lessonIds(which: string): PresetId[] {
  if (which === "all") return [...PRESET_IDS];
  if (!(PRESET_IDS as readonly string[]).includes(which))
    throw new RangeError(`unknown lesson "${which}" (known: ${PRESET_IDS.join(", ")}, all)`);
  return [which as PresetId];
}
