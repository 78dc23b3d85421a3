/**
 * Run labels that describe a run's history. A duplicate is labelled "PPO (fork @ 12)" (src/ui/lab/run_specs.ts
 * forkSpec), an imported run "PPO (imported)" (src/lab/export/run_file.ts importedSpec); once every run restarts
 * from the start model (Reset, the Pipeline's hand-off, Change…) it is neither a fork nor the imported run, and
 * its label says so no more. The page's store and the worker's scheduler both apply
 * {@link restartedSpecs} to the same runs (by id), so their labels agree.
 */

import type { ExperimentSpec, RunSpec } from "./protocol";
import { MAX_LABEL } from "./settings";

/** The end of a duplicate's label: " (fork @ N)". */
export const FORK_SUFFIX = / \(fork @ \d+\)$/;

/**
 * The end of a label that names the run's history: a fork's " (fork @ N)", an import's " (imported)",
 * " (imported 2)", " (imported, seed 0)" (another seed's run, ./export/run_file.ts importedSpec).
 */
const HISTORY_SUFFIX = / \((?:fork @ \d+|imported(?: \d+)?(?:, seed \d+)?)\)$/;

/**
 * Why a name a user types cannot be a run's: it ends as the lab marks a fork or an import (" (fork @ 3)",
 * " (imported 2)"), marks that go when the run starts over, so such a name would be rewritten ("PPO (imported)"
 * on a DPO run came back as "PPO 2" after Change…). null when the name may be used.
 */
export function historyMarkProblem(label: string): string | null {
  const mark = HISTORY_SUFFIX.exec(label)?.[0].trim();
  return mark
    ? `“${mark}” at the end of a name is the lab's mark for a fork or an import (it goes when the run starts over): pick another name.`
    : null;
}

/** A label without the marks of its history: "PPO (imported) (fork @ 3)" → "PPO". */
export function withoutHistory(label: string): string {
  let base = label;
  while (HISTORY_SUFFIX.test(base)) base = base.replace(HISTORY_SUFFIX, "");
  return base;
}

/**
 * A duplicate's label: "PPO (fork @ 12)" from "PPO" or from "PPO (fork @ 3)" (a fork of a fork), the name cut
 * so that the whole stays within MAX_LABEL characters and always ends with the fork mark.
 */
export function forkLabel(label: string, step: number): string {
  const end = ` (fork @ ${step})`;
  const base = [...label.replace(FORK_SUFFIX, "")].slice(0, Math.max(1, MAX_LABEL - end.length));
  return `${base.join("").trimEnd()}${end}`;
}

/** The experiment without fork points (RunSpec.forkOf): a link's, whose forks start over from the start model. */
export function withoutForkPoints(spec: ExperimentSpec): ExperimentSpec {
  if (!spec.runs.some((r) => r.forkOf)) return spec;
  return { ...spec, runs: spec.runs.map(({ forkOf: _, ...r }) => r) };
}

/**
 * The specs once run `id` is gone or starts over: it loses its own fork point, and its forks, whose histories
 * begin with a copy of its history up to their fork step, are forks of its source from then on (at the earlier
 * of the two fork steps), or of nothing when it had none. Unchanged specs are the same objects.
 */
export function detachForks(runs: readonly RunSpec[], id: string): RunSpec[] {
  const parent = runs.find((r) => r.id === id)?.forkOf;
  return runs.map((r) => {
    if (!r.forkOf || (r.id !== id && r.forkOf.id !== id)) return r;
    const { forkOf, ...rest } = r;
    return r.id !== id && parent
      ? { ...rest, forkOf: { id: parent.id, step: Math.min(forkOf.step, parent.step) } }
      : rest;
  });
}

/**
 * A fork's or an import's label once it starts over: "PPO (fork @ 3)" or "PPO (imported)" → "PPO", or "PPO 2",
 * "PPO 3"… past the `taken` ones.
 */
function unforkedLabel(label: string, taken: ReadonlySet<string>): string {
  const base = withoutHistory(label);
  let out = base;
  for (let n = 2; taken.has(out); n++) out = `${base} ${n}`;
  return out;
}

/**
 * The runs once all restarted: "PPO (fork @ 3)" and "PPO (imported)" become "PPO", or "PPO 2", "PPO 3"… when
 * another run has that label, and none keeps its fork point (RunSpec.forkOf). Runs that were neither forks nor
 * imports come back as they are (the same objects), and their labels are kept first.
 * Forks take their numbers in the order of their ids, not of the list: the page and the worker hold the runs
 * in different orders (the worker puts a fork after its source, the page at the end) and must agree.
 */
export function restartedSpecs<R extends { id: string; label: string; forkOf?: unknown }>(
  runs: readonly R[],
): R[] {
  const taken = new Set(runs.filter((r) => !HISTORY_SUFFIX.test(r.label)).map((r) => r.label));
  const labels = new Map<string, string>();
  const forks = runs.filter((r) => HISTORY_SUFFIX.test(r.label));
  forks.sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
  for (const r of forks) {
    const label = unforkedLabel(r.label, taken);
    taken.add(label);
    labels.set(r.id, label);
  }
  return runs.map((r) => {
    const label = labels.get(r.id);
    if (label === undefined && r.forkOf === undefined) return r;
    const { forkOf: _, ...rest } = r;
    return { ...rest, label: label ?? r.label } as R;
  });
}

/**
 * The specs once run `id` alone starts over from the start model (its weights were lost): as {@link detachForks},
 * and its fork or import label goes as {@link restartedSpecs} would make it go ("PPO (fork @ 3)" → "PPO", or "PPO 2"… when
 * another run has that label). Unchanged specs are the same objects.
 */
export function restartedRun<R extends RunSpec>(runs: readonly R[], id: string): R[] {
  const detached = detachForks(runs, id) as R[];
  const run = detached.find((r) => r.id === id);
  if (!run || !HISTORY_SUFFIX.test(run.label)) return detached;
  const taken = new Set(detached.filter((r) => r.id !== id).map((r) => r.label));
  const label = unforkedLabel(run.label, taken);
  return detached.map((r) => (r.id === id ? { ...r, label } : r));
}
