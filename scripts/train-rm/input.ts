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
