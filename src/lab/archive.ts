/**
 * Recent experiments: earlier lab sessions kept in IndexedDB when another experiment replaces them (a lesson,
 * a shared link, the "Change…" dialog), so that opening something new never loses trained runs. Each entry
 * holds a whole {@link SavedSession} — the experiment, every run's curves, markers and newest checkpoint — and
 * the Pipeline's models when it had any; reopening one swaps it with the current session
 * ({@link ExperimentArchive.swapIn}).
 *
 * Stores (database "rlhf-playground-lab", version 3; see src/lab/persist.ts):
 * - `archive`      keyPath "id" → {@link ArchivedSession}: the session itself (checkpoint bytes included);
 * - `archiveIndex` keyPath "id" → {@link ArchiveEntry}: what the list shows, read without the bytes.
 * At most {@link ARCHIVE_MAX} entries are kept; beyond that the one holding the least training goes
 * ({@link toForget}), even when it is the one being kept.
 */
import type { IDBPDatabase } from "idb";
import type { LabDb, SavedPipeline, SavedSession } from "./persist";
import type { ExperimentSpec, MetricPoint } from "./protocol";
import type { AlgoId } from "./registry";
import { sameExperiment, sameRun } from "./restore";
import { type LabTx, listKept, readSession, removeKept, writeSession } from "./session_store";

/** Most experiments kept (a tiny-model session with three runs is ~30 MB with its checkpoints, AdamW states included). */
export const ARCHIVE_MAX = 6;

/** One kept experiment, as the list shows it. */
export interface ArchiveEntry {
  id: string;
  spec: ExperimentSpec;
  /**
   * Each run's label, algorithm and the step it was saved at (its checkpoint's, else its curves'); `curvesOnly`:
   * trained, but kept without a checkpoint (none saved yet, or storage full): reopened, it starts over.
   */
  runs: { label: string; algo: AlgoId; step: number; comparison?: true; curvesOnly?: true }[];
  /** The Pipeline's models (trained in the page) are kept with it. */
  pipeline: boolean;
  /**
   * What the runs started from when the Pipeline handed its model to them (the hand-off's description, e.g.
   * "pipeline: nano (…) after 40 SFT steps (this page)"); absent when they start from `spec.model`.
   */
  startModel?: string;
  /** When it was put away (ms since the epoch). */
  savedAt: number;
  /** What makes two kept sessions the same one (experiment, runs' steps and save times, Pipeline save time). */
  signature: string;
}

export interface ArchivedSession {
  id: string;
  session: SavedSession;
  pipeline: SavedPipeline | null;
}

/** What {@link savedStep} reads of a run: a saved one's, or the lab's (src/ui/lab_store.ts RunState). */
type RunLike = {
  comparison?: boolean;
  checkpoint?: { step: number } | null;
  history: readonly { step: number }[];
};

/**
 * The step a saved run would resume at (src/lab/restore.ts): its checkpoint's, else its last curve point; 0 for
 * a run imported for comparison (nothing resumes: its curves are drawn again, see {@link keepsCurves}).
 */
export function savedStep(run: RunLike): number {
  if (run.comparison) return 0;
  return run.checkpoint?.step ?? run.history.at(-1)?.step ?? 0;
}

/**
 * Whether a saved run holds curves worth keeping under Recent experiments: it trained, or it was imported for
 * comparison with its curves (reopened, the page draws them again: ui/lab/session.ts).
 */
export function keepsCurves(run: RunLike): boolean {
  return savedStep(run) > 0 || (run.comparison === true && run.history.length > 0);
}

/** True when a session holds something worth keeping: a run's curves ({@link keepsCurves}), or Pipeline models. */
export function hasProgress(session: SavedSession | null, pipeline: SavedPipeline | null): boolean {
  return (session?.runs.some(keepsCurves) ?? false) || pipeline !== null;
}

/** The Pipeline model the runs started from, as its saved view recorded it (src/ui/lab/pipeline_store.ts). */
function handedOffOf(pipeline: SavedPipeline | null): string | null {
  const view = pipeline?.view as { handedOff?: unknown } | null | undefined;
  return typeof view?.handedOff === "string" && view.handedOff.length > 0 ? view.handedOff : null;
}

