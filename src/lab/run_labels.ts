/**
 * Run labels that describe a run's history. A duplicate is labelled "PPO (fork @ 12)" (src/ui/lab/run_specs.ts
 * forkSpec); once every run restarts from the start model (Reset, the Pipeline's hand-off) it is a fork of
 * nothing, and its label says so no more. The page's store and the worker's scheduler both apply
 * {@link restartedSpecs} to the same runs (by id), so their labels agree.
 */

/** The end of a duplicate's label: " (fork @ N)". */
export const FORK_SUFFIX = / \(fork @ \d+\)$/;

/**
 * The runs once all restarted: "PPO (fork @ 3)" becomes "PPO", or "PPO 2", "PPO 3"… when another run has that
 * label, and none keeps its fork point (RunSpec.forkOf). Runs that were no forks come back as they are (the same
 * objects), and their labels are kept first.
 * Forks take their numbers in the order of their ids, not of the list: the page and the worker hold the runs
 * in different orders (the worker puts a fork after its source, the page at the end) and must agree.
 */
export function restartedSpecs<R extends { id: string; label: string; forkOf?: unknown }>(
  runs: readonly R[],
): R[] {
  const taken = new Set(runs.filter((r) => !FORK_SUFFIX.test(r.label)).map((r) => r.label));
  const labels = new Map<string, string>();
  const forks = runs.filter((r) => FORK_SUFFIX.test(r.label));
  forks.sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
  for (const r of forks) {
    const base = r.label.replace(FORK_SUFFIX, "");
    let label = base;
    for (let n = 2; taken.has(label); n++) label = `${base} ${n}`;
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
