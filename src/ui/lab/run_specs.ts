/**
 * New run specs for the "add run" picker and the duplicate button: a fresh id (algo-N, the first free N), a
 * label that tells same-algorithm runs apart, the settings the other runs share (a new run) and the lowest
 * colour the other runs leave free (palette.ts).
 * Pure but for the palette's memory of this page's colours (run_specs.test.ts).
 */
import { COMMON_FIELDS } from "../../algorithms/fields";
import { DEVICE_LOST_MARKER, type RunSpec, type SettingValue } from "../../lab/protocol";
import { ALGORITHMS, type AlgoId } from "../../lab/registry";
import { sameRun } from "../../lab/restore";
import { FORK_SUFFIX, forkLabel } from "../../lab/run_labels";
import { RUN_KEYS } from "../../lab/settings";
import { fieldProblem, numberedLabel } from "../../lab/spec_check";
import { freeColour } from "./palette";

/** The first id `${algo}-N` (N ≥ 1) not in use. */
export function freeId(runs: readonly RunSpec[], algo: string): string {
  const used = new Set(runs.map((r) => r.id));
  let n = 1;
  while (used.has(`${algo}-${n}`)) n++;
  return `${algo}-${n}`;
}

/**
 * Settings that mean the same in every algorithm that has them (the sampling and optimiser fields every online
 * algorithm shares, and the reward source), so a new run may take them from runs of other algorithms. Not β,
 * which weighs a KL penalty in PPO or GRPO but is DPO's and KTO's implicit-reward temperature.
 */
const SHAREABLE: ReadonlySet<string> = new Set([...COMMON_FIELDS.map((f) => f.key), ...RUN_KEYS]);

/**
 * The {@link SHAREABLE} settings every run of `runs` sets to the same value and `algo` also has, where that value
 * is valid for `algo`: the default experiment's 48-token limit, a lesson's prompts per step, learning rate or
 * proxy reward. When `runs` has runs of `algo`, the last of them gives every setting instead, as one whole (a
 * config that runs: settings such as PPO's minibatches must fit its prompts per step): the default experiment's
 * PPO samples 16 prompts a step, so a second PPO added to compare β with it does as well. A run added beside
 * them starts from these, so it samples and is scored as they are; {} when there are no runs. `runs` are the
 * lab's own (runs imported for comparison may come from another task).
 */
export function sharedConfig(runs: readonly RunSpec[], algo: AlgoId): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  if (runs.length === 0) return out;
  const { title, fields } = ALGORITHMS[algo];
  const last = runs.findLast((r) => r.algo === algo);
  for (const f of fields) {
    const first = runs[0].config[f.key];
    const shared =
      SHAREABLE.has(f.key) && first !== undefined && runs.every((r) => r.config[f.key] === first)
        ? first
        : undefined;
    const v = last ? last.config[f.key] : shared;
    if (v !== undefined && fieldProblem(title, f, v) === null) out[f.key] = v;
  }
  return out;
}

/**
 * A run of `algo` at its defaults but for the settings the lab's own runs `own` all share ({@link sharedConfig}):
 * "GRPO", or "GRPO 2" (the first free number) when a run of `runs` (all of them, comparisons included) is already
 * called "GRPO". Labels that merely start with it ("GRPO G = 8", a lesson's) leave "GRPO" free.
 */
export function newRunSpec(runs: readonly RunSpec[], algo: AlgoId, own: readonly RunSpec[] = runs): RunSpec {
  return {
    id: freeId(runs, algo),
    algo,
    label: freeLabel(runs, ALGORITHMS[algo].title),
    config: sharedConfig(own, algo),
    colour: freeColour(runs),
  };
}

/** `base`, or "`base` 2", "`base` 3"… (the first no run of `runs` is called; cut to MAX_LABEL characters). */
export function freeLabel(runs: readonly RunSpec[], base: string): string {
  const taken = new Set(runs.map((r) => r.label));
  return numberedLabel(base, (l) => taken.has(l));
}

/**
 * A duplicate of `source` (same settings) that continues from its current state: "PPO (fork @ 12)". Before its
 * first step a duplicate is a copy, named as a new run is ("PPO 2"), as whoever opens the experiment's link sees it
 * (a link's forks start over and lose their fork mark).
 */
export function forkSpec(runs: readonly RunSpec[], source: RunSpec, step: number): RunSpec {
  return {
    id: freeId(runs, source.algo),
    algo: source.algo,
    label:
      step === 0 ? freeLabel(runs, source.label.replace(FORK_SUFFIX, "")) : forkLabel(source.label, step),
    config: { ...source.config },
    colour: freeColour(runs),
    forkOf: { id: source.id, step },
    // Its source's own seed: it goes on with the same prompts and draws.
    ...(source.seed !== undefined && { seed: source.seed }),
  };
}

/** What {@link twinNote} reads of a run (lab_store's RunState has it all). */
export interface TwinState {
  spec: RunSpec;
  status: string;
  markers: readonly { step: number; label: string }[];
  resumedAt?: number;
}

/**
 * The note on a fork that still trains exactly as its source does, or null. A fork continues with its source's
 * weights, optimizer state and step count, so the same prompts and sampler seeds: with the same settings the two
 * runs compute the same numbers step for step, and their lines coincide. That lasts until a setting differs
 * (a marker after the fork step on either run records the change, even one undone since), the source stops
 * (in error), a lost GPU device rebuilt them from checkpoints at or after the fork step, or a reload resumed the
 * two at different steps. `experimentSeed`: the lab's, so a source given its seed explicitly (Repeat on other
 * seeds) still matches a fork that has none.
 */
export function twinNote(
  fork: TwinState,
  source: TwinState | undefined,
  experimentSeed?: number,
): string | null {
  const f = fork.spec.forkOf;
  if (!f || !source || source.spec.id !== f.id || !sameRun(fork.spec, source.spec, experimentSeed))
    return null;
  // A source in error steps no more.
  if (fork.status === "error" || source.status === "error") return null;
  // A recovery from a lost GPU device at the fork step too: each run was rebuilt from its own checkpoint, and
  // state a checkpoint does not hold restarted.
  const apart = (m: { step: number; label: string }) =>
    m.step > f.step || (m.step === f.step && m.label.startsWith(DEVICE_LOST_MARKER));
  if ([...fork.markers, ...source.markers].some(apart)) return null;
  // Resumed from saved weights at different steps after the fork (a reload): each run's optimizer moments
  // started over at its own step, so they went apart there.
  const [a, b] = [fork.resumedAt, source.resumedAt];
  if (a !== b && Math.max(a ?? -1, b ?? -1) > f.step) return null;
  return (
    `Same weights, settings, prompts and random draws as ${source.spec.label} from step ${f.step}: the two ` +
    "train identically (one line hides the other) until you change a setting on one of them."
  );
}