/** The list entry of a session. */
function entryOf(
  id: string,
  session: SavedSession,
  pipeline: SavedPipeline | null,
  now: number,
): ArchiveEntry {
  const startModel = handedOffOf(pipeline);
  return {
    id,
    spec: session.spec,
    runs: session.runs.map((r) => ({
      label: r.spec.label,
      algo: r.spec.algo,
      step: savedStep(r),
      ...(r.comparison && { comparison: true as const }),
      ...(!r.comparison && !r.checkpoint && r.step > 0 && { curvesOnly: true as const }),
    })),
    pipeline: pipeline !== null,
    ...(startModel && { startModel }),
    savedAt: now,
    signature: JSON.stringify([
      session.spec,
      session.runs.map((r) => [r.spec.id, savedStep(r), r.history.length, r.checkpoint?.savedAt ?? 0]),
      pipeline?.savedAt ?? null,
    ]),
  };
}

const samePoint = (a: MetricPoint, b: MetricPoint) =>
  a.step === b.step &&
  a.samples === b.samples &&
  a.tokens === b.tokens &&
  JSON.stringify(a.metrics) === JSON.stringify(b.metrics);

/**
 * Whether the session `here` already holds everything `stored` does: the same experiment, each of `stored`'s
 * trained runs with the same settings and its curve a beginning of `here`'s, and the same Pipeline. Then
 * `stored` is an earlier copy of `here`'s training (what another tab saved before this one trained on, or an
 * entry kept before from the same training): keeping both would list it twice.
 */
export function holds(
  here: SavedSession,
  herePipeline: SavedPipeline | null,
  stored: SavedSession,
  storedPipeline: SavedPipeline | null,
): boolean {
  if (!sameExperiment(here.spec, stored.spec)) return false;
  const runs = new Map(here.runs.map((r) => [r.spec.id, r]));
  for (const s of stored.runs) {
    if (!keepsCurves(s)) continue;
    const h = runs.get(s.spec.id);
    if (!h || !h.comparison !== !s.comparison || !sameRun(h.spec, s.spec, stored.spec.seed)) return false;
    if (s.history.length > h.history.length || !s.history.every((p, i) => samePoint(p, h.history[i])))
      return false;
    // It must resume at least as far: weights `stored` has and `here` lacks (a run in error whose weights did
    // not export, a checkpoint behind the curves) would be lost with it.
    if ((s.checkpoint && !h.checkpoint) || savedStep(h) < savedStep(s)) return false;
  }
  if (!storedPipeline) return true;
  if (!herePipeline) return false;
  // (A record of another version may lack its models.)
  const steps = (p: SavedPipeline) => [p.models?.task, p.models?.sft?.steps, p.models?.rm?.steps];
  return (
    JSON.stringify(steps(herePipeline)) === JSON.stringify(steps(storedPipeline)) &&
    viewKey(herePipeline.view) === viewKey(storedPipeline.view)
  );
}

/** A saved Pipeline view for comparison: views saved before `handOffOld` existed have none (= false). */
function viewKey(view: unknown): string {
  if (!view || typeof view !== "object") return JSON.stringify(view ?? null);
  const { handOffOld, ...rest } = view as Record<string, unknown>;
  return JSON.stringify({ ...rest, handOffOld: handOffOld === true });
}

/**
 * Whether the session `stored` already holds everything `session` does and offers no other point to resume
 * from: {@link holds}, and each of `session`'s checkpoints is one `stored` has too (an earlier checkpoint is a
 * point to branch from, kept beside). Then keeping `session` would list the same training twice: it is a copy of
 * `stored` that lost weights (a page left while it started another experiment, after it dropped the old runs'
 * checkpoints and before its first save).
 */
