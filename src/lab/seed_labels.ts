/**
 * How a run's own training seed (RunSpec.seed) is named where runs are told apart: the run card's "seed N" and
 * the charts' legend label "PPO (seed 1)". Only a run whose seed differs from the experiment's is marked (the
 * others train on the experiment's seed, shown in the top bar); a label that already says its seed ("PPO seed 1",
 * as Repeat on other seeds names its copies) is not marked twice.
 */
import type { RunSpec } from "./protocol";
import { nonDefaultConfig } from "./spec_check";

/**
 * The key of a run's configuration: its algorithm and the settings that differ from its defaults (not its seed,
 * label or colour). Runs with equal keys on several seeds are one configuration's seeds (Repeat on other seeds,
 * the Across seeds table, Change…'s warning of two such runs on one seed).
 */
export function configKey(run: Pick<RunSpec, "algo" | "config">): string {
  const c = nonDefaultConfig(run.algo, run.config);
  return JSON.stringify([
    run.algo,
    Object.keys(c)
      .sort()
      .map((k) => [k, c[k]]),
  ]);
}

/** "seed N" for a run whose own seed differs from the experiment's `experimentSeed`; null otherwise. */
export function seedNote(run: Pick<RunSpec, "seed">, experimentSeed: number): string | null {
  return run.seed !== undefined && run.seed !== experimentSeed ? `seed ${run.seed}` : null;
}

/** Whether `label` already names `seed N` (as a whole word: "seed 1" is not in "seed 12"). */
function namesSeed(label: string, note: string): boolean {
  return new RegExp(`(^|\\W)${note}(?!\\d)`).test(label);
}

/**
 * The label the legend shows: the run's, with " (seed N)" when its own seed differs from the experiment's and
 * the label does not say it already ("PPO" on seed 1 in a seed-0 lab: "PPO (seed 1)").
 */
export function seededLabel(run: Pick<RunSpec, "label" | "seed">, experimentSeed: number): string {
  const note = seedNote(run, experimentSeed);
  return note && !namesSeed(run.label, note) ? `${run.label} (${note})` : run.label;
}
