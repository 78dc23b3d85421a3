/**
 * What to bring back after a reload: the runs of the experiment being opened whose saved state belongs to it
 * (same task, start model and seed; same id, algorithm and settings), with their metric history, markers and
 * checkpoint. Pure: src/lab/persist.ts reads the session, the page applies the plan (store, then worker).
 *
 * A run resumes from its checkpoint when the worker can load one (LabWorkerApi.loadRunCheckpoint): its history
 * and markers are cut at the checkpoint's step, so the curves continue where the weights are. A run with no
 * checkpoint saved yet starts over (its old curves would belong to other weights); with a worker that cannot
 * load checkpoints (`canResume` false) the curves alone come back. The notice says which runs did what.
 */

import type { SavedSession } from "./persist";
import type {
  ExperimentSpec,
  Marker,
  MetricPoint,
  RunCounters,
  RunSpec,
  RunStatus,
  SettingValue,
} from "./protocol";
import { restartedRun } from "./run_labels";
import { nonDefaultConfig } from "./spec_check";

/** A run as the lab store restores it (RunState without samples and error). */
export interface RestoredRun {
  spec: RunSpec;
  status: RunStatus;
  step: number;
  history: MetricPoint[];
  markers: Marker[];
  /** Settings changed after its last step, kept when it resumes at that step (SavedRun.untrained). */
  untrained?: Record<string, SettingValue | null>;
}

export interface ResumeCheckpoint {
  runId: string;
  bytes: Uint8Array;
  at: RunCounters;
}

export interface RestorePlan {
  runs: RestoredRun[];
  /** For the worker, after init: loadRunCheckpoint(runId, bytes, at). */
  checkpoints: ResumeCheckpoint[];
  /** What the user should know (runs shown without their weights); null when all resumed. */
  notice: string | null;
  /**
   * Saved runs the opened experiment has no place for (another task, start model or seed; a run id it lacks;
   * other settings): the autosaver drops them, so the page keeps their session first (src/lab/archive.ts).
   */
  leftOut: SavedSession["runs"];
}

/**
 * The same run as far as restoring goes: same algorithm, settings and training seed (label, colour and order
 * aside). With `experimentSeed` (both runs in experiments of that seed) the seeds compared are the effective
 * ones, so no own seed and an own seed equal to the experiment's are one (Repeat on other seeds gives its source
 * its seed explicitly); without it, the own seeds as written.
 */
export function sameRun(a: RunSpec, b: RunSpec, experimentSeed?: number): boolean {
  const seedOf = (r: RunSpec) => (experimentSeed === undefined ? r.seed : (r.seed ?? experimentSeed));
  if (a.algo !== b.algo || seedOf(a) !== seedOf(b)) return false;
  const x = nonDefaultConfig(a.algo, a.config);
  const y = nonDefaultConfig(b.algo, b.config);
  const kx = Object.keys(x);
  return kx.length === Object.keys(y).length && kx.every((k) => Object.hasOwn(y, k) && x[k] === y[k]);
}

/** The saved run `s` resumes as `run` from its checkpoint (a worker that loads one, a checkpoint past step 0). */
function resumes(
  run: RunSpec,
  s: SavedSession["runs"][number] | undefined,
  canResume: boolean,
  seed: number,
): boolean {
  return (
    !!s && sameRun(s.spec, run, seed) && !s.comparison && canResume && !!s.checkpoint && s.checkpoint.step > 0
  );
}

/**
 * `spec` with the runs that will not resume from a checkpoint of `session` (planRestore's rule) named as Reset
 * names them: "PPO (fork @ 12)" or "PPO (imported)" → "PPO", or "PPO 2"… when taken (run_labels.ts). Those runs
 * start from the start model (a link opened in another browser, a reload before their first checkpoint), so a
 * label naming their history would be wrong. Only where the worker loads checkpoints (`canResume`): without,
 * the curves come back and the label goes with them. Unchanged: the same object.
 */
export function relabelStartingOver(
  spec: ExperimentSpec,
  session: SavedSession | null,
  canResume: boolean,
): ExperimentSpec {
  if (!canResume) return spec;
  const same = session !== null && sameExperiment(spec, session.spec);
  const saved = new Map(same ? session.runs.map((r) => [r.spec.id, r]) : []);
  let runs = spec.runs;
  for (const r of spec.runs)
    if (!resumes(r, saved.get(r.id), canResume, spec.seed)) runs = restartedRun(runs, r.id);
  return runs.every((r, i) => r === spec.runs[i]) ? spec : { ...spec, runs };
}

/** True when the saved session was recorded on this experiment's task, start model and seed. */
export function sameExperiment(a: ExperimentSpec, b: ExperimentSpec): boolean {
  return a.task === b.task && a.model === b.model && a.seed === b.seed;
}

/**
 * The runs of an experiment (`saved`, its `runs`) that opening `spec` has no place for: all of them for another
 * task, start model or seed; else those whose id `spec` lacks or whose settings it changed ({@link sameRun}).
 */
export function leftOutBy<R extends { spec: RunSpec }>(
  spec: ExperimentSpec,
  saved: ExperimentSpec,
  runs: readonly R[],
): R[] {
  if (!sameExperiment(spec, saved)) return [...runs];
  const wanted = new Map(spec.runs.map((r) => [r.id, r]));
  return runs.filter((s) => {
    const run = wanted.get(s.spec.id);
    return !run || !sameRun(s.spec, run, spec.seed);
  });
}