export function covers(
  stored: SavedSession,
  storedPipeline: SavedPipeline | null,
  session: SavedSession,
  pipeline: SavedPipeline | null,
): boolean {
  if (!holds(stored, storedPipeline, session, pipeline)) return false;
  const runs = new Map(stored.runs.map((r) => [r.spec.id, r]));
  return session.runs.every(
    (r) => !keepsCurves(r) || !r.checkpoint || runs.get(r.spec.id)?.checkpoint?.step === r.checkpoint.step,
  );
}

/** What ranks an entry (kept, or about to be) by the training it holds. */
export type Ranked = Pick<ArchiveEntry, "runs" | "pipeline" | "savedAt">;

/** Its runs' saved steps together (runs imported for comparison count 0). */
const stepsHeld = (e: Pick<ArchiveEntry, "runs">): number => e.runs.reduce((n, r) => n + r.step, 0);

/** Negative when `a` holds less training than `b`: without Pipeline models, fewer steps, or as many but older. */
const lessTraining = (a: Ranked, b: Ranked): number =>
  Number(a.pipeline) - Number(b.pipeline) || stepsHeld(a) - stepsHeld(b) || a.savedAt - b.savedAt;

/**
 * The entries to forget when `entry` joins `listed` (the kept ones it does not replace) and they are more than
 * `max`: those holding the least training (Pipeline models outrank any runs; then the runs' saved steps together;
 * then the older goes first), least first. May include `entry` itself: then it is not kept (each kept one holds
 * more). Both {@link keepIn} and the confirmations that say beforehand what keeping would forget use it.
 */
export function toForget<T extends Ranked>(listed: readonly T[], entry: T, max = ARCHIVE_MAX): T[] {
  const over = listed.length + 1 - max;
  if (over <= 0) return [];
  // Stable: at a full tie, `entry` (last) stays and a kept one goes.
  return [...listed, entry].sort(lessTraining).slice(0, over);
}

/** The same session kept again (a quick reload, two tabs): same experiment, runs and save times. */
const sameKept = (a: ArchiveEntry, b: ArchiveEntry) => a.signature === b.signature;

/**
 * Keep a session inside the caller's transaction (archive and archiveIndex, read-write): an entry equal to it,
 * or one it continues ({@link holds}: an earlier copy of the same training, as two tabs pressing Save here in
 * turn keep), is replaced; beyond {@link ARCHIVE_MAX}, those holding the least training go ({@link toForget}),
 * and when that is this session itself it is not kept (`kept` false) and what it would replace stays. A session an entry
 * {@link covers} is not kept beside it: that entry is kept again in its place.
 */
