/**
 * `npm run lab -- lesson <id|all> [--seeds 0,1,2] [--steps N] [--out DIR]`: the headless check that a guided
 * lesson (src/lab/presets) shows its effect on the shipped models. For each seed it builds the lesson's
 * experiment exactly as the page would (the worker's LabRuns: same environment, reference model, preference
 * data and reward sources), trains every run for the lesson's length (or --steps), writes each run's metrics
 * to DIR/<lesson>/seed<S>/<run>.jsonl, and applies the lesson's check. Prints one JSON verdict per seed and a
 * summary; the exit code is 0 only when the effect showed on every seed.
 */
import { existsSync } from "node:fs";
import type { GpuContext } from "../../src/gpu/context";
import type { LessonVerdict } from "../../src/lab/presets/checks";
import { PRESET_IDS, type PresetId } from "../../src/lab/presets/ids";
import { LESSONS } from "../../src/lab/presets/index";
import type { LabResources } from "../../src/lab/resources";
import { LabRuns } from "../../src/lab/runs";
import { nodeRewardSources } from "./node_rewards";
import { loadPreferenceFile } from "./preferences";
import { loadStart, openTask, writeRunLog } from "./support";

export interface LessonRunOptions {
  seeds: number[];
  /** Steps per run; default: the lesson's own length. */
  steps?: number;
  /** Where the per-run JSONL logs go; null: none. */
  out: string | null;
  log?: (line: string) => void;
}

export interface SeedVerdict extends LessonVerdict {
  lesson: PresetId;
  seed: number;
  steps: number;
  seconds: number;
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
  const t0 = performance.now();
  const { task, tokenizer } = await openTask(spec.task);
  const start = await loadStart(spec.model === "sft" ? undefined : spec.model, task.id, tokenizer, seed);
  const prefsPath = `public/models/${task.id}/preferences.jsonl`;
  const res: LabResources = {
    task,
    tokenizer,
    start,
    prefs: existsSync(prefsPath) ? await loadPreferenceFile(prefsPath, tokenizer, seed) : null,
    notices: [],
  };
  const runs = new LabRuns(ctx, res, seed, nodeRewardSources(task, tokenizer));
  const histories: Record<string, Record<string, number>[]> = {};
  try {
    for (const r of spec.runs) {
      const run = await runs.create(r);
      const log = writeRunLog(o.out ? `${o.out}/${id}/seed${seed}/${r.id}.jsonl` : null);
      const rows: Record<string, number>[] = [];
      try {
        for (let s = 0; s < steps; s++) {
          const out = await run.step();
          rows.push(out.metrics);
          log.write({ step: out.step, run: r.id, algo: r.algo, ...out.metrics });
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
  const verdict = lesson.check(histories);
  return { lesson: id, seed, steps, seconds: Math.round((performance.now() - t0) / 1000), ...verdict };
}

/** The lessons named by `which` ("all" or an id). @throws RangeError on an unknown id. */
export function lessonIds(which: string): PresetId[] {
  if (which === "all") return [...PRESET_IDS];
  if (!(PRESET_IDS as readonly string[]).includes(which))
    throw new RangeError(`unknown lesson "${which}" (known: ${PRESET_IDS.join(", ")}, all)`);
  return [which as PresetId];
}
