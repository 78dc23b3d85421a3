/**
 * Export file names: what and when, so that files of several runs, seeds and steps land side by side without
 * clashing. A run's files: "<label slug>-<task>-seed<seed>-step<step>" + ".csv", ".run.json", ".config.json",
 * ".safetensors", ".onnx"; all runs' CSV: "<task>-seed<seed>-all-runs-step<furthest step>.csv".
 */
import { slug } from "./trl_py";

/**
 * "ppo-beta-0-arithmetic-seed0-step6" (no extension) of a run labelled "PPO β = 0" at step 6, seed 0; a task or
 * seed that is not known (null: a run imported from a file that did not say) is left out.
 */
export function runFileBase(label: string, task: string | null, seed: number | null, step: number): string {
  return `${slug(label)}${task === null ? "" : `-${task}`}${seed === null ? "" : `-seed${seed}`}-step${step}`;
}

/** "arithmetic-seed0-all-runs-step6.csv": every run's CSV, named by the furthest step of any. */
export function allRunsFileName(task: string, seed: number, step: number): string {
  return `${task}-seed${seed}-all-runs-step${step}.csv`;
}
