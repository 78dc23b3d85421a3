/**
 * The steps the runs had reached when the page was last hidden, kept synchronously (sessionStorage) because
 * IndexedDB writes started while a page unloads may never land. A reload resumes each run from its last
 * checkpoint; with this record its notice can say how far the run had got even when the curves after the
 * checkpoint were not saved either ("Resumed PPO at step 13 (it had reached 21)"), instead of saying nothing.
 * Only a hint for that notice: a record of another experiment, or of a run since renamed or changed, is ignored
 * (run ids and labels repeat across experiments: "ppo-1", "PPO").
 * The tab's own storage (sessionStorage: a reload, or a closed tab reopened, reads it): with localStorage, a
 * second tab opening the same experiment read the first tab's record from when that tab was last hidden
 * ("it had reached 21") while that tab, still training, was at 30.
 */
import type { ExperimentSpec, RunSpec } from "./protocol";
import { sameRun } from "./restore";
import { scopedStorage } from "./storage_scope";

/** The sessionStorage key. */
export const REACHED_KEY = "rlhf-playground:reached";

/** The part of Storage this needs (localStorage, or a stub in tests). */
export type ReachedStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

interface ReachedRecord {
  task: string;
  model: string;
  seed: number;
  /** Run id → the run (label, algorithm, settings) and its step. */
  runs: Record<string, { spec: RunSpec; step: number }>;
}

/**
 * The tab's sessionStorage with this deployment's keys (./storage_scope.ts: a tab that goes from /labA/ to
 * /labB/ keeps the same sessionStorage), or undefined (none here, or access denied: its getter throws then).
 */
export function pageStorage(): ReachedStorage | undefined {
  try {
    const store = typeof window !== "undefined" ? window.sessionStorage : undefined;
    return store ? scopedStorage(store) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Write the steps `runs` reached (runs at step 0 left out). Never throws: storage may be full or disabled.
 * @param runs run id → its step now.
 */
export function saveReached(store: ReachedStorage, spec: ExperimentSpec, runs: Record<string, number>): void {
  const rec: ReachedRecord = { task: spec.task, model: spec.model, seed: spec.seed, runs: {} };
  for (const r of spec.runs)
    if ((runs[r.id] ?? 0) > 0)
      rec.runs[r.id] = {
        spec: { id: r.id, label: r.label, algo: r.algo, config: r.config },
        step: runs[r.id],
      };
  try {
    store.setItem(REACHED_KEY, JSON.stringify(rec));
  } catch {
    // A notice's hint only: nothing to tell the user.
  }
}

/**
 * The record for `spec` (run id → step reached), removed from storage: the runs of the same task, model and
 * seed with the same label, algorithm and settings. Empty when there is none, it is another experiment's, or it
 * is unreadable.
 */
export function takeReached(store: ReachedStorage, spec: ExperimentSpec): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    const text = store.getItem(REACHED_KEY);
    store.removeItem(REACHED_KEY);
    const rec = text ? (JSON.parse(text) as Partial<ReachedRecord>) : null;
    if (!rec || rec.task !== spec.task || rec.model !== spec.model || rec.seed !== spec.seed) return out;
    for (const r of spec.runs) {
      const v = rec.runs?.[r.id];
      if (!v || !Number.isInteger(v.step) || v.step <= 0 || v.spec?.label !== r.label) continue;
      if (typeof v.spec.config === "object" && v.spec.config !== null && sameRun(v.spec, r, spec.seed))
        out[r.id] = v.step;
    }
  } catch {
    // Unreadable or unavailable: no hint.
  }
  return out;
}

/** Drop the record (an Open of a kept experiment: the record is the one being left's). Never throws. */
export function forgetReached(store: ReachedStorage | undefined): void {
  try {
    store?.removeItem(REACHED_KEY);
  } catch {
    // Nothing to do.
  }
}
