/**
 * `lab train`'s command line, checked before the GPU starts (cli/lab/train.ts runs it): the algorithm, the
 * seeds and the grid of settings (./grid.ts), the length, the output paths. A sweep is asked for by `--seeds`
 * or a `--set` with several values; without either the command is one run, as it always was.
 */
import { existsSync } from "node:fs";
import { type AlgorithmInfo, algorithm } from "../../src/lab/registry";
import { MAX_SEED } from "../../src/lab/settings";
import { wholeNumber, writableFile, writableFolder } from "../args";
import { type GridPoint, parseSeeds, settingGrid } from "./grid";

/** Options `lab train` takes (each once), besides the repeatable `--set`. */
export const TRAIN_OPTIONS = [
  "task",
  "algo",
  "model",
  "steps",
  "seed",
  "seeds",
  "last",
  "summary",
  "prefs",
  "out",
  "save",
] as const;

export const TRAIN_USAGE =
  "usage: lab train --task <sentiment|arithmetic> --algo <id> [--model nano|tiny|small|<path.safetensors>] " +
  "[--steps N] [--seed S] [--set key=value]... [--prefs pairs.jsonl] [--out run.jsonl] [--save model.safetensors]\n" +
  "       lab train … [--seeds 0,1,2|0-4] [--set key=a,b]... [--out DIR] [--last N] [--summary FILE.csv|json]\n" +
  "         (a sweep: every combination of the listed values at every seed, one log per run under DIR,\n" +
  "         then mean ± sd across seeds of each run's mean over its last N steps, default min(10, steps))";

/** What `lab train` will do. */
export interface TrainPlan {
  info: AlgorithmInfo;
  task: string;
  /** --model as given (undefined: the task's shipped SFT model). */
  model: string | undefined;
  seeds: number[];
  grid: GridPoint[];
  steps: number;
  /** A sweep (--seeds, or a --set list): --out is a folder, a summary is printed. */
  sweep: boolean;
  out: string | undefined;
  save: string | undefined;
  prefs: string | undefined;
  /** Steps each run's summary mean is over. */
  last: number;
  summary: string | undefined;
}

/**
 * Read and check `lab train`'s options (`o`: TRAIN_OPTIONS by name) and `--set` values.
 * @throws RangeError naming the option and what is wrong.
 */
export function trainPlan(o: Record<string, string | undefined>, sets: readonly string[]): TrainPlan {
  if (!o.task) throw new RangeError("--task is required (sentiment | arithmetic)");
  if (o.seed !== undefined && o.seeds !== undefined)
    throw new RangeError("give --seed S or --seeds list, not both");
  const seeds =
    o.seeds === undefined ? [wholeNumber("seed", o.seed, 0, 0, MAX_SEED)] : parseSeeds(o.seeds, MAX_SEED);
  if (!o.algo) throw new RangeError("--algo is required");
  const info = algorithm(o.algo);
  // A loss or cost set without its β or d brings its own (SimPO's β = 2), as the run card does.
  const grid = settingGrid(info.id, info.fields, sets);
  for (const { config } of grid)
    if (config.reward === "custom" || config.reward === "pipeline")
      throw new RangeError(
        `--set reward=${config.reward} scores with ${config.reward === "custom" ? "an .onnx loaded in the page" : "the reward model the page's Pipeline trained"}; here: gold or proxy`,
      );
  const steps = wholeNumber("steps", o.steps, 20, 1);
  const sweep = o.seeds !== undefined || grid.length > 1;
  if (!sweep && (o.last !== undefined || o.summary !== undefined))
    throw new RangeError(
      `--${o.last !== undefined ? "last" : "summary"} summarises a sweep (--seeds, or --set key=a,b)`,
    );
  if (sweep && o.save)
    throw new RangeError("--save keeps one run's model: not in a sweep (train that run alone)");
  const last = wholeNumber("last", o.last, Math.min(10, steps), 1, steps);
  if (o.summary !== undefined && !/\.(csv|json)$/.test(o.summary))
    throw new RangeError(`--summary ${o.summary}: give a .csv or .json file`);
  if (o.prefs !== undefined && !existsSync(o.prefs)) throw new RangeError(`--prefs ${o.prefs}: no such file`);
  if (o.out) (sweep ? writableFolder : writableFile)("out", o.out);
  if (o.save) writableFile("save", o.save);
  if (o.summary) writableFile("summary", o.summary);
  return {
    info,
    task: o.task,
    model: o.model,
    seeds,
    grid,
    steps,
    sweep,
    out: o.out,
    save: o.save,
    prefs: o.prefs,
    last,
    summary: o.summary,
  };
}
