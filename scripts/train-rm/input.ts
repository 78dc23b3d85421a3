/** train-rm's inputs, checked before any work (../train-rm.ts). */
import { existsSync } from "node:fs";
import { PRESETS } from "../../src/model/config";
import type { TaskId } from "../../src/tasks/task";
import { RM_DATA } from "./record";

/**
 * What keeps a run from starting, checked before any work (the command line's refusal, exit 2): preference data
 * that is not there (naming the script that makes it), `init` naming no file (it once fell back to a fresh init
 * with a warning), `init` with `preset` (a preset is the shape of a fresh init, and a checkpoint has its own),
 * an unknown preset. Null when none.
 */
export function inputProblem(
  task: TaskId,
  o: { data?: string; init?: string; preset?: string },
): string | null {
  const dir = `public/models/${task}`;
  const dataPath = o.data ?? `${dir}/${RM_DATA[task]}`;
  if (!existsSync(dataPath)) {
    const name = RM_DATA[task].replace(/\.jsonl$/, "");
    const make = `npm run build-sft-preferences -- --task ${task}${name === "preferences" ? "" : ` --name ${name}`}`;
    return o.data === undefined
      ? `no preference data at ${dataPath} (${make} makes it; or pass --data FILE.jsonl)`
      : `--data ${o.data}: no such file (npm run build-sft-preferences -- --task ${task} --out DIR makes DIR/preferences.jsonl)`;
  }
  if (o.preset !== undefined && !Object.hasOwn(PRESETS, o.preset))
    return `--preset must be one of ${Object.keys(PRESETS).join("|")}, got "${o.preset}"`;
  if (o.init !== undefined && o.preset !== undefined)
    return `--init and --preset: give one (--init starts from a checkpoint, --preset from a fresh init of that size)`;
  if (o.init !== undefined && !existsSync(o.init))
    return `--init ${o.init}: no such checkpoint (for a fresh init, give --preset nano|tiny|small instead)`;
  return null;
}

/** The command line (../train-rm.ts main). */
export const USAGE =
  "usage: npm run train-rm -- --task sentiment|arithmetic [--steps N] [--seed S] [--batch B] [--lr LR] [--center η] [--data FILE.jsonl] [--init FILE.safetensors | --preset nano|tiny|small] [--out DIR] [--log-every K] [--train-eval-pairs N] [--backend tfjs-wasm|wgsl] [--eos ended|always]\n       npm run train-rm -- --task T --ship DIR\n  --init: the start checkpoint (default public/models/<task>/sft.safetensors; a fresh tiny init when that is missing); --preset: start from a fresh init of that preset instead (not with --init)";

/** What is wrong with `--task` (absent, or a task this script has no preference data for). */
export function taskProblem(task: string | undefined): string {
  return task === undefined
    ? "--task sentiment|arithmetic is required"
    : `--task ${task}: this script trains reward models for sentiment and arithmetic only (its preference files and RM recipes are per task)`;
}