export async function keepIn(
  tx: LabTx<"readwrite">,
  session: SavedSession,
  pipeline: SavedPipeline | null,
  now = Date.now(),
  /** Keep it whatever it holds (a path that could not ask first): the least trained kept one goes instead. */
  always = false,
): Promise<KeptEntry> {
  const id = `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const listed = await listKept(tx);
  // The entries of the same experiment, read once (each holds its checkpoints' bytes).
  const same = new Map<string, ArchivedSession>();
  for (const e of listed)
    if (sameExperiment(e.spec, session.spec)) {
      const old = await tx.objectStore("archive").get(e.id);
      if (old) same.set(e.id, old);
    }
  // A copy of an entry that adds nothing to it: that entry is kept again (newest first) instead.
  for (const old of same.values())
    if (covers(old.session, old.pipeline, session, pipeline)) {
      session = old.session;
      pipeline = old.pipeline;
      break;
    }
  const entry = entryOf(id, session, pipeline, now);
  const replaced = new Set<string>();
  for (const e of listed) {
    const old = same.get(e.id);
    if (sameKept(e, entry) || (old && holds(session, pipeline, old.session, old.pipeline)))
      replaced.add(e.id);
  }
  const others = listed.filter((e) => !replaced.has(e.id));
  const forget = always
    ? [...others].sort(lessTraining).slice(0, Math.max(0, others.length + 1 - ARCHIVE_MAX))
    : toForget(others, entry);
  const kept = !forget.includes(entry);
  // Not kept: the earlier copies it would replace stay (each holds part of its training).
  const dropped = forget.filter((e) => e !== entry);
  if (kept) for (const id of replaced) await removeKept(tx, id);
  for (const e of dropped) await removeKept(tx, e.id); // a list already over ARCHIVE_MAX (kept or not)
  if (kept) {
    await tx.objectStore("archive").put({ id, session, pipeline });
    await tx.objectStore("archiveIndex").put(entry);
  }
  return { ...entry, dropped, kept };
}

/**
 * A newly kept entry, with the entries forgotten to make room for it (`dropped`, least training first; the user
 * is told which). `kept` false: the session itself held the least training, and was not kept (the list holds
 * {@link ARCHIVE_MAX} entries each with more; `id` names nothing stored).
 */
export type KeptEntry = ArchiveEntry & { dropped: ArchiveEntry[]; kept: boolean };

const ARCHIVE_STORES = ["archive", "archiveIndex"] as const;
const ALL_STORES = ["meta", "runs", "history", "checkpoints", "pipeline", ...ARCHIVE_STORES] as const;

/** The kept experiments. Use through {@link LabPersistence.archive}. */
export class ExperimentArchive {
  /** `conn`: the lab's connection (reopened by LabPersistence when the browser closed it). */
  constructor(private readonly conn: () => Promise<IDBPDatabase<LabDb>>) {}

  /** Newest first. */
  async list(): Promise<ArchiveEntry[]> {
    return listKept((await this.conn()).transaction("archiveIndex") as unknown as LabTx);
  }

  /**
   * Keep a session (and its Pipeline). An entry of the same experiment with its runs at the same steps is
   * replaced (a quick reload keeps one copy), as is an earlier copy of the same training ({@link holds});
   * beyond {@link ARCHIVE_MAX}, the entry holding the least training goes ({@link toForget}), this one included.
   * `always`: keep it even when it holds the least (a path that could not say so first: the crash card's set-aside,
   * Save here); the least trained kept one goes instead.
   * @returns the new entry, with the entries forgotten to make room (`dropped`, least training first; usually
   *   none), and `kept` false when this session held the least and was not kept.
   * @throws what IndexedDB throws (e.g. QuotaExceededError); nothing is half-written (one transaction).
   */
  async keep(
    session: SavedSession,
    pipeline: SavedPipeline | null,
    now = Date.now(),
    always = false,
  ): Promise<KeptEntry> {
    const tx = (await this.conn()).transaction(ARCHIVE_STORES, "readwrite") as unknown as LabTx<"readwrite">;
    const entry = await keepIn(tx, session, pipeline, now, always);
    await tx.done;
    return entry;
  }

  /** One kept session, whole; undefined when there is none under `id`. */
  async get(id: string): Promise<ArchivedSession | undefined> {
    return (await this.conn()).get("archive", id);
  }

  async remove(id: string): Promise<void> {
    const tx = (await this.conn()).transaction(ARCHIVE_STORES, "readwrite") as unknown as LabTx<"readwrite">;
    await removeKept(tx, id);
    await tx.done;
  }

  /**
   * Reopen a kept experiment, in one transaction: it leaves the list and becomes the saved session, and the
   * session saved until now (when it holds trained runs or Pipeline models) is kept in its place — after the
   * reopened one left, so a full list loses nothing. The caller then opens the returned experiment's link.
   * @throws Error when `id` is not kept (any more); what IndexedDB throws. Either way nothing changed.
   */
  async swapIn(id: string): Promise<ExperimentSpec> {
    const tx = (await this.conn()).transaction(ALL_STORES, "readwrite") as unknown as LabTx<"readwrite">;
    const kept = await tx.objectStore("archive").get(id);
    if (!kept) {
      tx.abort();
      await tx.done.catch(() => {});
      throw new Error("that experiment is no longer kept in this browser");
    }
    const now = await readSession(tx);
    await removeKept(tx, id);
    if (now.session && hasProgress(now.session, now.pipeline)) await keepIn(tx, now.session, now.pipeline);
    await writeSession(tx, kept.session, kept.pipeline);
    await tx.done;
    return kept.session.spec;
  }
}
