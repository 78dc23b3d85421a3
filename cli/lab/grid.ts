/**
 * `lab train` sweeps (cli/lab/train.ts): the seeds (`--seeds 0,1,2`, a range `0-4`, or both: `0-2,7`) and the
 * grid of settings (`--set beta=0.05,1`: each value; several such `--set` give every combination, in the order
 * given, the last key varying fastest). Each value is read as a single `--set key=value` is
 * (src/algorithms/fields.ts parseSetting: the same errors for an unknown key or a malformed value), and each
 * combination takes its linked settings (a loss's own β) and is checked against the algorithm's table before
 * any run starts.
 */
import { type Field, parseSetting, validateConfig } from "../../src/algorithms/fields";
import { linkedSettings } from "../../src/lab/linked_settings";
import type { SettingValue } from "../../src/lab/protocol";
import type { AlgoId } from "../../src/lab/registry";

/** One combination of the grid: the settings given (`config`, what the run trains with) and its name. */
export interface GridPoint {
  /** The settings as `--set` gave them, with the linked ones they bring (linkedSettings). */
  config: Record<string, SettingValue>;
  /** Only the keys given as lists, with this point's values ("" when none is: a sweep over seeds alone). */
  varied: Record<string, SettingValue>;
  /** `beta=0.05_lr=0.003` (the varied keys in --set order); "" when nothing varies. */
  name: string;
}

/**
 * `--seeds`: comma-separated whole numbers or ranges `a-b` (a ≤ b), each in [0, max], no repeats.
 * @throws RangeError naming `--seeds` and what is wrong.
 */
export function parseSeeds(raw: string, max: number): number[] {
  const bad = (why: string) => new RangeError(`--seeds ${why}, got "${raw}" (e.g. 0,1,2 or 0-4)`);
  const seeds: number[] = [];
  for (const part of raw.split(",")) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw bad("must be whole numbers or ranges a-b separated by commas");
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw bad(`range ${part.trim()} runs backwards`);
    if (b > max) throw bad(`must be in [0, ${max}]`);
    if (b - a >= 1000) throw bad("range is over 1000 seeds");
    for (let s = a; s <= b; s++) {
      if (seeds.includes(s)) throw bad(`repeats seed ${s}`);
      seeds.push(s);
    }
  }
  return seeds;
}

/**
 * The grid of `--set` values for algorithm `algo` (its `fields`): one point per combination. A single value is
 * the same for every point, as today; a value with commas (`beta=0.05,1`) is each of them.
 * @throws RangeError for a malformed `key=value`, an unknown key or bad value (parseSetting's messages), an
 *   empty value in a list (`beta=0.05,`), a key given twice, a repeated value, or a combination the table
 *   refuses (validateConfig's message).
 */
export function settingGrid(algo: AlgoId, fields: readonly Field[], sets: readonly string[]): GridPoint[] {
  const axes: [string, SettingValue[]][] = [];
  for (const kv of sets) {
    const i = kv.indexOf("=");
    const raw = i < 0 ? [] : kv.slice(i + 1).split(",");
    // One value (or none: parseSetting says "expects key=value" or the field's own error for "").
    const values =
      raw.length <= 1
        ? [parseSetting(algo, fields, kv)[1]]
        : raw.map((v) => {
            if (v.trim() === "")
              throw new RangeError(
                `--set ${kv}: an empty value in the list (give values separated by commas)`,
              );
            return parseSetting(algo, fields, `${kv.slice(0, i)}=${v}`)[1];
          });
    const key = kv.slice(0, i);
    if (axes.some(([k]) => k === key))
      throw new RangeError(`--set ${key} given twice (give its values as one list: ${key}=a,b)`);
    if (new Set(values).size < values.length) throw new RangeError(`--set ${kv}: a value repeats`);
    axes.push([key, values]);
  }
  let points: { given: Record<string, SettingValue>; varied: Record<string, SettingValue> }[] = [
    { given: {}, varied: {} },
  ];
  for (const [key, values] of axes)
    points = points.flatMap((p) =>
      values.map((v) => ({
        given: { ...p.given, [key]: v },
        varied: values.length > 1 ? { ...p.varied, [key]: v } : p.varied,
      })),
    );
  return points.map(({ given, varied }) => {
    const config = linkedSettings({ algo, config: {} }, given);
    validateConfig(algo, fields, config);
    const name = Object.entries(varied)
      .map(([k, v]) => `${k}=${v}`)
      .join("_");
    return { config, varied, name };
  });
}