/**
 * The restore plan for `spec` from a saved session; `canResume`: the worker has loadRunCheckpoint; `reached`:
 * the steps the runs had reached when the page was last hidden (reached.ts), for the notice when even the
 * curves after the checkpoint were not saved.
 */
export function planRestore(
  spec: ExperimentSpec,
  session: SavedSession | null,
  canResume: boolean,
  reached: Readonly<Record<string, number>> = {},
  /** The names the runs had when saved, by id, where the notice should use them (relabelStartingOver). */
  knownAs: ReadonlyMap<string, string> = new Map(),
): RestorePlan {
  const plan: RestorePlan = { runs: [], checkpoints: [], notice: null, leftOut: [] };
  if (!session) return plan;
  if (!sameExperiment(spec, session.spec)) return { ...plan, leftOut: session.runs };
  plan.leftOut = leftOutBy(spec, session.spec, session.runs);
  const saved = new Map(session.runs.map((r) => [r.spec.id, r]));
  const startsOver: string[] = [];
  const behind: string[] = [];
  const curvesOnly: string[] = [];
  for (const run of spec.runs) {
    const s = saved.get(run.id);
    if (!s || !sameRun(s.spec, run, spec.seed)) continue;
    // Imported for comparison: no weights to resume; the page brings its curves back itself (ui/lab/session.ts).
    if (s.comparison) continue;
    const ck = s.checkpoint;
    // Without curves and without weights there is nothing to bring back; a checkpoint alone still resumes.
    if (s.history.length === 0 && !(canResume && ck && ck.step > 0)) continue;
    if (resumes(run, s, canResume, spec.seed) && ck) {
      const curves = s.history.at(-1)?.step ?? ck.step;
      const last = Math.max(curves, reached[run.id] ?? 0);
      // Without this tab's record of the steps reached (a new tab; an older record), the saved curves give a floor.
      const atLeast = (reached[run.id] ?? 0) < curves ? "at least " : "";
      if (last > ck.step) behind.push(`${run.label} at step ${ck.step} (it had reached ${atLeast}${last})`);
      plan.runs.push({
        spec: run,
        status: "paused",
        step: ck.step,
        history: s.history.filter((p) => p.step <= ck.step),
        markers: s.markers.filter((m) => m.step <= ck.step),
        // Its settings turned since its last step are still untrained at an older checkpoint too, unless a
        // change after that checkpoint (its marker dropped with the steps) makes the values differ there.
        ...(s.untrained && !s.markers.some((m) => m.step > ck.step) && { untrained: s.untrained }),
      });
      plan.checkpoints.push({
        runId: run.id,
        bytes: ck.bytes,
        at: { step: ck.step, samples: ck.samples, tokens: ck.tokens },
      });
    } else if (canResume) {
      // The worker would start this run over: curves from the old weights would mislead.
      startsOver.push(knownAs.get(run.id) ?? run.label);
    } else {
      plan.runs.push({
        spec: run,
        status: "paused",
        step: s.step,
        history: s.history,
        markers: s.markers,
        ...(s.untrained && { untrained: s.untrained }),
      });
      curvesOnly.push(run.label);
    }
  }
  const notes: string[] = [];
  if (behind.length)
    notes.push(
      `Resumed ${behind.join(", ")}: the last checkpoint; the steps after it were not saved yet (while playing the ` +
        "lab saves one every 30 s, and at once on pause: wait for “saved” before a reload).",
    );
  if (startsOver.length)
    notes.push(
      `${startsOver.join(", ")} had no saved checkpoint yet (the lab saves one every 30 s of training and on ` +
        `pause), so ${startsOver.length > 1 ? "they start" : "it starts"} over from the start model.`,
    );
  if (curvesOnly.length)
    notes.push(
      `Restored the curves of ${curvesOnly.join(", ")}, but not ${curvesOnly.length > 1 ? "their" : "its"} ` +
        "weights: training goes on from the start model. Reset to start the curves over.",
    );
  plan.notice = notes.length ? notes.join(" ") : null;
  // A link does not carry a fork's fork point (RunSpec.forkOf): it comes back from the saved run, as a fork of
  // the nearest run up its chain of sources that comes back with its curves too (otherwise they no longer share
  // their first steps), no later than where that run resumes (a run in error saved no checkpoint since).
  const back = new Map(plan.runs.map((r) => [r.spec.id, r.step]));
  const pointOf = (id: string): { id: string; step: number } | undefined => {
    let step = Number.POSITIVE_INFINITY;
    const seen = new Set([id]);
    for (let f = saved.get(id)?.spec.forkOf; f && !seen.has(f.id); f = saved.get(f.id)?.spec.forkOf) {
      if (!Number.isInteger(f.step) || f.step < 0) return undefined;
      step = Math.min(step, f.step);
      const at = back.get(f.id);
      if (at !== undefined) return { id: f.id, step: Math.min(step, at) };
      seen.add(f.id);
    }
    return undefined;
  };
  plan.runs = plan.runs.map((r) => {
    const forkOf = pointOf(r.spec.id);
    return forkOf ? { ...r, spec: { ...r.spec, forkOf } } : r;
  });
  return plan;
}
