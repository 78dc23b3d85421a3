/**
 * Which picked checkpoint (.safetensors) belongs to which picked run file (.json) on Import. A checkpoint's
 * metadata names the run it was saved from (src/lab/runs.ts safetensors: `algo`, `run` = its label, `steps`,
 * `task`, `seed`); a run file names its run, experiment and last step (run_file.ts). A checkpoint is loaded into
 * a run only when they agree, so a GRPO's weights never continue a PPO, and weights saved at step 25 never
 * continue curves that end at step 19.
 */

/** What the metadata of a checkpoint says about its run (keys absent in files from other tools). */
export type CheckpointMeta = Record<string, string>;

/** The run file's side: its run, the step its curves end at, its experiment. */
export interface RunFileSide {
  algo: string;
  label: string;
  step: number;
  task: string;
  seed: number;
}

/**
 * Why a checkpoint is not the one of this run file, in plain words; null when every field both name agrees
 * (a field the metadata lacks is not held against it).
 */
export function checkpointMismatch(meta: CheckpointMeta, run: RunFileSide): string | null {
  if (meta.algo !== undefined && meta.algo !== run.algo)
    return `it holds the weights of a ${meta.algo} run${meta.run ? ` ("${meta.run}")` : ""}, not of this ${run.algo} run`;
  if (meta.run !== undefined && meta.run !== run.label)
    return `it holds the weights of "${meta.run}", not of "${run.label}"`;
  if (meta.task !== undefined && meta.task !== run.task)
    return `it was trained on ${meta.task}, the run file on ${run.task}`;
  if (meta.seed !== undefined && meta.seed !== String(run.seed))
    return `it was trained with seed ${meta.seed}, the run file with seed ${run.seed}`;
  if (meta.steps !== undefined && meta.steps !== String(run.step))
    return `it was saved at step ${meta.steps} and the run file's curves end at step ${run.step} (export both at the same step)`;
  return null;
}

/** How much a checkpoint's metadata says about its run: a file naming it beats one that names nothing. */
const named = (m: CheckpointMeta) => ["algo", "run", "task", "seed", "steps"].filter((k) => k in m).length;

/**
 * For each run file, the index of its checkpoint among `metas` (null metas: unreadable files), or its problem:
 * among the checkpoints not taken yet that match it, the one whose metadata names the most about its run (a
 * file from another tool, naming nothing, comes last), in order on ties. A lone run file with a lone checkpoint
 * that does not match gets that checkpoint's mismatch as its reason.
 */
export function pairCheckpoints(
  runs: readonly RunFileSide[],
  metas: readonly (CheckpointMeta | null)[],
): { index: number | null; problem: string | null }[] {
  const used = new Set<number>();
  return runs.map((run) => {
    let best: number | null = null;
    metas.forEach((m, i) => {
      if (!m || used.has(i) || checkpointMismatch(m, run) !== null) return;
      if (best === null || named(m) > named(metas[best] as CheckpointMeta)) best = i;
    });
    if (best !== null) {
      used.add(best);
      return { index: best, problem: null };
    }
    const only = runs.length === 1 && metas.length === 1 ? metas[0] : null;
    return { index: null, problem: only ? checkpointMismatch(only, run) : null };
  });
}
