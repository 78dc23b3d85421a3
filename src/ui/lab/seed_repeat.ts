/**
 * "Repeat on other seeds" (the run card's button beside Duplicate): copies of a run — same algorithm and
 * settings, from the start model (not a fork: no weights, no history) — on the next seeds that no identical
 * run (same algorithm and settings, any label) already trains on, each labelled with its seed ("PPO seed 1").
 * With the run itself that makes 1 + k seeds of one configuration: the seeds summary (seed_groups.ts) then
 * shows their spread, the yardstick of any difference between two configurations (Henderson et al. 2018).
 * Pure: the action (actions.ts repeatOnSeeds) adds the specs.
 */
import type { RunSpec } from "../../lab/protocol";
import { withoutHistory } from "../../lab/run_labels";
import { configKey } from "../../lab/seed_labels";
import { MAX_RUNS, MAX_SEED, runSeed } from "../../lab/settings";
import { freeColour } from "./palette";
import { freeId, freeLabel } from "./run_specs";

/** Copies "Repeat on other seeds" adds by default: with the run, 3 seeds in all. */
export const REPEAT_SEEDS = 2;

export { configKey };

/** "PPO seed 1" → "PPO": a label without the lab's history marks and its seed mark. */
function baseLabel(label: string): string {
  return withoutHistory(label).replace(/ \(?seed \d+\)?$/, "") || label;
}

export interface SeedRepeat {
  /** The copies to add (none when the lab is full). */
  specs: RunSpec[];
  /**
   * The seed to give `source` as its own (its effective one: the experiment's) when it has none and copies are
   * made, so that Change… of the experiment's seed keeps it apart from its copies; null: leave it.
   */
  sourceSeed: number | null;
  /** Why fewer than `k` were made (the run limit), for the lab's notice; null when all were. */
  note: string | null;
}

/**
 * Copies of `source` on the `k` next seeds above its own (`experimentSeed` when it has none) that no run of
 * `runs` with the same configuration ({@link configKey}) trains on, as many as the lab's MAX_RUNS leaves room
 * for (`own`: the lab's own runs, imports for comparison aside; `runs`: every run, for ids, labels and colours).
 * A run listed twice in either (a copy being added is in the lab's spec and still pending) counts once.
 */
export function repeatSpecs(
  runs: readonly RunSpec[],
  own: readonly RunSpec[],
  source: RunSpec,
  experimentSeed: number,
  k = REPEAT_SEEDS,
): SeedRepeat {
  const byId = <T extends RunSpec>(xs: readonly T[]) => [...new Map(xs.map((r) => [r.id, r])).values()];
  runs = byId(runs);
  own = byId(own);
  const key = configKey(source);
  const used = new Set(
    own.filter((r) => configKey(r) === key).map((r) => runSeed(r, { seed: experimentSeed })),
  );
  const room = Math.max(0, MAX_RUNS - own.length);
  const n = Math.min(k, room);
  const specs: RunSpec[] = [];
  const all = [...runs];
  const base = baseLabel(source.label);
  for (
    let seed = runSeed(source, { seed: experimentSeed }) + 1;
    specs.length < n && seed <= MAX_SEED;
    seed++
  ) {
    if (used.has(seed)) continue;
    const spec: RunSpec = {
      id: freeId(all, source.algo),
      algo: source.algo,
      label: freeLabel(all, `${base} seed ${seed}`),
      config: { ...source.config },
      colour: freeColour(all),
      seed,
    };
    specs.push(spec);
    all.push(spec);
  }
  const note =
    specs.length === k
      ? null
      : `${specs.length === 0 ? "No copy" : `Only ${specs.length} of ${k} copies`} of ${source.label} could be added: ${MAX_RUNS} runs is the most a lab holds (a link keeps no more). Remove a run to repeat it on more seeds.`;
  const sourceSeed = specs.length > 0 && source.seed === undefined ? experimentSeed : null;
  return { specs, sourceSeed, note };
}
